import {
  CONTACT_FIRST_NAME_REQUIRED,
  CONTACT_INVALID_EMAIL,
  CONTACT_INVALID_PHONE,
  CONTACT_LAST_NAME_REQUIRED,
  CONTACT_MESSAGE_TOO_LONG,
  CONTACT_SUBJECT,
  NEWSLETTER_SUBJECT,
} from '@avp/shared';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupUser } from '../../../ui/test-utils';
import ContactForm from './ContactForm';

/** The network boundary: fetch answers like POST /api/contact would. */
function answer(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function sentBody(fetchMock: ReturnType<typeof answer>): Record<string, unknown> {
  const call = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
  return JSON.parse(String(call[1].body)) as Record<string, unknown>;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });

describe('ContactForm (SPEC §2, §4, §5)', () => {
  it('shows the spec message of every invalid field and sends nothing', async () => {
    const fetchMock = answer(201, { received: true });
    const user = setupUser();
    render(<ContactForm />);
    await user.type(field('Phone'), '12345');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    for (const message of [
      CONTACT_FIRST_NAME_REQUIRED,
      CONTACT_LAST_NAME_REQUIRED,
      CONTACT_INVALID_EMAIL,
      CONTACT_INVALID_PHONE,
      CONTACT_MESSAGE_TOO_LONG,
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(field('First name').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a message over 300 characters and counts the characters', async () => {
    answer(201, { received: true });
    const user = setupUser();
    render(<ContactForm />);
    await user.click(field('Message'));
    await user.paste('x'.repeat(301));
    expect(screen.getByText('301/300')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(CONTACT_MESSAGE_TOO_LONG)).toBeTruthy();
  });

  it('clears the previous errors when submitted again', async () => {
    answer(201, { received: true });
    const user = setupUser();
    render(<ContactForm />);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(CONTACT_FIRST_NAME_REQUIRED)).toBeTruthy();
    await user.type(field('First name'), 'Dana');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(screen.queryByText(CONTACT_FIRST_NAME_REQUIRED)).toBeNull();
    expect(await screen.findByText(CONTACT_LAST_NAME_REQUIRED)).toBeTruthy();
  });

  it('sends, shows sending and sent, fades the confirmation and clears the fields after 3 s', async () => {
    const fetchMock = answer(201, { received: true });
    const user = setupUser();
    render(<ContactForm />);
    await user.type(field('First name'), 'Dana');
    await user.type(field('Last name'), 'Okafor');
    await user.type(field('E-mail'), 'dana@example.com');
    await user.type(field('Company'), 'Lakeshore Medical');
    await user.type(field('Message'), 'Two LED walls for October, please.');
    await user.click(screen.getByRole('checkbox', { name: 'Also send me the Hot Trends newsletter' }));
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    const confirmation = await screen.findByText(/Thank you, Dana\. Your message is on its way/);
    expect(screen.getByRole('button', { name: 'Sent' }).getAttribute('aria-disabled')).toBe('true');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/api/contact');
    expect(sentBody(fetchMock)).toEqual({
      firstname: 'Dana',
      lastname: 'Okafor',
      email: 'dana@example.com',
      phone: '',
      company: 'Lakeshore Medical',
      title: '',
      message: 'Two LED walls for October, please.',
      subject: CONTACT_SUBJECT,
      hottrends: 'YES',
      variant: 'contact',
      website: '',
    });
    expect((field('First name') as HTMLInputElement).value).toBe('Dana');

    act(() => vi.advanceTimersByTime(3_000));
    expect(confirmation.className).toContain('fading');
    expect((field('First name') as HTMLInputElement).value).toBe('');
    expect((field('Message') as HTMLTextAreaElement).value).toBe('');
    expect(screen.getByRole('button', { name: 'Send message' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(700));
    expect(screen.queryByText(/Thank you, Dana/)).toBeNull();
  });

  it('in newsletter mode hides the message and signs up with the newsletter subject', async () => {
    const fetchMock = answer(201, { received: true });
    const user = setupUser();
    render(<ContactForm variant="newsletter" />);
    expect(screen.queryByRole('textbox', { name: /^Message/ })).toBeNull();
    expect((document.querySelector('input[name="subject"]') as HTMLInputElement).value).toBe(
      NEWSLETTER_SUBJECT,
    );
    await user.type(field('First name'), 'Lee');
    await user.type(field('Last name'), 'Park');
    await user.type(field('E-mail'), 'lee@example.com');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Thank you, Lee. You are signed up for Hot Trends.')).toBeTruthy();
    expect(sentBody(fetchMock)).toMatchObject({
      variant: 'newsletter',
      subject: NEWSLETTER_SUBJECT,
      hottrends: 'YES',
      message: '',
    });
  });

  it('shows field errors the server sends back', async () => {
    answer(400, {
      error: {
        code: 'validation_failed',
        message: 'Some fields are missing or invalid.',
        fields: { email: CONTACT_INVALID_EMAIL },
      },
    });
    const user = setupUser();
    render(<ContactForm variant="newsletter" />);
    await user.type(field('First name'), 'Lee');
    await user.type(field('Last name'), 'Park');
    await user.type(field('E-mail'), 'lee@example.com');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText(CONTACT_INVALID_EMAIL)).toBeTruthy();
  });

  it('explains a refusal in a message dialog with Continue and keeps what was typed', async () => {
    answer(429, { error: { code: 'rate_limited', message: 'Too many messages.' } });
    const user = setupUser();
    render(<ContactForm variant="newsletter" />);
    await user.type(field('First name'), 'Lee');
    await user.type(field('Last name'), 'Park');
    await user.type(field('E-mail'), 'lee@example.com');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Not sent yet' });
    expect(dialog.textContent).toContain('Too many messages.');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((field('First name') as HTMLInputElement).value).toBe('Lee');
  });
});

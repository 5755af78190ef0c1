import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContactFormDemo } from '../showcase/ContactFormDemo';
import { setupUser } from '../test-utils';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function field(name: RegExp) {
  return screen.getByRole('textbox', { name });
}

function describedTexts(element: HTMLElement) {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '');
}

describe('react-hook-form bindings with the shared contact schema (SPEC §5 contact form)', () => {
  it('shows the spec’s messages with error styling on submit, and focuses the first invalid field', async () => {
    const user = setupUser();
    const onValid = vi.fn();
    render(<ContactFormDemo onValid={onValid} />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(field(/First name/).getAttribute('aria-invalid')).toBe('true'));

    expect(onValid).not.toHaveBeenCalled();
    for (const [name, message] of [
      [/First name/, 'Must enter a first name.'],
      [/Last name/, 'Must enter a last name.'],
      [/E-mail/, 'Invalid email address.'],
      [/Message/, 'Please supply a message no larger than 300 characters.'],
    ] as const) {
      expect(field(name).getAttribute('aria-invalid')).toBe('true');
      expect(describedTexts(field(name))).toContain(message);
      expect(field(name).closest('.kit-field')?.hasAttribute('data-invalid')).toBe(true);
    }
    // Optional and empty: valid.
    expect(field(/Phone/).getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(field(/First name/));
  });

  it('validates a given phone and the 300 character limit, with the counter', async () => {
    const user = setupUser();
    render(<ContactFormDemo />);
    await user.type(field(/Phone/), '555');
    await user.tab();
    await waitFor(() => expect(describedTexts(field(/Phone/))).toContain('Invalid phone number.'));

    const message = field(/Message/);
    await user.click(message);
    await user.paste('x'.repeat(301));
    const counter = document.querySelector('.kit-counter');
    expect(counter?.textContent).toContain('301/300');
    expect(counter?.hasAttribute('data-over')).toBe(true);
    await user.tab();
    await waitFor(() =>
      expect(describedTexts(message)).toContain('Please supply a message no larger than 300 characters.'),
    );
    await user.type(message, '{Backspace}');
    expect(counter?.textContent).toContain('300/300');
    expect(counter?.hasAttribute('data-over')).toBe(false);
  });

  it('passes the parsed message on when valid, then shows the Continue dialog and clears the form', async () => {
    const user = setupUser();
    const onValid = vi.fn();
    render(<ContactFormDemo onValid={onValid} />);
    await user.type(field(/First name/), 'Ada');
    await user.type(field(/Last name/), 'Lovelace');
    await user.type(field(/E-mail/), ' ada@example.com ');
    await user.type(field(/Phone/), '(555) 123-4567');
    await user.type(field(/Message/), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onValid).toHaveBeenCalled());
    expect(onValid).toHaveBeenCalledWith(
      expect.objectContaining({
        firstname: 'Ada',
        email: 'ada@example.com',
        phone: '(555) 123-4567',
        message: 'Hello',
        hottrends: 'NO',
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    act(() => vi.advanceTimersByTime(100));
    expect(field(/First name/)).toHaveProperty('value', '');
  });
});

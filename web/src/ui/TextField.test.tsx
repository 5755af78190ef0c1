import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupUser } from './test-utils';
import { EmailField, PhoneField, TextAreaField, TextField } from './TextField';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function describedTexts(element: HTMLElement) {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '');
}

describe('TextField, EmailField, PhoneField: label, help text, error text and styling', () => {
  it('labels the input and describes it with the help text', () => {
    render(<TextField label="Company" description="As it should appear on the invoice" />);
    const input = screen.getByRole('textbox', { name: 'Company' });
    expect(describedTexts(input)).toEqual(['As it should appear on the invoice']);
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('an error message marks the field invalid and is announced with it', () => {
    render(<TextField label="First name" isRequired errorMessage="Must enter a first name." />);
    const input = screen.getByRole('textbox', { name: /First name/ });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(describedTexts(input)).toContain('Must enter a first name.');
    expect(input.closest('.kit-field')?.hasAttribute('data-invalid')).toBe(true);
  });

  it('reports typing and leaving', async () => {
    const user = setupUser();
    const onChange = vi.fn();
    const onBlur = vi.fn();
    render(<TextField label="Company" onChange={onChange} onBlur={onBlur} />);
    await user.type(screen.getByRole('textbox', { name: 'Company' }), 'Acme');
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith('Acme');
    expect(onBlur).toHaveBeenCalledTimes(1);
  });

  it('e-mail and phone fields use the matching input types and autofill', () => {
    render(
      <>
        <EmailField label="E-mail" />
        <PhoneField label="Phone" />
      </>,
    );
    const email = screen.getByRole('textbox', { name: 'E-mail' });
    expect(email.getAttribute('type')).toBe('email');
    expect(email.getAttribute('autocomplete')).toBe('email');
    const phone = screen.getByRole('textbox', { name: 'Phone' });
    expect(phone.getAttribute('type')).toBe('tel');
    expect(phone.getAttribute('autocomplete')).toBe('tel');
  });
});

describe('TextAreaField with a counter (contact message: 300)', () => {
  it('counts as you type and turns the error colour beyond the limit, without blocking', async () => {
    const user = setupUser();
    render(<TextAreaField label="Message" limit={300} />);
    const area = screen.getByRole('textbox', { name: 'Message' });
    const counter = document.querySelector('.kit-counter') as HTMLElement;
    expect(counter.textContent).toContain('0/300');
    expect(describedTexts(area).join(' ')).toContain('0/300');
    await user.click(area);
    await user.paste('y'.repeat(300));
    expect(counter.textContent).toContain('300/300');
    expect(counter.hasAttribute('data-over')).toBe(false);
    await user.type(area, 'z');
    expect((area as HTMLTextAreaElement).value).toHaveLength(301);
    expect(counter.textContent).toContain('301/300');
    expect(counter.hasAttribute('data-over')).toBe(true);
  });

  it('shows help and error text', () => {
    render(
      <TextAreaField
        label="Message"
        limit={300}
        description="Tell us about your event"
        errorMessage="Please supply a message no larger than 300 characters."
      />,
    );
    const area = screen.getByRole('textbox', { name: 'Message' });
    expect(area.getAttribute('aria-invalid')).toBe('true');
    expect(describedTexts(area)).toEqual(
      expect.arrayContaining([
        'Tell us about your event',
        'Please supply a message no larger than 300 characters.',
      ]),
    );
  });
});

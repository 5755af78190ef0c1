import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PasswordField } from './PasswordField';
import { setupUser } from './test-utils';

const UPPERCASE = 'This field requires at least one uppercase value.';
const SYMBOL = 'A symbol is required.';
const more = (n: number) => `You are required to add ${n} more character(s) to this field.`;

function hints() {
  return Array.from(document.querySelectorAll('.kit-hints li')).map((li) => li.textContent);
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('PasswordField hints (SPEC §5: after 1200 ms of typing)', () => {
  it('shows nothing before 1200 ms and the hints, in the spec’s words and order, at 1200 ms', async () => {
    const user = setupUser();
    render(<PasswordField label="Password" />);
    await user.type(screen.getByLabelText('Password'), 'abc');
    expect(hints()).toEqual([]);
    act(() => vi.advanceTimersByTime(1199));
    expect(hints()).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(hints()).toEqual([UPPERCASE, more(5), SYMBOL]);
  });

  it('waits for a pause: each keystroke restarts the 1200 ms', async () => {
    const user = setupUser();
    render(<PasswordField label="Password" />);
    const input = screen.getByLabelText('Password');
    await user.type(input, 'Ab');
    act(() => vi.advanceTimersByTime(1000));
    await user.type(input, 'c');
    act(() => vi.advanceTimersByTime(1000));
    expect(hints()).toEqual([]);
    act(() => vi.advanceTimersByTime(200));
    expect(hints()).toEqual([more(5), SYMBOL]);
  });

  it('updates as the password improves and empties when nothing is missing', async () => {
    const user = setupUser();
    render(<PasswordField label="Password" />);
    const input = screen.getByLabelText('Password');
    await user.type(input, 'Abcdefg');
    act(() => vi.advanceTimersByTime(1200));
    expect(hints()).toEqual([more(1), SYMBOL]);
    await user.type(input, '!');
    act(() => vi.advanceTimersByTime(1200));
    expect(hints()).toEqual([]);
  });

  it('the hints are announced and describe the input', async () => {
    const user = setupUser();
    render(<PasswordField label="Password" />);
    const input = screen.getByLabelText('Password');
    const list = document.querySelector('.kit-hints');
    expect(list?.getAttribute('aria-live')).toBe('polite');
    expect(input.getAttribute('aria-describedby')).toContain(list?.id);
    await user.type(input, 'x');
    act(() => vi.advanceTimersByTime(1200));
    expect(list?.textContent).toContain(UPPERCASE);
  });

  it('a login field (current-password) gives no hints', async () => {
    const user = setupUser();
    render(<PasswordField label="Password" autoComplete="current-password" />);
    await user.type(screen.getByLabelText('Password'), 'abc');
    act(() => vi.advanceTimersByTime(5000));
    expect(document.querySelector('.kit-hints')).toBeNull();
  });

  it('is a password input that the toggle can reveal', async () => {
    const user = setupUser();
    render(<PasswordField label="Password" />);
    const input = screen.getByLabelText('Password');
    expect(input.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input.getAttribute('type')).toBe('text');
  });
});

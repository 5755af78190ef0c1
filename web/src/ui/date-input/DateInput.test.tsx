import { act, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupUser } from '../test-utils';
import { widgetDefaults } from '../theme';
import { DateInput, type DateInputProps } from './DateInput';

function Harness(props: Partial<DateInputProps> & { initial?: string }) {
  const { initial = '', ...rest } = props;
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateInput label="Delivery date" {...rest} value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

function setup(props: Partial<DateInputProps> & { initial?: string } = {}) {
  const user = setupUser();
  render(<Harness {...props} />);
  const input = screen.getByRole('textbox', { name: /Delivery date/ });
  return { user, input, value: () => screen.getByTestId('value').textContent };
}

async function typeAndLeave(user: ReturnType<typeof setupUser>, input: HTMLElement, text: string) {
  await user.clear(input);
  if (text) await user.type(input, text);
  await user.tab();
}

beforeEach(() => {
  vi.useFakeTimers();
  // Friday, June 13, 2031, 10:00 local time
  vi.setSystemTime(new Date(2031, 5, 13, 10, 0));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('DateInput: manual entry (SPEC §5)', () => {
  it('accepts M/D/YYYY and shows the value as M/D/YYYY', async () => {
    const { user, input, value } = setup();
    await typeAndLeave(user, input, '01/05/2032');
    expect(value()).toBe('2032-01-05');
    expect(input).toHaveProperty('value', '1/5/2032');
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('commits on Enter too', async () => {
    const { user, input, value } = setup();
    await user.type(input, '7/4/2032{Enter}');
    expect(value()).toBe('2032-07-04');
  });

  it('a single slash appends the current year', async () => {
    const { user, input, value } = setup();
    await typeAndLeave(user, input, '3/4');
    expect(value()).toBe('2031-03-04');
    expect(input).toHaveProperty('value', '3/4/2031');
  });

  it('a 13 digit number is read as a timestamp', async () => {
    const { user, input, value } = setup();
    const stamp = new Date(2032, 1, 3, 15, 0).getTime();
    await typeAndLeave(user, input, String(stamp));
    expect(value()).toBe('2032-02-03');
    expect(input).toHaveProperty('value', '2/3/2032');
  });

  it('a 12 digit number is read as a timestamp', async () => {
    const { user, input, value } = setup();
    const stamp = new Date(1999, 11, 31, 12, 0).getTime();
    expect(String(stamp)).toHaveLength(12);
    await typeAndLeave(user, input, String(stamp));
    expect(value()).toBe('1999-12-31');
  });

  it('clearing the text clears the value', async () => {
    const { user, input, value } = setup({ initial: '2031-06-20' });
    expect(input).toHaveProperty('value', '6/20/2031');
    await typeAndLeave(user, input, '');
    expect(value()).toBe('');
  });
});

describe('DateInput: invalid entry shows its message for 2500 ms, then reverts', () => {
  it("shows 'Invalid Date Format (M/D/YYYY)' with error styling, then reverts to the previous value", async () => {
    const { user, input, value } = setup({ initial: '2031-06-20' });
    await typeAndLeave(user, input, '13/45/2031');

    expect(screen.getByText('Invalid Date Format (M/D/YYYY)')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.closest('.kit-field')?.hasAttribute('data-invalid')).toBe(true);
    expect(input).toHaveProperty('value', '13/45/2031');
    expect(value()).toBe('2031-06-20');

    act(() => vi.advanceTimersByTime(2499));
    expect(screen.queryByText('Invalid Date Format (M/D/YYYY)')).toBeTruthy();

    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Invalid Date Format (M/D/YYYY)')).toBeNull();
    expect(input).toHaveProperty('value', '6/20/2031');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(value()).toBe('2031-06-20');
  });

  it('reverts to empty when there was no previous value', async () => {
    const { user, input, value } = setup();
    await typeAndLeave(user, input, 'soon');
    act(() => vi.advanceTimersByTime(2500));
    expect(input).toHaveProperty('value', '');
    expect(value()).toBe('');
  });

  it('typing again during the message cancels the revert', async () => {
    const { user, input, value } = setup({ initial: '2031-06-20' });
    await typeAndLeave(user, input, '2/30/2032');
    expect(screen.getByText('Invalid Date Format (M/D/YYYY)')).toBeTruthy();
    await user.click(input);
    await user.type(input, '{Backspace}{Backspace}{Backspace}{Backspace}2033');
    expect(screen.queryByText('Invalid Date Format (M/D/YYYY)')).toBeNull();
    act(() => vi.advanceTimersByTime(3000));
    expect(input).toHaveProperty('value', '2/30/2033');
    expect(value()).toBe('2031-06-20');
  });

  it('the delay can be set per field', async () => {
    const { user, input } = setup({ errorClearMs: 500 });
    await typeAndLeave(user, input, 'x');
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryByText('Invalid Date Format (M/D/YYYY)')).toBeNull();
  });
});

describe('DateInput: bounds (SPEC §5)', () => {
  it("'Date must be after {date}' when on or before the lower bound, then reverts", async () => {
    const { user, input, value } = setup({ after: '2031-07-01', initial: '2031-07-10' });
    await typeAndLeave(user, input, '7/1/2031');
    expect(screen.getByText('Date must be after Jul 1, 2031')).toBeTruthy();
    expect(value()).toBe('2031-07-10');
    act(() => vi.advanceTimersByTime(2500));
    expect(screen.queryByText('Date must be after Jul 1, 2031')).toBeNull();
    expect(input).toHaveProperty('value', '7/10/2031');

    await typeAndLeave(user, input, '6/30/2031');
    expect(screen.getByText('Date must be after Jul 1, 2031')).toBeTruthy();
  });

  it("'Date must be before {date}' when on or after the upper bound", async () => {
    const { user, input, value } = setup({ before: '2031-07-31' });
    await typeAndLeave(user, input, '7/31/2031');
    expect(screen.getByText('Date must be before Jul 31, 2031')).toBeTruthy();
    act(() => vi.advanceTimersByTime(2500));
    await typeAndLeave(user, input, '8/15/2031');
    expect(screen.getByText('Date must be before Jul 31, 2031')).toBeTruthy();
    act(() => vi.advanceTimersByTime(2500));
    await typeAndLeave(user, input, '7/30/2031');
    expect(value()).toBe('2031-07-30');
  });

  it('inclusive minDate / maxDate accept their own days', async () => {
    const { user, input, value } = setup({ minDate: '2031-07-01', maxDate: '2031-07-03' });
    await typeAndLeave(user, input, '7/1/2031');
    expect(value()).toBe('2031-07-01');
    await typeAndLeave(user, input, '7/3/2031');
    expect(value()).toBe('2031-07-03');
    await typeAndLeave(user, input, '7/4/2031');
    expect(screen.getByText('Date must be before Jul 4, 2031')).toBeTruthy();
  });

  it("a form's own error shows when there is no typing error", () => {
    render(<DateInput label="Delivery date" errorMessage="This field is required." />);
    expect(screen.getByText('This field is required.')).toBeTruthy();
    expect(screen.getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('DateInput: calendar dialog', () => {
  it("opens from the keyboard, is titled 'ddd, MMM D', and Escape closes it", async () => {
    const { user, input } = setup({ initial: '2031-06-20' });
    await user.click(input);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose date' }));
    await user.keyboard('{Enter}');

    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Fri, Jun 20' })).toBeTruthy();
    expect(dialog.getAttribute('aria-labelledby')).toBe(
      within(dialog).getByRole('heading', { name: 'Fri, Jun 20' }).id,
    );
    // The dialog's width is the kit's 375 px (widgetDefaults.date.dialogWidth, via --kit-calendar-dialog-width).
    expect(dialog.closest('.kit-calendar-dialog')).toBeTruthy();
    expect(widgetDefaults.date.dialogWidth).toBe(375);
    // Focus is on the selected day of the grid.
    expect(document.activeElement?.getAttribute('role')).toBe('button');
    expect(document.activeElement?.closest('[role="gridcell"]')?.getAttribute('aria-selected')).toBe('true');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose date' }));
  });

  it('Alt+ArrowDown in the input opens it; arrows, Enter and OK pick a day; the title follows', async () => {
    const { user, input, value } = setup({ initial: '2031-06-20' });
    await user.click(input);
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    const dialog = screen.getByRole('dialog');
    await user.keyboard('{ArrowRight}{ArrowRight}{Enter}');
    expect(within(dialog).getByRole('heading', { name: 'Sun, Jun 22' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(value()).toBe('2031-06-22');
    expect(input).toHaveProperty('value', '6/22/2031');
  });

  it('starts on today when empty, and Cancel keeps the value', async () => {
    const { user, value } = setup();
    await user.click(screen.getByRole('button', { name: 'Choose date' }));
    expect(screen.getByRole('heading', { name: 'Fri, Jun 13' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(value()).toBe('');
  });

  it('days outside the bounds cannot be chosen', async () => {
    const { user } = setup({ minDate: '2031-06-10', maxDate: '2031-06-15', initial: '2031-06-12' });
    await user.click(screen.getByRole('button', { name: 'Choose date' }));
    const dialog = screen.getByRole('dialog');
    const day = (n: number) =>
      within(dialog)
        .getAllByRole('button')
        .find((b) => b.textContent === String(n) && b.closest('[role="gridcell"]'));
    expect(day(9)?.getAttribute('aria-disabled')).toBe('true');
    expect(day(16)?.getAttribute('aria-disabled')).toBe('true');
    expect(day(10)?.getAttribute('aria-disabled')).toBeNull();
  });
});

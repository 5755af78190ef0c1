import { act, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DateTimeField } from '../DateTimeField';
import { setupUser } from '../test-utils';
import { TimeInput, type TimeInputProps } from './TimeInput';
import { TimeSelect } from './TimeSelect';

function Harness({ initial = '', ...props }: Partial<TimeInputProps> & { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <TimeInput label="Delivery time" {...props} value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

function setup(props: Partial<TimeInputProps> & { initial?: string } = {}) {
  const user = setupUser();
  render(<Harness {...props} />);
  const input = screen.getByRole('textbox', { name: /Delivery time/ });
  return { user, input, value: () => screen.getByTestId('value').textContent };
}

async function enter(user: ReturnType<typeof setupUser>, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.type(input, text);
  await user.tab();
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('TimeInput: 12-hour clock with AM/PM (the default)', () => {
  it("shows 'hh:mm a' and stores 'h:mm A'", async () => {
    const { user, input, value } = setup({ initial: '8:00 AM' });
    expect(input).toHaveProperty('value', '08:00 am');
    await enter(user, input, '4:35 pm');
    expect(value()).toBe('4:35 PM');
    expect(input).toHaveProperty('value', '04:35 pm');
  });

  it("a bad entry shows 'Invalid Time Format (h:mm A)' for 2500 ms, then reverts", async () => {
    const { user, input, value } = setup({ initial: '8:00 AM' });
    await enter(user, input, '13:00');
    expect(screen.getByText('Invalid Time Format (h:mm A)')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    act(() => vi.advanceTimersByTime(2499));
    expect(screen.queryByText('Invalid Time Format (h:mm A)')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Invalid Time Format (h:mm A)')).toBeNull();
    expect(input).toHaveProperty('value', '08:00 am');
    expect(value()).toBe('8:00 AM');
  });
});

describe('TimeInput: other clocks', () => {
  it("12-hour without AM/PM: 'hh:mm', error 'Invalid Time Format (hh:mm)'", async () => {
    const { user, input, value } = setup({ meridiem: false });
    await enter(user, input, '9:05');
    expect(value()).toBe('09:05');
    expect(input).toHaveProperty('value', '09:05');
    await enter(user, input, '21:05');
    expect(screen.getByText('Invalid Time Format (hh:mm)')).toBeTruthy();
  });

  it("24-hour: 'HH:mm', error 'Invalid Time Format (HH:mm)'", async () => {
    const { user, input, value } = setup({ clock: '24h' });
    await enter(user, input, '21:05');
    expect(value()).toBe('21:05');
    await enter(user, input, '9:05 PM');
    expect(screen.getByText('Invalid Time Format (HH:mm)')).toBeTruthy();
    act(() => vi.advanceTimersByTime(2500));
    expect(input).toHaveProperty('value', '21:05');
  });
});

describe('TimeSelect (SPEC §2: hours 1 to 12, minutes in steps of 5, AM/PM when asked)', () => {
  async function optionsOf(user: ReturnType<typeof setupUser>, name: string) {
    await user.click(screen.getByRole('button', { name: new RegExp(name) }));
    const listbox = screen.getByRole('listbox');
    const options = within(listbox)
      .getAllByRole('option')
      .map((o) => o.textContent);
    await user.keyboard('{Escape}');
    return options;
  }

  it('offers hours 1 to 12, minutes 00 to 55 by 5 and AM/PM', async () => {
    const user = setupUser();
    render(
      <TimeSelect
        label="Session time"
        hour={{ value: '' }}
        minute={{ value: '' }}
        meridiem={{ value: '' }}
      />,
    );
    expect(screen.getByRole('group', { name: 'Session time' })).toBeTruthy();
    expect(await optionsOf(user, 'Hour')).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
    ]);
    expect(await optionsOf(user, 'Minutes')).toEqual([
      '00',
      '05',
      '10',
      '15',
      '20',
      '25',
      '30',
      '35',
      '40',
      '45',
      '50',
      '55',
    ]);
    expect(await optionsOf(user, 'AM/PM')).toEqual(['AM', 'PM']);
  });

  it('leaves AM/PM out when the form does not ask for it', () => {
    render(<TimeSelect label="Session time" hour={{}} minute={{}} />);
    expect(screen.queryByRole('button', { name: /AM\/PM/ })).toBeNull();
  });

  it('shows each part’s own error', () => {
    render(
      <TimeSelect
        label="Session time"
        hour={{ errorMessage: 'Please choose an hour.' }}
        minute={{}}
        meridiem={{ errorMessage: 'Please choose AM or PM.' }}
      />,
    );
    expect(screen.getByText('Please choose an hour.')).toBeTruthy();
    expect(screen.getByText('Please choose AM or PM.')).toBeTruthy();
  });
});

describe('DateTimeField', () => {
  it('lays the date and the time out 60% / 40% in one row', () => {
    render(
      <DateTimeField legend="Delivery" date={{ label: 'Delivery date' }} time={{ label: 'Delivery time' }} />,
    );
    const group = screen.getByRole('group', { name: 'Delivery' });
    const row = group.querySelector('.kit-date-time');
    expect(row?.children[0]?.classList.contains('kit-date-time__date')).toBe(true);
    expect(row?.children[1]?.classList.contains('kit-date-time__time')).toBe(true);
    // The shares themselves are CSS (--kit-date-share / --kit-time-share); theme.test.ts checks their values.
    expect(within(group).getByRole('textbox', { name: 'Delivery date' })).toBeTruthy();
    expect(within(group).getByRole('textbox', { name: 'Delivery time' })).toBeTruthy();
  });
});

import { act, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { matchesSuggestion } from './options';
import { SelectField } from './Select';
import { Suggestions, type SuggestionsProps } from './Suggestions';
import { setupUser } from './test-utils';

const STATES = ['New York', 'New Jersey', 'Nevada', 'California', 'North Carolina', 'Texas'];

function Harness(props: Partial<SuggestionsProps>) {
  const [value, setValue] = useState('');
  return (
    <>
      <Suggestions label="State" suggestions={STATES} {...props} value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </>
  );
}

function panel() {
  return document.querySelector('.kit-list-panel');
}

function optionTexts() {
  return within(screen.getByRole('listbox'))
    .queryAllByRole('option')
    .map((o) => o.textContent);
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('matchesSuggestion (SPEC §5: case-insensitive substring)', () => {
  it.each([
    ['New York', 'york', true],
    ['New York', 'W Y', true],
    ['New York', 'NEW', true],
    ['California', 'forn', true],
    ['California', 'nia ', false],
    ['Texas', 'new', false],
    ['Texas', '', true],
  ])('%j contains %j: %s', (text, input, result) => {
    expect(matchesSuggestion(text, input)).toBe(result);
  });
});

describe('Suggestions (combo box)', () => {
  it('lists the suggestions that contain the text, whatever the case', async () => {
    const user = setupUser();
    render(<Harness />);
    await user.type(screen.getByRole('combobox', { name: 'State' }), 'cAr');
    expect(optionTexts()).toEqual(['North Carolina']);
    await user.clear(screen.getByRole('combobox'));
    await user.type(screen.getByRole('combobox'), 'NE');
    expect(optionTexts()).toEqual(['New York', 'New Jersey', 'Nevada']);
  });

  it("shows '-- empty --' when nothing matches", async () => {
    const user = setupUser();
    render(<Harness />);
    await user.type(screen.getByRole('combobox', { name: 'State' }), 'zz');
    const listbox = screen.getByRole('listbox');
    expect(within(listbox).getByText('-- empty --')).toBeTruthy();
    expect(STATES.some((state) => listbox.textContent?.includes(state))).toBe(false);
  });

  it('is chosen with the keyboard and keeps free text too', async () => {
    const user = setupUser();
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'State' });
    await user.type(input, 'tex');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByTestId('value').textContent).toBe('Texas');
    expect(input).toHaveProperty('value', 'Texas');
    await user.clear(input);
    await user.type(input, 'Ontario');
    await user.tab();
    expect(screen.getByTestId('value').textContent).toBe('Ontario');
  });

  it('opens from the keyboard (ArrowDown) with every suggestion', async () => {
    const user = setupUser();
    render(<Harness />);
    await user.click(screen.getByRole('combobox', { name: 'State' }));
    await user.keyboard('{ArrowDown}');
    expect(optionTexts()).toEqual(STATES);
  });

  it('the list appears 150 ms after it opens', async () => {
    const user = setupUser();
    render(<Harness />);
    await user.type(screen.getByRole('combobox', { name: 'State' }), 'n');
    expect(panel()).toBeTruthy();
    expect(panel()?.hasAttribute('data-shown')).toBe(false);
    act(() => vi.advanceTimersByTime(149));
    expect(panel()?.hasAttribute('data-shown')).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(panel()?.hasAttribute('data-shown')).toBe(true);
  });

  it('the panel is at most 500 px high and the list scrolls (kit-listbox, 300 px)', async () => {
    const user = setupUser();
    render(<Harness />);
    await user.type(screen.getByRole('combobox', { name: 'State' }), 'a');
    const popover = panel()?.parentElement as HTMLElement;
    expect(Number.parseFloat(popover.style.maxHeight)).toBeLessThanOrEqual(500);
    expect(screen.getByRole('listbox').classList.contains('kit-listbox')).toBe(true);
  });

  it('has label, help and error text', () => {
    render(
      <Suggestions label="State" suggestions={STATES} description="Type to search" errorMessage="Required" />,
    );
    const input = screen.getByRole('combobox', { name: 'State' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ');
    expect(described.map((id) => document.getElementById(id)?.textContent)).toEqual(
      expect.arrayContaining(['Type to search', 'Required']),
    );
  });
});

describe('SelectField', () => {
  it('opens with the keyboard, appears 150 ms later, and one option is chosen with Enter', async () => {
    const user = setupUser();
    function Pick() {
      const [value, setValue] = useState('');
      return (
        <>
          <SelectField
            label="Room"
            options={['Ballroom A', 'Ballroom B', 'Hall C']}
            value={value}
            onChange={setValue}
          />
          <output data-testid="value">{value}</output>
        </>
      );
    }
    render(<Pick />);
    const trigger = screen.getByRole('button', { name: /Room/ });
    await user.tab();
    expect(document.activeElement).toBe(trigger);
    await user.keyboard('{ArrowDown}');
    expect(panel()?.hasAttribute('data-shown')).toBe(false);
    act(() => vi.advanceTimersByTime(150));
    expect(panel()?.hasAttribute('data-shown')).toBe(true);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByTestId('value').textContent).toBe('Ballroom B');
    expect(trigger.textContent).toContain('Ballroom B');
  });

  it('shows error styling and text', () => {
    render(<SelectField label="Room" options={['A']} errorMessage="Please choose a room." />);
    expect(screen.getByText('Please choose a room.')).toBeTruthy();
    expect(document.querySelector('.kit-select')?.hasAttribute('data-invalid')).toBe(true);
  });
});

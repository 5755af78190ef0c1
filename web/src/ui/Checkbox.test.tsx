import { render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Checkbox, RadioGroup } from './Checkbox';
import { setupUser } from './test-utils';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Checkbox: checked, unchecked and partial (SPEC §5)', () => {
  it('toggles between unchecked and checked with Space', async () => {
    const user = setupUser();
    const onChange = vi.fn();
    render(<Checkbox label="Onsite contact is the same as the purchaser" onChange={onChange} />);
    const box = screen.getByRole('checkbox', { name: 'Onsite contact is the same as the purchaser' });
    expect(box).toHaveProperty('checked', false);
    await user.tab();
    expect(document.activeElement).toBe(box);
    await user.keyboard(' ');
    expect(box).toHaveProperty('checked', true);
    expect(onChange).toHaveBeenLastCalledWith(true);
    await user.keyboard(' ');
    expect(box).toHaveProperty('checked', false);
    expect(onChange).toHaveBeenLastCalledWith(false);
  });

  it('shows the partial state (indeterminate, announced as mixed) when asked', () => {
    render(<Checkbox label="All products" isIndeterminate />);
    const box = screen.getByRole('checkbox', { name: 'All products' }) as HTMLInputElement;
    expect(box.indeterminate).toBe(true);
    expect(box.closest('.kit-checkbox')?.hasAttribute('data-indeterminate')).toBe(true);
  });

  it('a select-all box goes partial when some of its items are ticked', async () => {
    const user = setupUser();
    function SelectAll() {
      const [items, setItems] = useState([false, false]);
      const all = items.every(Boolean);
      const some = items.some(Boolean);
      return (
        <>
          <Checkbox
            label="All"
            value={all}
            isIndeterminate={some && !all}
            onChange={(v) => setItems([v, v])}
          />
          {items.map((checked, i) => (
            <Checkbox
              key={i}
              label={`Item ${i + 1}`}
              value={checked}
              onChange={(v) => setItems((prev) => prev.map((p, j) => (j === i ? v : p)))}
            />
          ))}
        </>
      );
    }
    render(<SelectAll />);
    const all = screen.getByRole('checkbox', { name: 'All' }) as HTMLInputElement;
    await user.click(screen.getByRole('checkbox', { name: 'Item 1' }));
    expect(all.indeterminate).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Item 2' }));
    expect(all.indeterminate).toBe(false);
    expect(all.checked).toBe(true);
    await user.click(all);
    expect(all.checked).toBe(false);
    expect(screen.getByRole('checkbox', { name: 'Item 1' })).toHaveProperty('checked', false);
  });

  it('shows help and error text, with error styling', () => {
    render(
      <Checkbox
        label="I accept the rental terms"
        description="Required to pay"
        errorMessage="Please accept the rental terms."
      />,
    );
    const box = screen.getByRole('checkbox', { name: 'I accept the rental terms' });
    expect(box.getAttribute('aria-invalid')).toBe('true');
    const described = (box.getAttribute('aria-describedby') ?? '').split(' ');
    expect(described.map((id) => document.getElementById(id)?.textContent)).toEqual(
      expect.arrayContaining(['Required to pay', 'Please accept the rental terms.']),
    );
  });
});

describe('RadioGroup: one selection (SPEC §5)', () => {
  it('arrow keys move the single selection', async () => {
    const user = setupUser();
    const onChange = vi.fn();
    render(<RadioGroup label="Asset type" options={['Creative', 'Event', 'Sponsor']} onChange={onChange} />);
    expect(screen.getByRole('radiogroup', { name: 'Asset type' })).toBeTruthy();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Creative' }));
    await user.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith('Creative');
    await user.keyboard('{ArrowDown}');
    expect(onChange).toHaveBeenLastCalledWith('Event');
    const checked = screen.getAllByRole('radio').filter((r) => (r as HTMLInputElement).checked);
    expect(checked.map((r) => r.getAttribute('value'))).toEqual(['Event']);
  });

  it('takes ids with labels and shows the error text', () => {
    render(
      <RadioGroup
        label="Newsletter"
        options={[
          { id: 'YES', label: 'Yes, sign me up' },
          { id: 'NO', label: 'No thanks' },
        ]}
        value="NO"
        errorMessage="Please choose one."
      />,
    );
    expect(screen.getByRole('radio', { name: 'No thanks' })).toHaveProperty('checked', true);
    expect(screen.getByText('Please choose one.')).toBeTruthy();
  });
});

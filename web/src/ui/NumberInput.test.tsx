import { render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NumberInput, type NumberInputProps } from './NumberInput';
import { setupUser } from './test-utils';

function Harness(props: Partial<NumberInputProps>) {
  const [value, setValue] = useState<number | null>(null);
  return (
    <>
      <NumberInput label="Quantity" {...props} value={value} onChange={setValue} />
      <output data-testid="value">{value === null ? 'null' : String(value)}</output>
    </>
  );
}

function setup(props: Partial<NumberInputProps> = {}) {
  const user = setupUser();
  render(<Harness {...props} />);
  return {
    user,
    input: screen.getByRole('textbox', { name: 'Quantity' }),
    value: () => screen.getByTestId('value').textContent,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('NumberInput (SPEC §5)', () => {
  it.each([
    ['30', '25'],
    ['0', '1'],
    ['12', '12'],
  ])('clamps %s to [1, 25] → %s', async (typed, expected) => {
    const { user, input, value } = setup({ min: 1, max: 25 });
    await user.type(input, typed);
    await user.tab();
    expect(value()).toBe(expected);
    expect(input).toHaveProperty('value', expected);
  });

  it('clamps below the minimum of a range that allows negatives', async () => {
    const { user, input, value } = setup({ min: -5, max: 5 });
    await user.type(input, '-9');
    await user.tab();
    expect(value()).toBe('-5');
  });

  it("cannot take a '-' when the minimum is 0 or more", async () => {
    const { user, input } = setup({ min: 1, max: 25 });
    await user.type(input, '-4');
    expect(input).toHaveProperty('value', '4');
  });

  it.each([
    [2, '1.236', '1.24'],
    [2, '1.2', '1.2'],
    [1, '9.96', '10'],
  ])('rounds to precision %i: %s → %s', async (precision, typed, expected) => {
    const { user, input, value } = setup({ precision });
    await user.type(input, typed);
    await user.tab();
    expect(value()).toBe(expected);
  });

  it("blocks '.' when the precision is 0", async () => {
    const { user, input, value } = setup({ precision: 0 });
    await user.type(input, '1.5');
    expect(input).toHaveProperty('value', '15');
    await user.tab();
    expect(value()).toBe('15');
  });

  it("allows '.' when the precision is above 0", async () => {
    const { user, input } = setup({ precision: 1 });
    await user.type(input, '1.5');
    expect(input).toHaveProperty('value', '1.5');
  });

  it('steps with the arrow keys within the bounds', async () => {
    const { user, input, value } = setup({ min: 1, max: 3 });
    await user.click(input);
    await user.keyboard('{ArrowUp}');
    expect(value()).toBe('1');
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(value()).toBe('3');
  });

  it('an empty field is null', async () => {
    const { user, input, value } = setup();
    await user.type(input, '5');
    await user.tab();
    await user.clear(input);
    await user.tab();
    expect(value()).toBe('null');
  });

  it('shows label, help and error text', () => {
    render(
      <NumberInput
        label="Quantity"
        description="1 to 25"
        errorMessage="Please choose a quantity from 1 to 25."
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Quantity' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ');
    const texts = described.map((id) => document.getElementById(id)?.textContent);
    expect(texts).toContain('1 to 25');
    expect(texts).toContain('Please choose a quantity from 1 to 25.');
  });
});

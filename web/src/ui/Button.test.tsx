import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './Button';
import { FillChart, isOutsideRange } from './FillChart';
import { theme } from './theme';

describe('Button (40 px, 32 px dense)', () => {
  it('is 40 px high by default and 32 px when dense (theme + --button-height / --button-height-dense)', () => {
    expect(theme.buttonHeight).toBe(40);
    expect(theme.buttonHeightDense).toBe(32);
    render(
      <>
        <Button>Save</Button>
        <Button dense>Edit</Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Save' }).className).toBe('kit-button kit-button--primary');
    expect(screen.getByRole('button', { name: 'Edit' }).classList.contains('kit-button--dense')).toBe(true);
  });

  it('presses from the keyboard', async () => {
    const onPress = vi.fn();
    render(<Button onPress={onPress}>Save</Button>);
    const { default: userEvent } = await import('@testing-library/user-event');
    const user = userEvent.setup();
    await user.tab();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(onPress).toHaveBeenCalledTimes(2);
  });
});

describe('FillChart (0 to 100, optional positive range)', () => {
  it('is a meter from 0 to 100', () => {
    render(<FillChart label="Storage used" value={42} />);
    const meter = screen.getByRole('meter', { name: 'Storage used' });
    expect(meter.getAttribute('aria-valuemin')).toBe('0');
    expect(meter.getAttribute('aria-valuemax')).toBe('100');
    expect(meter.getAttribute('aria-valuenow')).toBe('42');
    expect((document.querySelector('.kit-fill-chart__fill') as HTMLElement).style.width).toBe('42%');
  });

  it.each([
    [50, [20, 80], false],
    [20, [20, 80], false],
    [80, [20, 80], false],
    [19, [20, 80], true],
    [81, [20, 80], true],
  ] as const)('value %i with range %j is outside: %s', (value, range, outside) => {
    expect(isOutsideRange(value, range)).toBe(outside);
    render(<FillChart label="Load" value={value} range={range} />);
    const meter = screen.getByRole('meter', { name: 'Load' });
    expect(meter.hasAttribute('data-outside')).toBe(outside);
    expect(meter.getAttribute('aria-valuetext')).toContain(
      outside ? 'outside the range' : 'within the range',
    );
  });

  it('without a range a value is never in the error colour', () => {
    render(<FillChart label="Load" value={100} />);
    expect(screen.getByRole('meter').hasAttribute('data-outside')).toBe(false);
  });
});

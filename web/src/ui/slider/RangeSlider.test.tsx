import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupUser } from '../test-utils';
import type { SliderValue } from './range';
import { RangeSlider, type RangeSliderProps } from './RangeSlider';

function Harness({ initial, ...props }: Partial<RangeSliderProps> & { initial: SliderValue }) {
  const [value, setValue] = useState<SliderValue>(initial);
  return (
    <>
      <RangeSlider label="Budget" {...props} value={value} onChange={setValue} />
      <output data-testid="value">
        {JSON.stringify(value, (_k, v: unknown) => (v === Infinity ? 'Infinity' : v))}
      </output>
    </>
  );
}

function setup(props: Partial<RangeSliderProps> & { initial: SliderValue }) {
  const user = setupUser();
  const view = render(<Harness {...props} />);
  return {
    user,
    view,
    value: () => JSON.parse(screen.getByTestId('value').textContent ?? 'null') as unknown,
  };
}

function slider() {
  return document.querySelector('.kit-slider') as HTMLElement;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RangeSlider defaults (0 to 100, precision 0, handle 20, origin 50)', () => {
  it('runs from 0 to 100 in whole steps', async () => {
    const { user, value } = setup({ initial: 50 });
    const thumb = screen.getByRole('slider', { name: 'Budget' });
    expect(thumb.getAttribute('min')).toBe('0');
    expect(thumb.getAttribute('max')).toBe('100');
    expect(thumb.getAttribute('step')).toBe('1');
    await user.click(thumb);
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(value()).toBe(52);
    await user.keyboard('{End}');
    expect(value()).toBe(100);
    await user.keyboard('{Home}');
    expect(value()).toBe(0);
  });

  it('rounds to its precision', async () => {
    const { user, value } = setup({ initial: 1, precision: 1, min: 0, max: 2 });
    const thumb = screen.getByRole('slider', { name: 'Budget' });
    expect(thumb.getAttribute('step')).toBe('0.1');
    await user.click(thumb);
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(value()).toBe(1.3);
  });

  it('has a 20 px handle unless told otherwise', () => {
    const { view } = setup({ initial: 50 });
    expect(slider().style.getPropertyValue('--kit-slider-handle')).toBe('20px');
    view.unmount();
    setup({ initial: 50, handleSize: 28 });
    expect(slider().style.getPropertyValue('--kit-slider-handle')).toBe('28px');
  });

  it('draws a single handle’s fill from the origin (50)', () => {
    setup({ initial: 80 });
    const fill = document.querySelector('.kit-slider__fill') as HTMLElement;
    expect(fill.style.insetInlineStart).toBe('50%');
    expect(fill.style.width).toBe('30%');
  });

  it('a custom origin moves the fill’s start', () => {
    setup({ initial: 20, origin: 0 });
    const fill = document.querySelector('.kit-slider__fill') as HTMLElement;
    expect(fill.style.insetInlineStart).toBe('0%');
    expect(fill.style.width).toBe('20%');
  });
});

describe('RangeSlider: two handles keep a minimum gap (snap, default 1)', () => {
  it('stops the lower handle one step below the upper one', async () => {
    const { user, value } = setup({ initial: [20, 23] });
    const [low] = screen.getAllByRole('slider');
    expect(low?.getAttribute('aria-label')).toBe('Minimum');
    await user.click(low!);
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(value()).toEqual([22, 23]);
  });

  it('stops the upper handle `snap` above the lower one', async () => {
    const { user, value } = setup({ initial: [20, 40], snap: 10 });
    const [, high] = screen.getAllByRole('slider');
    await user.click(high!);
    for (let i = 0; i < 15; i += 1) await user.keyboard('{ArrowLeft}');
    expect(value()).toEqual([20, 30]);
  });
});

describe("RangeSlider: 'Unlimited Max'", () => {
  it('ticking it makes the upper end Infinity and disables the upper handle; unticking restores max', async () => {
    const { user, value } = setup({ initial: [10, 60], allowUnlimited: true });
    const box = screen.getByRole('checkbox', { name: 'Unlimited Max' });
    expect(box).toHaveProperty('checked', false);
    await user.click(box);
    expect(value()).toEqual([10, 'Infinity']);
    expect(screen.getAllByRole('slider')[1]).toHaveProperty('disabled', true);
    expect(document.querySelector('.kit-slider__output')?.textContent).toBe('10 – Unlimited');
    await user.click(box);
    expect(value()).toEqual([10, 100]);
  });

  it('a value already unlimited shows the box ticked; moving the lower handle keeps it unlimited', async () => {
    const { user, value } = setup({ initial: [10, Infinity] });
    expect(screen.getByRole('checkbox', { name: 'Unlimited Max' })).toHaveProperty('checked', true);
    await user.click(screen.getAllByRole('slider')[0]!);
    await user.keyboard('{End}');
    expect(value()).toEqual([99, 'Infinity']);
  });

  it('is not offered for a single handle', () => {
    setup({ initial: 30, allowUnlimited: true });
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});

describe('RangeSlider activation (2000 ms after a change, 500 ms after a range change)', () => {
  it('is active while changed and for 2000 ms after the last change', async () => {
    const { user } = setup({ initial: 50 });
    expect(slider().hasAttribute('data-active')).toBe(false);
    await user.click(screen.getByRole('slider'));
    await user.keyboard('{ArrowRight}');
    expect(slider().hasAttribute('data-active')).toBe(true);
    act(() => vi.advanceTimersByTime(1500));
    await user.keyboard('{ArrowRight}');
    act(() => vi.advanceTimersByTime(1999));
    expect(slider().hasAttribute('data-active')).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(slider().hasAttribute('data-active')).toBe(false);
  });

  it('is active for 500 ms after its range changes', () => {
    const { view } = setup({ initial: 50, max: 100 });
    view.rerender(<Harness initial={50} max={200} />);
    expect(slider().hasAttribute('data-active')).toBe(true);
    act(() => vi.advanceTimersByTime(499));
    expect(slider().hasAttribute('data-active')).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(slider().hasAttribute('data-active')).toBe(false);
  });

  it("ticking 'Unlimited Max' is a range change (500 ms)", async () => {
    const { user } = setup({ initial: [10, 60], allowUnlimited: true });
    await user.click(screen.getByRole('checkbox', { name: 'Unlimited Max' }));
    expect(slider().hasAttribute('data-active')).toBe(true);
    act(() => vi.advanceTimersByTime(500));
    expect(slider().hasAttribute('data-active')).toBe(false);
  });

  it('the timeouts can be set per slider', async () => {
    const { user } = setup({ initial: 50, activationTimeoutMs: 100 });
    await user.click(screen.getByRole('slider'));
    await user.keyboard('{ArrowLeft}');
    act(() => vi.advanceTimersByTime(100));
    expect(slider().hasAttribute('data-active')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { isUnlimited, keepGap, roundTo, stepForPrecision } from './range';

describe('keepGap (SPEC §5: minimum gap between the two handles)', () => {
  it.each([
    // previous, next, gap → result
    [[20, 30], [25, 30], 1, [25, 30]],
    [[20, 30], [30, 30], 1, [29, 30]],
    [[20, 30], [20, 20], 1, [20, 21]],
    [[20, 30], [28, 30], 5, [25, 30]],
    [[20, 30], [20, 22], 5, [20, 25]],
    [[0, 3], [0, 1], 5, [0, 5]],
    [[95, 100], [99, 100], 5, [95, 100]],
    [[0, 100], [0, 100], 1, [0, 100]],
  ] as const)('%j → %j with gap %i is %j', (previous, next, gap, result) => {
    expect(keepGap(previous, next, gap, 0, 100)).toEqual(result);
  });
});

describe('precision', () => {
  it.each([
    [0, 1],
    [1, 0.1],
    [2, 0.01],
  ])('precision %i steps by %f', (precision, step) => {
    expect(stepForPrecision(precision)).toBeCloseTo(step);
  });

  it.each([
    [12.345, 0, 12],
    [12.345, 1, 12.3],
    [12.355, 2, 12.36],
    [Infinity, 0, Infinity],
  ])('roundTo(%f, %i) = %f', (value, precision, result) => {
    expect(roundTo(value, precision)).toBe(result);
  });
});

describe('isUnlimited', () => {
  it('is true only for a range whose upper end is Infinity', () => {
    expect(isUnlimited([10, Infinity])).toBe(true);
    expect(isUnlimited([10, 100])).toBe(false);
    expect(isUnlimited(50)).toBe(false);
  });
});

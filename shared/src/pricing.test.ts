import { describe, expect, it } from 'vitest';
import { isEarlyBird, percentOfHalfUp, priceOrder, subtotalOf } from './pricing.js';

const NY = 'America/New_York';
const AKL = 'Pacific/Auckland';

describe('DESIGN Pricing / SPEC §4 Cart: early bird lasts to the end of the deadline day in TZ_STORE', () => {
  it.each([
    // deadline, instant, zone, early bird?
    ['2024-06-15', '2024-06-15T04:00:00.000Z', NY, true], // start of the deadline day
    ['2024-06-15', '2024-06-16T03:59:59.999Z', NY, true], // 23:59:59.999 EDT
    ['2024-06-15', '2024-06-16T04:00:00.000Z', NY, false], // 00:00 next day EDT
    ['2024-01-15', '2024-01-16T04:59:59.999Z', NY, true], // winter: EST, UTC-5
    ['2024-01-15', '2024-01-16T05:00:00.000Z', NY, false],
    // DST starts 2024-03-10 in New York (a 23-hour day)
    ['2024-03-09', '2024-03-10T04:59:59.999Z', NY, true],
    ['2024-03-09', '2024-03-10T05:00:00.000Z', NY, false],
    ['2024-03-10', '2024-03-11T03:59:59.999Z', NY, true],
    ['2024-03-10', '2024-03-11T04:00:00.000Z', NY, false],
    // DST ends 2024-11-03 in New York (a 25-hour day)
    ['2024-11-03', '2024-11-04T04:59:59.999Z', NY, true],
    ['2024-11-03', '2024-11-04T05:00:00.000Z', NY, false],
    // Auckland, UTC+12 in its winter
    ['2024-06-15', '2024-06-15T11:59:59.999Z', AKL, true],
    ['2024-06-15', '2024-06-15T12:00:00.000Z', AKL, false],
    // DST starts 2024-09-29 in Auckland (a 23-hour day), ends 2024-04-07 (a 25-hour day)
    ['2024-09-28', '2024-09-28T11:59:59.999Z', AKL, true],
    ['2024-09-28', '2024-09-28T12:00:00.000Z', AKL, false],
    ['2024-09-29', '2024-09-29T10:59:59.999Z', AKL, true],
    ['2024-09-29', '2024-09-29T11:00:00.000Z', AKL, false],
    ['2024-04-07', '2024-04-07T11:59:59.999Z', AKL, true],
    ['2024-04-07', '2024-04-07T12:00:00.000Z', AKL, false],
    // Long before, long after
    ['2024-06-15', '2023-01-01T00:00:00.000Z', NY, true],
    ['2024-06-15', '2025-01-01T00:00:00.000Z', NY, false],
  ] as const)('deadline %s at %s in %s -> %s', (deadline, instant, zone, expected) => {
    expect(isEarlyBird(deadline, new Date(instant), zone)).toBe(expected);
  });

  it('reads the deadline in America/New_York by default', () => {
    expect(isEarlyBird('2024-06-15', new Date('2024-06-16T03:59:59.999Z'))).toBe(true);
    expect(isEarlyBird('2024-06-15', new Date('2024-06-16T04:00:00.000Z'))).toBe(false);
  });

  it.each([
    ['a malformed deadline', () => isEarlyBird('06/15/2024', new Date(), NY)],
    ['an impossible deadline', () => isEarlyBird('2024-02-30', new Date(), NY)],
    ['an invalid instant', () => isEarlyBird('2024-06-15', new Date(''), NY)],
    ['an unknown zone', () => isEarlyBird('2024-06-15', new Date(), 'Nowhere/City')],
  ])('throws a RangeError for %s', (_what, call) => {
    expect(call).toThrow(RangeError);
  });
});

describe('DESIGN Pricing: percentages rounded half-up to the cent in integer arithmetic', () => {
  it.each([
    // cents, percent, expected
    [0, 20, 0],
    [1, 50, 1], // 0.5 -> 1
    [3, 50, 2], // 1.5 -> 2
    [5, 10, 1], // 0.5 -> 1
    [25, 10, 3], // 2.5 -> 3
    [1, 49, 0], // 0.49 -> 0
    [1, 51, 1], // 0.51 -> 1
    [90, 35, 32], // 31.5 -> 32, where 90 * 0.35 = 31.499999999999996 in floating point
    [50, 29, 15], // 14.5 -> 15, where 50 * 0.29 = 14.499999999999998
    // 20% and 24% of whole cents never end in exactly half a cent (x/5 and 6x/25), so these are the
    // nearest cases on each side.
    [2, 20, 0], // 0.4
    [3, 20, 1], // 0.6
    [2, 24, 0], // 0.48
    [23, 24, 6], // 5.52
    [27, 24, 6], // 6.48
    [100, 24, 24],
    [999_999_999_999, 24, 240_000_000_000], // 239,999,999,999.76
  ] as const)('%i cents x %i%% -> %i', (cents, percent, expected) => {
    expect(percentOfHalfUp(cents, percent)).toBe(expected);
  });

  it.each([
    ['negative cents', -1, 20],
    ['fractional cents', 1.5, 20],
    ['NaN', Number.NaN, 20],
    ['fractional percent', 100, 2.5],
    ['a product beyond the safe integers', Number.MAX_SAFE_INTEGER, 24],
  ] as const)('rejects %s', (_what, cents, percent) => {
    expect(() => percentOfHalfUp(cents, percent)).toThrow(RangeError);
  });
});

describe('DESIGN Pricing: subtotal, 20% early-bird discount, 24% fee after the discount (SPEC §9)', () => {
  const early = { deadline: '2024-06-15', now: new Date('2024-06-01T12:00:00Z'), timeZone: NY };
  const late = { deadline: '2024-06-15', now: new Date('2024-06-20T12:00:00Z'), timeZone: NY };

  it.each([
    ['one line, early', [{ unitAmount: 10_000, quantity: 1 }], early, [10_000, 2_000, 1_920, 9_920, true]],
    ['one line, late', [{ unitAmount: 10_000, quantity: 1 }], late, [10_000, 0, 2_400, 12_400, false]],
    [
      'two lines, early (3,019.40 and 2,898.72 round down and up)',
      [
        { unitAmount: 1_999, quantity: 3 },
        { unitAmount: 4_550, quantity: 2 },
      ],
      early,
      [15_097, 3_019, 2_899, 14_977, true],
    ],
    [
      'two lines, late',
      [
        { unitAmount: 1_999, quantity: 3 },
        { unitAmount: 4_550, quantity: 2 },
      ],
      late,
      [15_097, 0, 3_623, 18_720, false],
    ],
    ['empty cart', [], early, [0, 0, 0, 0, true]],
    ['free item', [{ unitAmount: 0, quantity: 25 }], late, [0, 0, 0, 0, false]],
    ['one cent, early', [{ unitAmount: 1, quantity: 1 }], early, [1, 0, 0, 1, true]],
    ['three cents, early (0.6 discount -> 1)', [{ unitAmount: 3, quantity: 1 }], early, [3, 1, 0, 2, true]],
    [
      'big order, 25 x $99,999,999.99',
      [{ unitAmount: 9_999_999_999, quantity: 25 }],
      early,
      [249_999_999_975, 49_999_999_995, 47_999_999_995, 247_999_999_975, true],
    ],
  ] as const)('%s', (_name, lines, context, [subtotal, discount, fee, total, earlyBird]) => {
    expect(priceOrder(lines, context)).toEqual({ subtotal, discount, fee, total, earlyBird });
  });

  it('the deadline day at 23:59:59.999 and the next midnight, in New York and Auckland', () => {
    const lines = [{ unitAmount: 12_345, quantity: 2 }];
    const at = (now: string, timeZone: string) =>
      priceOrder(lines, { deadline: '2024-06-15', now: new Date(now), timeZone });
    expect(at('2024-06-16T03:59:59.999Z', NY)).toEqual({
      subtotal: 24_690,
      discount: 4_938,
      fee: 4_740,
      total: 24_492,
      earlyBird: true,
    });
    expect(at('2024-06-16T04:00:00.000Z', NY)).toEqual({
      subtotal: 24_690,
      discount: 0,
      fee: 5_926,
      total: 30_616,
      earlyBird: false,
    });
    expect(at('2024-06-15T11:59:59.999Z', AKL).earlyBird).toBe(true);
    expect(at('2024-06-15T12:00:00.000Z', AKL).earlyBird).toBe(false);
  });

  it('uses America/New_York when no zone is given', () => {
    const result = priceOrder([{ unitAmount: 100, quantity: 1 }], {
      deadline: '2024-06-15',
      now: new Date('2024-06-16T03:59:59.999Z'),
    });
    expect(result.earlyBird).toBe(true);
  });

  it('total is always subtotal - discount + fee', () => {
    for (let cents = 0; cents < 2_000; cents += 7) {
      const { subtotal, discount, fee, total } = priceOrder([{ unitAmount: cents, quantity: 3 }], early);
      expect(total).toBe(subtotal - discount + fee);
    }
  });

  it.each([
    ['a negative unit amount', [{ unitAmount: -1, quantity: 1 }]],
    ['a fractional unit amount', [{ unitAmount: 10.5, quantity: 1 }]],
    ['a quantity of 0', [{ unitAmount: 100, quantity: 0 }]],
    ['a quantity of 26', [{ unitAmount: 100, quantity: 26 }]],
    ['a fractional quantity', [{ unitAmount: 100, quantity: 1.5 }]],
    [
      'a subtotal beyond the safe integers',
      [
        { unitAmount: 2 ** 52, quantity: 1 },
        { unitAmount: 2 ** 52, quantity: 1 },
      ],
    ],
  ] as const)('rejects %s with a RangeError', (_what, lines) => {
    expect(() => priceOrder(lines, early)).toThrow(RangeError);
    expect(() => subtotalOf(lines)).toThrow(RangeError);
  });
});

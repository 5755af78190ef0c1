import { describe, expect, it } from 'vitest';
import { effectiveCutoff, isStoreClosed, type StoreSchedule } from './store-status.js';

const open: StoreSchedule = { is_active: true, is_archived: false, deadline: '2024-06-15' };
const NY = 'America/New_York';

describe('DESIGN deviation 6: the order cut-off defaults to the deadline', () => {
  it.each([
    [{ deadline: '2024-06-15' }, '2024-06-15'],
    [{ deadline: '2024-06-15', order_cutoff: undefined }, '2024-06-15'],
    [{ deadline: '2024-06-15', order_cutoff: null }, '2024-06-15'],
    [{ deadline: '2024-06-15', order_cutoff: '' }, '2024-06-15'],
    [{ deadline: '2024-06-15', order_cutoff: '2024-06-30' }, '2024-06-30'],
  ])('%j -> %s', (store, expected) => {
    expect(effectiveCutoff(store)).toBe(expected);
  });
});

describe('SPEC §4 Store: closed if inactive, archived or past the order cut-off day in TZ_STORE', () => {
  it.each([
    ['open, before the deadline', open, '2024-06-01T12:00:00Z', NY, false],
    ['inactive', { ...open, is_active: false }, '2024-06-01T12:00:00Z', NY, true],
    ['archived', { ...open, is_archived: true }, '2024-06-01T12:00:00Z', NY, true],
    ['last millisecond of the deadline day (EDT)', open, '2024-06-16T03:59:59.999Z', NY, false],
    ['first millisecond after the deadline day (EDT)', open, '2024-06-16T04:00:00.000Z', NY, true],
    [
      'last millisecond of the deadline day in Auckland',
      open,
      '2024-06-15T11:59:59.999Z',
      'Pacific/Auckland',
      false,
    ],
    ['first millisecond after it in Auckland', open, '2024-06-15T12:00:00.000Z', 'Pacific/Auckland', true],
    [
      'past the deadline but before a later cut-off',
      { ...open, order_cutoff: '2024-06-30' },
      '2024-06-20T12:00:00Z',
      NY,
      false,
    ],
    [
      'last millisecond of the cut-off day',
      { ...open, order_cutoff: '2024-06-30' },
      '2024-07-01T03:59:59.999Z',
      NY,
      false,
    ],
    ['past the cut-off', { ...open, order_cutoff: '2024-06-30' }, '2024-07-01T04:00:00.000Z', NY, true],
    [
      'inactive even though before the cut-off',
      { ...open, is_active: false, order_cutoff: '2024-06-30' },
      '2024-06-01T12:00:00Z',
      NY,
      true,
    ],
  ] as const)('%s', (_name, store, now, zone, closed) => {
    expect(isStoreClosed(store, new Date(now), zone)).toBe(closed);
  });

  it('reads the cut-off in America/New_York by default', () => {
    expect(isStoreClosed(open, new Date('2024-06-16T03:59:59.999Z'))).toBe(false);
    expect(isStoreClosed(open, new Date('2024-06-16T04:00:00.000Z'))).toBe(true);
  });
});

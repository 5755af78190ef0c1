import type { StaffOverview } from '@avp/shared';
import { describe, expect, it } from 'vitest';
import { parseLimit } from '../StockPage';
import {
  earlyBirdSummary,
  ordersSummary,
  stockSummary,
  topProductsSummary,
  uploadsSummary,
} from './summaries';

function overview(over: Partial<StaffOverview> = {}): StaffOverview {
  return {
    store: { id: 1, store_id: 'expo', name: 'Expo', currency: 'usd' },
    from: '2026-11-01',
    to: '2026-11-03',
    time_zone: 'America/New_York',
    days: [
      { date: '2026-11-01', orders: 0, revenue: 0 },
      { date: '2026-11-02', orders: 3, revenue: 29_760 },
      { date: '2026-11-03', orders: 1, revenue: 9_920 },
    ],
    earlyBird: { orders: 4, earlyBird: 3 },
    topProducts: [
      { productId: 1, name: 'Projector XGA', units: 7 },
      { productId: 2, name: 'Lectern Mic', units: 1 },
    ],
    stock: [
      { productId: 1, name: 'Projector XGA', limit: 10, held: 1, sold: 7, left: 2 },
      { productId: 2, name: 'LED Wall', limit: 4, held: 0, sold: 4, left: 0 },
      { productId: 3, name: 'Lectern Mic', limit: null, held: 0, sold: 1, left: null },
    ],
    uploads: [
      { event: 'MedTech Summit', date: '2026-11-02', files: 3 },
      { event: '', date: '2026-11-03', files: 1 },
    ],
    ...over,
  };
}

describe("the overview's charts in words", () => {
  it('says each chart in a sentence', () => {
    const o = overview();
    expect(ordersSummary(o)).toBe(
      '4 paid orders from Nov 1, 2026 to Nov 3, 2026, $396.80 in all. Busiest day: Nov 2, 2026, with 3 orders ($297.60).',
    );
    expect(earlyBirdSummary(o)).toBe('3 of 4 paid orders (75%) had the early-bird discount.');
    expect(topProductsSummary(o)).toBe('Most ordered: Projector XGA, 7 units; then Lectern Mic, 1 unit.');
    expect(stockSummary(o)).toBe(
      '2 of 3 products have a limit. Sold out: LED Wall. Fewest left: Projector XGA, 2 of 10.',
    );
    expect(uploadsSummary(o)).toBe(
      '4 files received from Nov 1, 2026 to Nov 3, 2026 for 2 events. Most: MedTech Summit, 3 files.',
    );
  });

  it('says when there is nothing to show', () => {
    const empty = overview({
      days: [{ date: '2026-11-01', orders: 0, revenue: 0 }],
      earlyBird: { orders: 0, earlyBird: 0 },
      topProducts: [],
      stock: [{ productId: 3, name: 'Lectern Mic', limit: null, held: 0, sold: 0, left: null }],
      uploads: [],
    });
    expect(ordersSummary(empty)).toBe('No paid orders from Nov 1, 2026 to Nov 3, 2026.');
    expect(earlyBirdSummary(empty)).toBe(
      'No paid orders from Nov 1, 2026 to Nov 3, 2026, so no early-bird share.',
    );
    expect(topProductsSummary(empty)).toBe('No equipment ordered from Nov 1, 2026 to Nov 3, 2026.');
    expect(stockSummary(empty)).toBe('No product in this store has a limit: every one is unlimited.');
    expect(uploadsSummary(empty)).toBe('No uploads received from Nov 1, 2026 to Nov 3, 2026.');
  });
});

describe('a limit as staff type it', () => {
  it.each([
    ['', { limit: null }],
    ['  ', { limit: null }],
    ['0', { limit: 0 }],
    ['12', { limit: 12 }],
    ['100,000', { limit: 100_000 }],
  ])('%j is %j', (text, want) => {
    expect(parseLimit(text)).toEqual(want);
  });

  it.each(['-1', '2.5', 'lots', '100001', '1e3'])('%j is refused in words', (text) => {
    expect(parseLimit(text)).toEqual({
      error: 'Enter a whole number from 0 to 100,000, or leave it blank for unlimited.',
    });
  });
});

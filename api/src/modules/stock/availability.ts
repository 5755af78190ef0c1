import type { ProductStock } from '@avp/shared';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { leftOf, readCounts } from './ledger.js';

/**
 * What the store page shows of each limited product: units left (never below 0) and whether that is few
 * (≤ STOCK_LOW_THRESHOLD). Read fresh for every answer, apart from the page's cached body (store/cache.ts),
 * since holds and payments change it without any staff edit.
 */
export async function storeStock(
  db: Database,
  config: Pick<Config, 'STOCK_LOW_THRESHOLD'>,
  storeId: number,
): Promise<Map<number, ProductStock>> {
  const stock = new Map<number, ProductStock>();
  for (const row of await readCounts(db, storeId, { limitedOnly: true })) {
    const left = leftOf(row) ?? 0;
    stock.set(row.productId, { left, low: left <= config.STOCK_LOW_THRESHOLD });
  }
  return stock;
}

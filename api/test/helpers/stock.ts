import type { StockRow } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../src/db/index.js';
import type { Config } from '../../src/config.js';
import type { TestBrowser } from './browser.js';
import { signedInStaff } from './staff.js';

/** Stock tests' shared steps (issue #32): a staff browser, the counts as the database has them, a clock. */

export async function staffBrowser(t: { db: Database; config: Config; url: string }): Promise<TestBrowser> {
  return (await signedInStaff(t)).staff;
}

export type StockTableJson = { rows: StockRow[] } & {
  error: { code: string; message: string; fields?: Record<string, string> };
};

/** Sets a product's limit in a store through the staff call; fails the test unless it is accepted. */
export async function setLimit(
  staff: TestBrowser,
  storeKey: number,
  productId: number,
  limit: number | null,
) {
  const res = await staff.put<StockTableJson>(`/api/staff/stores/${storeKey}/stock/${productId}`, { limit });
  if (res.status !== 200) throw new Error(`set limit: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.rows;
}

export interface DbCounts {
  limit: number | null;
  held: number;
  sold: number;
}

/** The stock row as the database holds it (zeros when there is none yet). */
export async function countsOf(db: Database, storeKey: number, productId: number): Promise<DbCounts> {
  const rows = await db.sequelize.query<{ stock_limit: unknown; held: unknown; sold: unknown }>(
    'SELECT stock_limit, held, sold FROM stock WHERE store_id = :storeKey AND product_id = :productId',
    { replacements: { storeKey, productId }, type: QueryTypes.SELECT },
  );
  const row = rows[0];
  if (!row) return { limit: null, held: 0, sold: 0 };
  return {
    limit: row.stock_limit === null ? null : Number(row.stock_limit),
    held: Number(row.held),
    sold: Number(row.sold),
  };
}

/** The test's clock: the order's hold ran out (its expiry moved into the past), as if the minutes passed. */
export async function holdRunsOut(db: Database, orderId: string): Promise<void> {
  await db.sequelize.query('UPDATE stock_holds SET expires_at = 0 WHERE order_id = :orderId', {
    replacements: { orderId },
  });
}

export async function holdState(db: Database, orderId: string): Promise<string | null> {
  const rows = await db.sequelize.query<{ state: string }>(
    'SELECT state FROM stock_holds WHERE order_id = :orderId',
    { replacements: { orderId }, type: QueryTypes.SELECT },
  );
  return rows[0]?.state ?? null;
}

export async function storeKeyOf(db: Database, slug = 'demo-expo'): Promise<number> {
  const store = await db.models.Store.findOne({ where: { slug }, rejectOnEmpty: true });
  return store.id;
}

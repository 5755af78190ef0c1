import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { Database } from '../../db/index.js';

/**
 * The stock rows (migration 0010): one per store and product, with its limit (NULL = unlimited) and the
 * units held and sold. Every change here is one conditional UPDATE whose WHERE clause carries the rule,
 * and whose RETURNING rows say whether it applied: the database decides, never a value read earlier in
 * JavaScript. On PostgreSQL a concurrent UPDATE of the same row waits for the other transaction and then
 * tests the WHERE clause again against the committed row; on SQLite a write transaction has the database
 * to itself (BEGIN IMMEDIATE). The table's CHECK (sold + held ≤ limit, no negatives) is the last line.
 *
 * Rows are touched in product id order, so two transactions never wait for each other's rows in a circle.
 */

export interface UnitLine {
  productId: number;
  quantity: number;
}

export interface StockCounts {
  productId: number;
  limit: number | null;
  held: number;
  sold: number;
}

/** Units left to order: the limit less what is sold and held, never below 0; null when unlimited. */
export function leftOf(row: Pick<StockCounts, 'limit' | 'held' | 'sold'>): number | null {
  return row.limit === null ? null : Math.max(0, row.limit - row.sold - row.held);
}

/** Quantities summed per product, in product id order. */
export function perProduct(lines: readonly UnitLine[]): UnitLine[] {
  const sums = new Map<number, number>();
  for (const line of lines) sums.set(line.productId, (sums.get(line.productId) ?? 0) + line.quantity);
  return [...sums.entries()]
    .map(([productId, quantity]) => ({ productId, quantity }))
    .sort((a, b) => a.productId - b.productId);
}

async function returning(
  db: Database,
  sql: string,
  replacements: Record<string, unknown>,
  transaction: Transaction,
): Promise<number> {
  const rows = await db.sequelize.query(sql, { replacements, type: QueryTypes.SELECT, transaction });
  return rows.length;
}

/** Makes sure each product has its row in the store (unlimited, nothing held or sold, until staff say). */
export async function ensureRows(
  db: Database,
  storeId: number,
  productIds: readonly number[],
  transaction: Transaction,
): Promise<void> {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  const values = ids.map((_, i) => `(:storeId, :p${i}, 0, 0)`).join(', ');
  const replacements: Record<string, unknown> = { storeId };
  ids.forEach((id, i) => (replacements[`p${i}`] = id));
  await db.sequelize.query(
    `INSERT INTO stock (store_id, product_id, held, sold) VALUES ${values}
     ON CONFLICT (store_id, product_id) DO NOTHING`,
    { replacements, transaction },
  );
}

/**
 * Holds `quantity` more units when they are left: false (nothing changed) when the limit would be passed.
 * The row must exist (ensureRows).
 */
export async function takeHeld(
  db: Database,
  storeId: number,
  line: UnitLine,
  transaction: Transaction,
): Promise<boolean> {
  const taken = await returning(
    db,
    `UPDATE stock SET held = held + :q
      WHERE store_id = :storeId AND product_id = :productId
        AND (stock_limit IS NULL OR sold + held + :q <= stock_limit)
      RETURNING product_id`,
    { q: line.quantity, storeId, productId: line.productId },
    transaction,
  );
  return taken === 1;
}

/**
 * Holds the units of several products at once, each only when they are left: one statement, which also
 * makes the row of a product that has none yet (unlimited, until staff say). Answers the products whose
 * units were taken; any other was not touched (its limit would be passed). The rows are written in the
 * order of `lines`, product id order from perProduct(), as everywhere in this module: on PostgreSQL the
 * INSERT takes its VALUES in order, and the conflicting row is locked, tested against its committed
 * counts and updated before the next.
 */
export async function takeHeldAll(
  db: Database,
  storeId: number,
  lines: readonly UnitLine[],
  transaction: Transaction,
): Promise<Set<number>> {
  if (lines.length === 0) return new Set();
  const replacements: Record<string, unknown> = { storeId };
  const values = lines
    .map((line, i) => {
      replacements[`p${i}`] = line.productId;
      replacements[`q${i}`] = line.quantity;
      return `(:storeId, :p${i}, :q${i}, 0)`;
    })
    .join(', ');
  // The leading comment matters: Sequelize's SQLite dialect runs a statement that begins 'INSERT INTO'
  // (after trimming) without reading the rows it returns.
  const rows = await db.sequelize.query<{ product_id: number | string }>(
    `/* take held */ INSERT INTO stock (store_id, product_id, held, sold) VALUES ${values}
     ON CONFLICT (store_id, product_id) DO UPDATE SET held = stock.held + excluded.held
       WHERE stock.stock_limit IS NULL OR stock.sold + stock.held + excluded.held <= stock.stock_limit
     RETURNING product_id`,
    { replacements, type: QueryTypes.SELECT, transaction },
  );
  return new Set(rows.map((row) => Number(row.product_id)));
}

/** Gives back units of several products that this transaction holds (takeHeldAll undone in part). */
export async function releaseHeldAll(
  db: Database,
  storeId: number,
  lines: readonly UnitLine[],
  transaction: Transaction,
): Promise<void> {
  if (lines.length === 0) return;
  const replacements: Record<string, unknown> = { storeId };
  const cases = lines
    .map((line, i) => {
      replacements[`p${i}`] = line.productId;
      replacements[`q${i}`] = line.quantity;
      return `WHEN :p${i} THEN :q${i}`;
    })
    .join(' ');
  await db.sequelize.query(
    `UPDATE stock SET held = held - CASE product_id ${cases} ELSE 0 END
      WHERE store_id = :storeId AND product_id IN (${lines.map((_, i) => `:p${i}`).join(', ')})`,
    { replacements, transaction },
  );
}

/**
 * PostgreSQL: locks a store's rows of these products in product id order (they must exist: ensureRows),
 * so that a transaction touching them in another order afterwards never waits for one held by a
 * transaction that waits for it. SQLite's write transaction has the database to itself already.
 */
export async function lockRows(
  db: Database,
  storeId: number,
  productIds: readonly number[],
  transaction: Transaction,
): Promise<void> {
  if (db.dialect !== 'postgres' || productIds.length === 0) return;
  await db.sequelize.query(
    `SELECT product_id FROM stock WHERE store_id = :storeId AND product_id IN (:productIds)
      ORDER BY product_id FOR UPDATE`,
    {
      replacements: { storeId, productIds: [...new Set(productIds)].sort((a, b) => a - b) },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
}

/** Gives held units back (a hold released or shrunk). */
export async function releaseHeld(
  db: Database,
  storeId: number,
  line: UnitLine,
  transaction: Transaction,
): Promise<void> {
  await db.sequelize.query(
    `UPDATE stock SET held = held - :q WHERE store_id = :storeId AND product_id = :productId`,
    { replacements: { q: line.quantity, storeId, productId: line.productId }, transaction },
  );
}

/** Held units become sold (their order paid while its hold stood): sold + held does not change. */
export async function heldToSold(
  db: Database,
  storeId: number,
  line: UnitLine,
  transaction: Transaction,
): Promise<void> {
  await db.sequelize.query(
    `UPDATE stock SET held = held - :q, sold = sold + :q WHERE store_id = :storeId AND product_id = :productId`,
    { replacements: { q: line.quantity, storeId, productId: line.productId }, transaction },
  );
}

/** Sells units no hold kept (paid after the hold ran out) when they are left: false when not. */
export async function takeSold(
  db: Database,
  storeId: number,
  line: UnitLine,
  transaction: Transaction,
): Promise<boolean> {
  const taken = await returning(
    db,
    `UPDATE stock SET sold = sold + :q
      WHERE store_id = :storeId AND product_id = :productId
        AND (stock_limit IS NULL OR sold + held + :q <= stock_limit)
      RETURNING product_id`,
    { q: line.quantity, storeId, productId: line.productId },
    transaction,
  );
  return taken === 1;
}

/** Sold units back on the shelf (a refund with 'back in stock', or undoing takeSold in its transaction). */
export async function returnSold(
  db: Database,
  storeId: number,
  line: UnitLine,
  transaction: Transaction,
): Promise<void> {
  await db.sequelize.query(
    `UPDATE stock SET sold = sold - :q WHERE store_id = :storeId AND product_id = :productId`,
    { replacements: { q: line.quantity, storeId, productId: line.productId }, transaction },
  );
}

interface CountsRow {
  product_id: number | string;
  stock_limit: number | string | null;
  held: number | string;
  sold: number | string;
}

/** The counts of a store's rows (all, or those of some products; limited ones only if asked). */
export async function readCounts(
  db: Database,
  storeId: number,
  options: { productIds?: readonly number[]; limitedOnly?: boolean; transaction?: Transaction } = {},
): Promise<StockCounts[]> {
  const { productIds, limitedOnly = false, transaction } = options;
  if (productIds !== undefined && productIds.length === 0) return [];
  const rows = await db.sequelize.query<CountsRow>(
    `SELECT product_id, stock_limit, held, sold FROM stock
      WHERE store_id = :storeId
        ${productIds === undefined ? '' : 'AND product_id IN (:productIds)'}
        ${limitedOnly ? 'AND stock_limit IS NOT NULL' : ''}
      ORDER BY product_id`,
    {
      replacements: { storeId, productIds: productIds ?? [] },
      type: QueryTypes.SELECT,
      transaction: transaction ?? null,
    },
  );
  return rows.map((row) => ({
    productId: Number(row.product_id),
    limit: row.stock_limit === null ? null : Number(row.stock_limit),
    held: Number(row.held),
    sold: Number(row.sold),
  }));
}

import type { StockRow } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';
import type { Actor } from '../staff/audit.js';
import { findStaffStore } from '../staff/stores.js';
import { ensureRows, leftOf, readCounts } from './ledger.js';

/** A store's stock table for staff: every product the store prices, with its limit and counts. */

export const STOCK_LIMIT_MAX = 100_000;
export const STOCK_LIMIT_INVALID = `Enter a whole number from 0 to ${STOCK_LIMIT_MAX.toLocaleString('en-US')}, or leave it blank for unlimited.`;
export const STOCK_PRODUCT_NOT_SOLD = 'This product is not sold in this store.';

/** 'The limit cannot be below the 7 units already sold or held (5 sold, 2 held).' */
export function limitBelowTaken(sold: number, held: number): string {
  const taken = sold + held;
  return `The limit cannot be below the ${taken} ${taken === 1 ? 'unit' : 'units'} already sold or held (${sold} sold, ${held} held).`;
}

const limitSchema = z.object({
  limit: z.union(
    [
      z.null(),
      z
        .number({ error: STOCK_LIMIT_INVALID })
        .int(STOCK_LIMIT_INVALID)
        .min(0, STOCK_LIMIT_INVALID)
        .max(STOCK_LIMIT_MAX, STOCK_LIMIT_INVALID),
    ],
    { error: STOCK_LIMIT_INVALID },
  ),
});

interface PricedRow {
  id: number | string;
  name: string;
}

async function pricedProducts(db: Database, storeId: number, productId?: number): Promise<PricedRow[]> {
  return db.sequelize.query<PricedRow>(
    `SELECT p.id, p.name FROM store_prices sp JOIN products p ON p.id = sp.product_id
      WHERE sp.store_id = :storeId ${productId === undefined ? '' : 'AND p.id = :productId'}
      ORDER BY p.sort_order, p.id`,
    { replacements: { storeId, productId: productId ?? 0 }, type: QueryTypes.SELECT },
  );
}

export async function listStock(db: Database, storeId: number): Promise<StockRow[]> {
  await findStaffStore(db, storeId);
  const products = await pricedProducts(db, storeId);
  const counts = new Map((await readCounts(db, storeId)).map((c) => [c.productId, c]));
  return products.map((p) => {
    const productId = Number(p.id);
    const c = counts.get(productId) ?? { productId, limit: null, held: 0, sold: 0 };
    return { productId, name: p.name, limit: c.limit, held: c.held, sold: c.sold, left: leftOf(c) };
  });
}

/**
 * Sets (or clears, with null) a product's limit in a store. The UPDATE carries the rule: a limit below
 * what is already sold and held changes nothing and is refused in words. Audited in the same transaction.
 */
export async function setStockLimit(
  db: Database,
  actor: Actor,
  storeId: number,
  productId: number,
  body: unknown,
): Promise<StockRow[]> {
  const parsed = limitSchema.safeParse(body ?? {});
  if (!parsed.success) {
    throw new AppError(400, 'validation_failed', STOCK_LIMIT_INVALID, { limit: STOCK_LIMIT_INVALID });
  }
  const { limit } = parsed.data;
  const store = await findStaffStore(db, storeId);
  const [product] = await pricedProducts(db, storeId, productId);
  if (!product) throw new AppError(404, 'product_not_found', STOCK_PRODUCT_NOT_SOLD);
  await db.sequelize.transaction(async (transaction) => {
    await ensureRows(db, storeId, [productId], transaction);
    const rows = await db.sequelize.query<{ stock_limit: number | string | null }>(
      `SELECT stock_limit FROM stock WHERE store_id = :storeId AND product_id = :productId
       ${db.dialect === 'postgres' ? 'FOR UPDATE' : ''}`,
      { replacements: { storeId, productId }, type: QueryTypes.SELECT, transaction },
    );
    const was = rows[0]?.stock_limit ?? null;
    const changed = await db.sequelize.query(
      `UPDATE stock SET stock_limit = :limit
        WHERE store_id = :storeId AND product_id = :productId
          AND (:limit IS NULL OR sold + held <= :limit)
        RETURNING product_id`,
      { replacements: { storeId, productId, limit }, type: QueryTypes.SELECT, transaction },
    );
    if (changed.length === 0) {
      const [c] = await readCounts(db, storeId, { productIds: [productId], transaction });
      const message = limitBelowTaken(c?.sold ?? 0, c?.held ?? 0);
      throw new AppError(409, 'stock_limit_below_taken', message, { limit: message });
    }
    // The audit row in the change's own transaction (as staff/audit.ts recordChange writes them).
    await db.models.AuditLog.create(
      {
        actorUserId: actor.userId,
        action: 'stock_limit_update',
        entity: 'product',
        entityId: String(productId),
        storeId,
        before: { product: product.name, store: store.name, limit: was === null ? null : Number(was) },
        after: { product: product.name, store: store.name, limit },
        ip: actor.ip?.slice(0, 64) ?? null,
        createdAt: new Date(),
      },
      { transaction },
    );
  });
  return listStock(db, storeId);
}

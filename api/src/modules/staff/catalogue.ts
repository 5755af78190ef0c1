import { bounded, idSchema, LONG_TEXT_MAX, NAME_LONG_MAX, requiredText } from '@avp/shared';
import { Op } from 'sequelize';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import type { ProductInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { recordChange } from './audit.js';
import type { Actor } from './audit.js';
import { storesChanged } from '../store/index.js';
import { findStaffStore } from './stores.js';
import type { StaffPrice, StaffProduct } from '@avp/shared';

/**
 * Products and per-store prices (beyond the spec). Products are shared by every store (name,
 * description, images, metadata.order as `sort_order`, active or not); a store sells the products it has a
 * price for. Products are never deleted, only deactivated: order lines point at them.
 */

// not in SPEC: the staff screens' own texts.
export const PRODUCT_NAME_REQUIRED = 'Please enter a product name.';
export const PRODUCT_NOT_FOUND = 'No such product.';
export const PRICE_INVALID = 'Enter a price between 0.00 and 100,000.00.';
export const PRICE_DUPLICATE = 'A product may have only one price in a store.';
export const REORDER_MISMATCH = 'List every product exactly once.';
export const PRODUCT_IMAGE_URL = /^\/media\/products\/[a-z0-9][a-z0-9._-]{0,120}$/;
export const PRODUCT_IMAGE_INVALID = 'Upload the image here: it must be one of ours.';

function imagesOf(product: ProductInstance): string[] {
  const value = product.images as unknown;
  if (typeof value === 'string') return JSON.parse(value) as string[];
  return Array.isArray(value) ? (value as string[]) : [];
}

function snapshot(product: ProductInstance): Record<string, unknown> {
  return {
    name: product.name,
    description: product.description,
    images: imagesOf(product),
    sort_order: product.sortOrder,
    is_active: product.isActive,
  };
}

export async function listProducts(db: Database): Promise<StaffProduct[]> {
  const products = await db.models.Product.findAll({
    order: [
      ['sortOrder', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  const [rows] = await db.sequelize.query(
    'SELECT product_id, COUNT(*) AS n FROM store_prices GROUP BY product_id',
  );
  const stores = new Map(
    (rows as { product_id: number; n: number | string }[]).map((r) => [Number(r.product_id), Number(r.n)]),
  );
  return products.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    images: imagesOf(p),
    sort_order: p.sortOrder,
    is_active: p.isActive,
    stores: stores.get(p.id) ?? 0,
  }));
}

const productSchema = z.object({
  name: requiredText(PRODUCT_NAME_REQUIRED, NAME_LONG_MAX),
  description: bounded(z.string(), LONG_TEXT_MAX).default(''),
  images: z.array(z.string().regex(PRODUCT_IMAGE_URL, PRODUCT_IMAGE_INVALID)).max(10).default([]),
  is_active: z.boolean().default(true),
  /** Create only: where it goes; the end of the list when absent. */
  sort_order: z.number().int().min(0).max(1_000_000).optional(),
});

export async function createProduct(db: Database, actor: Actor, body: unknown): Promise<StaffProduct[]> {
  const input = productSchema.parse(body ?? {});
  await db.sequelize.transaction(async (transaction) => {
    const last = (await db.models.Product.max('sortOrder', { transaction })) as number | null;
    const product = await db.models.Product.create(
      {
        name: input.name,
        description: input.description,
        images: input.images,
        isActive: input.is_active,
        sortOrder: input.sort_order ?? (last ?? 0) + 1,
      },
      { transaction },
    );
    await recordChange(
      db,
      actor,
      { action: 'product_create', entity: 'product', entityId: product.id, after: snapshot(product) },
      transaction,
    );
  });
  return listProducts(db);
}

export function parseProductKey(value: string): number {
  if (!/^\d{1,10}$/.test(value)) throw new AppError(404, 'product_not_found', PRODUCT_NOT_FOUND);
  return Number(value);
}

/** Edits name, description, images and the active flag (deactivating takes it off every store page). */
export async function updateProduct(
  db: Database,
  actor: Actor,
  id: number,
  body: unknown,
): Promise<StaffProduct[]> {
  const input = productSchema.parse(body ?? {});
  await db.sequelize.transaction(async (transaction) => {
    const product = await db.models.Product.findByPk(id, { transaction });
    if (!product) throw new AppError(404, 'product_not_found', PRODUCT_NOT_FOUND);
    const before = snapshot(product);
    product.set({
      name: input.name,
      description: input.description,
      images: input.images,
      isActive: input.is_active,
      ...(input.sort_order === undefined ? {} : { sortOrder: input.sort_order }),
    });
    await product.save({ transaction });
    await storesChanged(db, 'every', transaction);
    await recordChange(
      db,
      actor,
      { action: 'product_update', entity: 'product', entityId: id, before, after: snapshot(product) },
      transaction,
    );
  });
  return listProducts(db);
}

const reorderSchema = z.object({ ids: z.array(idSchema).min(1).max(10_000) });

/** The whole list in its new order: sort_order becomes 1, 2, 3… (the spec's metadata.order). */
export async function reorderProducts(db: Database, actor: Actor, body: unknown): Promise<StaffProduct[]> {
  const { ids } = reorderSchema.parse(body ?? {});
  await db.sequelize.transaction(async (transaction) => {
    const products = await db.models.Product.findAll({ transaction });
    const known = new Set(products.map((p) => p.id));
    if (new Set(ids).size !== ids.length || ids.length !== known.size || !ids.every((id) => known.has(id))) {
      throw new AppError(400, 'validation_failed', REORDER_MISMATCH, { ids: REORDER_MISMATCH });
    }
    const before = [...products].sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id).map((p) => p.id);
    const byId = new Map(products.map((p) => [p.id, p]));
    let moved = false;
    for (const [index, id] of ids.entries()) {
      const product = byId.get(id)!;
      if (product.sortOrder !== index + 1) {
        product.sortOrder = index + 1;
        await product.save({ transaction });
        moved = true;
      }
    }
    if (moved) await storesChanged(db, 'every', transaction);
    await recordChange(
      db,
      actor,
      {
        action: 'product_reorder',
        entity: 'product',
        entityId: null,
        before: { ids: before },
        after: { ids },
      },
      transaction,
    );
  });
  return listProducts(db);
}

export async function listPrices(db: Database, storeKey: number): Promise<StaffPrice[]> {
  await findStaffStore(db, storeKey);
  const prices = await db.models.StorePrice.findAll({
    where: { storeId: storeKey },
    include: [{ model: db.models.Product, as: 'product', required: true }],
  });
  return prices
    .map((price) => {
      const product = (price as typeof price & { product: ProductInstance }).product;
      return {
        product_id: price.productId,
        name: product.name,
        is_active: product.isActive,
        unit_amount: price.unitAmount,
        currency: price.currency,
        sort: product.sortOrder,
      };
    })
    .sort((a, b) => a.sort - b.sort || a.product_id - b.product_id)
    .map(({ sort: _sort, ...rest }) => rest);
}

const pricesSchema = z.object({
  prices: z
    .array(
      z.object({
        product_id: idSchema,
        unit_amount: z
          .number({ error: PRICE_INVALID })
          .int(PRICE_INVALID)
          .min(0, PRICE_INVALID)
          .max(10_000_000, PRICE_INVALID),
      }),
    )
    .max(10_000)
    .superRefine((list, ctx) => {
      const seen = new Set<number>();
      list.forEach((p, i) => {
        if (seen.has(p.product_id))
          ctx.addIssue({ code: 'custom', message: PRICE_DUPLICATE, path: [i, 'product_id'] });
        seen.add(p.product_id);
      });
    }),
});

/** Sets a store's whole price list: listed products get these prices, the others leave the store. */
export async function setPrices(
  db: Database,
  actor: Actor,
  storeKey: number,
  body: unknown,
): Promise<StaffPrice[]> {
  const { prices } = pricesSchema.parse(body ?? {});
  await db.sequelize.transaction(async (transaction) => {
    await findStaffStore(db, storeKey, transaction);
    const ids = prices.map((p) => p.product_id);
    const found = await db.models.Product.count({ where: { id: { [Op.in]: ids } }, transaction });
    if (found !== new Set(ids).size) throw new AppError(400, 'validation_failed', PRODUCT_NOT_FOUND);
    const existing = await db.models.StorePrice.findAll({ where: { storeId: storeKey }, transaction });
    const before = Object.fromEntries(existing.map((p) => [p.productId, p.unitAmount]));
    const wanted = new Map(prices.map((p) => [p.product_id, p.unit_amount]));
    for (const price of existing) {
      const amount = wanted.get(price.productId);
      if (amount === undefined) await price.destroy({ transaction });
      else if (amount !== price.unitAmount) {
        price.unitAmount = amount;
        await price.save({ transaction });
      }
      wanted.delete(price.productId);
    }
    for (const [productId, unitAmount] of wanted) {
      await db.models.StorePrice.create({ storeId: storeKey, productId, unitAmount }, { transaction });
    }
    const after = Object.fromEntries(prices.map((p) => [p.product_id, p.unit_amount]));
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await storesChanged(db, [storeKey], transaction);
      await recordChange(
        db,
        actor,
        {
          action: 'prices_update',
          entity: 'store_prices',
          entityId: storeKey,
          storeId: storeKey,
          before,
          after,
        },
        transaction,
      );
    }
  });
  return listPrices(db, storeKey);
}

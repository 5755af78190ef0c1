import { isEarlyBird, isStoreClosed, STORE_ID_PATTERN } from '@avp/shared';
import type { PublicProduct, PublicStore, StoreSummary } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import { paymentGatewayFor } from '../../adapters/payments/index.js';
import type { GatewayConfig } from '../../adapters/payments/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { StoreInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { storeStock } from '../stock/availability.js';

/**
 * The public side of the stores: the selector's list and one store with its priced products (SPEC §3
 * 'Store', 'Product'). What a browser receives never includes a secret key, the BCC list or the e-mail
 * text (DESIGN deviation 3); a store that takes payments with Stripe sends only its publishable key.
 */

export interface StoreDeps {
  config: Config;
  db: Database;
}

export const STORE_NOT_FOUND = 'No such store.';

export function isClosed(
  store: StoreInstance,
  config: Pick<Config, 'TZ_STORE'>,
  now: Date = new Date(),
): boolean {
  return isStoreClosed(
    {
      is_active: store.isActive,
      is_archived: store.isArchived,
      deadline: store.deadline,
      order_cutoff: store.orderCutoff,
    },
    now,
    config.TZ_STORE,
  );
}

export function storeSummary(
  store: StoreInstance,
  config: Pick<Config, 'TZ_STORE'>,
  now: Date,
): StoreSummary {
  return {
    id: store.id,
    store_id: store.slug,
    name: store.name,
    is_active: store.isActive,
    is_archived: store.isArchived,
    image: store.image,
    deadline: store.deadline,
    order_cutoff: store.orderCutoff,
    start_date: store.startDate,
    end_date: store.endDate,
    closed: isClosed(store, config, now),
  };
}

/** Stores the selector lists: active and not archived (SPEC §2), by event start then name. */
export async function listStores({ config, db }: StoreDeps, now: Date = new Date()): Promise<StoreSummary[]> {
  const stores = await db.models.Store.findAll({
    where: { isActive: true, isArchived: false },
    order: [
      ['startDate', 'ASC'],
      ['name', 'ASC'],
    ],
  });
  return stores.map((store) => storeSummary(store, config, now));
}

/** The store's id comes from the address: only a well-formed one is looked up (no NUL, no 300 characters). */
export async function findStore(
  db: Database,
  slug: string,
  transaction?: Transaction,
): Promise<StoreInstance> {
  const store = STORE_ID_PATTERN.test(slug)
    ? await db.models.Store.findOne({ where: { slug }, transaction: transaction ?? null })
    : null;
  if (!store) throw new AppError(404, 'store_not_found', STORE_NOT_FOUND);
  return store;
}

export async function storeExists(db: Database, slug: string): Promise<boolean> {
  return STORE_ID_PATTERN.test(slug) && (await db.models.Store.count({ where: { slug } })) > 0;
}

interface ProductRow {
  id: number;
  name: string;
  description: string;
  images: string[] | string | null;
  sort_order: number;
  unit_amount: number;
  currency: string;
}

/**
 * The products on sale in a store, with its prices, in metadata.order order: one query (the store page's
 * data is the store's hottest call, and Sequelize's include hydration cost more than the query itself).
 */
export async function storeProducts(
  db: Database,
  storeKey: number,
  transaction?: Transaction,
): Promise<PublicProduct[]> {
  const rows = await db.sequelize.query<ProductRow>(
    `SELECT p.id, p.name, p.description, p.images, p.sort_order, sp.unit_amount, sp.currency
       FROM store_prices sp JOIN products p ON p.id = sp.product_id
      WHERE sp.store_id = $1 AND p.is_active = $2
      ORDER BY p.sort_order, p.id`,
    { bind: [storeKey, true], type: QueryTypes.SELECT, transaction: transaction ?? null },
  );
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    description: row.description,
    // JSON columns come back parsed on PostgreSQL and as text on SQLite.
    images: typeof row.images === 'string' ? (JSON.parse(row.images) as string[]) : (row.images ?? []),
    default_price: null,
    metadata: { order: Number(row.sort_order) },
    price: Number(row.unit_amount),
    currency: row.currency,
    stock: null,
  }));
}

export function publicStoreOf(
  store: StoreInstance,
  products: PublicProduct[],
  config: Config,
  now: Date,
): PublicStore {
  const gateway = paymentGatewayFor(config as GatewayConfig, store);
  return {
    ...storeSummary(store, config, now),
    store_text: store.storeText ?? '',
    early_bird: isEarlyBird(store.deadline, now, config.TZ_STORE),
    time_zone: config.TZ_STORE,
    gateway: gateway.kind,
    ...(gateway.publishableKey ? { publicKey: gateway.publishableKey } : {}),
    products,
  };
}

export async function getPublicStore(
  { config, db }: StoreDeps,
  slug: string,
  now: Date = new Date(),
): Promise<PublicStore> {
  const store = await findStore(db, slug);
  const stock = await storeStock(db, config, store.id);
  const products = (await storeProducts(db, store.id)).map((p) => ({ ...p, stock: stock.get(p.id) ?? null }));
  return publicStoreOf(store, products, config, now);
}

import { idSchema, storeFormSchema, storeImageUnknown } from '@avp/shared';
import type { StoreForm } from '@avp/shared';
import { UniqueConstraintError, ForeignKeyConstraintError } from 'sequelize';
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import { sealSecret } from '../../adapters/payments/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { StoreAttributes, StoreInstance } from '../../db/models/index.js';
import { AppError, fieldErrors } from '../../http/errors.js';
import { storesChanged, storeSummary } from '../store/index.js';
import { recordChange } from './audit.js';
import { storeImageExists } from './media.js';
import type { Actor } from './audit.js';
import type { StaffStore, StoreChangeResult } from '@avp/shared';

/**
 * The store manager of SPEC §2 'Admin page /manage_order_forms': every store, archived ones
 * included, and the changes staff make to them. Every change answers with the full updated list (SPEC §7
 * 'Admin update / delete ... each returns the full updated stores list'), and is written to the audit log
 * in the same transaction.
 */

export interface StaffDeps {
  config: Config;
  db: Database;
}

// not in SPEC: the staff screens' own texts.
export const STORE_NOT_FOUND_STAFF = 'No such store.';
export const STORE_ID_TAKEN = 'This Store ID is already used by another store.';
export const STORE_HAS_ORDERS = 'This store has orders, so it cannot be deleted. Archive it instead.';
export const STORE_DELETE_NOT_ARCHIVED = 'Only an archived store can be deleted. Archive it first.';
export const STRIPE_PUBLISHABLE_INVALID = 'A publishable key starts with pk_test_ or pk_live_.';
export const STRIPE_SECRET_INVALID = 'A secret key starts with sk_test_, sk_live_, rk_test_ or rk_live_.';
export const STRIPE_SECRET_NEEDS_PUBLISHABLE = 'Enter the publishable key that goes with the secret key.';
export const COPY_PRICES_UNKNOWN = 'No such store to copy prices from.';

function staffStore(
  store: StoreInstance,
  counts: { orders: Map<number, number>; products: Map<number, number> },
  config: Pick<Config, 'TZ_STORE'>,
  now: Date,
): StaffStore {
  return {
    ...storeSummary(store, config, now),
    email_text: store.emailText ?? '',
    store_text: store.storeText ?? '',
    bcc: store.bcc ?? '',
    stripe_publishable_key: store.stripePublishableKey,
    has_stripe_secret: store.stripeSecretKeyEnc !== null,
    orders: counts.orders.get(store.id) ?? 0,
    products: counts.products.get(store.id) ?? 0,
  };
}

async function countBy(
  db: Database,
  table: 'orders' | 'store_prices',
  transaction?: Transaction,
): Promise<Map<number, number>> {
  const [rows] = await db.sequelize.query(`SELECT store_id, COUNT(*) AS n FROM ${table} GROUP BY store_id`, {
    transaction: transaction ?? null,
  });
  return new Map(
    (rows as { store_id: number; n: number | string }[]).map((r) => [Number(r.store_id), Number(r.n)]),
  );
}

/** Every store, archived or not, by event start (newest first) then name. */
export async function listStaffStores(
  { config, db }: StaffDeps,
  transaction?: Transaction,
  now: Date = new Date(),
): Promise<StaffStore[]> {
  const stores = await db.models.Store.findAll({
    order: [
      ['startDate', 'DESC'],
      ['name', 'ASC'],
    ],
    transaction: transaction ?? null,
  });
  const counts = {
    orders: await countBy(db, 'orders', transaction),
    products: await countBy(db, 'store_prices', transaction),
  };
  return stores.map((store) => staffStore(store, counts, config, now));
}

export function parseStoreKey(value: string): number {
  const id = Number(value);
  if (!/^\d{1,10}$/.test(value) || !idSchema.safeParse(id).success) {
    throw new AppError(404, 'store_not_found', STORE_NOT_FOUND_STAFF);
  }
  return id;
}

export async function findStaffStore(
  db: Database,
  id: number,
  transaction?: Transaction,
): Promise<StoreInstance> {
  const store = await db.models.Store.findByPk(id, { transaction: transaction ?? null });
  if (!store) throw new AppError(404, 'store_not_found', STORE_NOT_FOUND_STAFF);
  return store;
}

/** What the audit log keeps of a store: its fields, never a secret. */
export function storeSnapshot(store: StoreInstance): Record<string, unknown> {
  return {
    store_id: store.slug,
    name: store.name,
    is_active: store.isActive,
    is_archived: store.isArchived,
    image: store.image,
    deadline: store.deadline,
    order_cutoff: store.orderCutoff,
    start_date: store.startDate,
    end_date: store.endDate,
    email_text: store.emailText ?? '',
    store_text: store.storeText ?? '',
    bcc: store.bcc ?? '',
    stripe_publishable_key: store.stripePublishableKey,
    has_stripe_secret: store.stripeSecretKeyEnc !== null,
  };
}

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** What the staff API takes beside the shared form: the store's own Stripe keys, the price list to copy. */
const extrasSchema = z.object({
  /** Create only: stores.id of the store whose price list the new store starts with. */
  copy_prices_from: z.preprocess(blank, idSchema.nullable().optional()),
  /** '' or null removes the store's own Stripe account (both keys); absent leaves it as it is. */
  stripe_publishable_key: z
    .string()
    .trim()
    .max(255)
    .refine((v) => v === '' || /^pk_(test|live)_\w+$/.test(v), STRIPE_PUBLISHABLE_INVALID)
    .nullable()
    .optional(),
  /** Write-only; '' or absent keeps the stored one. */
  stripe_secret_key: z
    .string()
    .trim()
    .max(255)
    .refine((v) => v === '' || /^(sk|rk)_(test|live)_\w+$/.test(v), STRIPE_SECRET_INVALID)
    .optional(),
});
type Extras = z.infer<typeof extrasSchema>;

/** Both schemas at once, so every field error is reported together. */
function parseStoreBody(body: unknown): { form: StoreForm; extras: Extras } {
  const form = storeFormSchema.safeParse(body);
  const extras = extrasSchema.safeParse(body ?? {});
  const fields = {
    ...(form.success ? {} : fieldErrors(form.error)),
    ...(extras.success ? {} : fieldErrors(extras.error)),
  };
  if (!form.success || !extras.success) {
    throw new AppError(400, 'validation_failed', 'Some fields are missing or invalid.', fields);
  }
  return { form: form.data, extras: extras.data };
}

/** The Image must name one of the store images, or the store pages would show a broken picture. */
async function ensureImageExists(config: Pick<Config, 'DATA_DIR'>, form: StoreForm): Promise<void> {
  if (form.image === null || (await storeImageExists(config, form.image))) return;
  throw new AppError(400, 'validation_failed', 'Some fields are missing or invalid.', {
    image: storeImageUnknown(form.image),
  });
}

function columnsOf(form: StoreForm): Partial<StoreAttributes> {
  return {
    slug: form.store_id,
    name: form.name,
    isActive: form.is_active,
    isArchived: form.is_archived,
    image: form.image,
    deadline: form.deadline,
    orderCutoff: form.order_cutoff,
    startDate: form.start_date,
    endDate: form.end_date,
    emailText: form.email_text === '' ? null : form.email_text,
    storeText: form.store_text === '' ? null : form.store_text,
    bcc: form.bcc === '' ? null : form.bcc,
  };
}

function stripeColumns(
  extras: Extras,
  existing: Pick<StoreAttributes, 'stripePublishableKey' | 'stripeSecretKeyEnc'>,
  config: Pick<Config, 'SESSION_SECRET'>,
): Partial<StoreAttributes> {
  const out: Partial<StoreAttributes> = {};
  if (extras.stripe_publishable_key === null || extras.stripe_publishable_key === '') {
    return { stripePublishableKey: null, stripeSecretKeyEnc: null };
  }
  if (extras.stripe_publishable_key !== undefined) out.stripePublishableKey = extras.stripe_publishable_key;
  if (extras.stripe_secret_key) {
    if ((out.stripePublishableKey ?? existing.stripePublishableKey) === null) {
      throw new AppError(400, 'validation_failed', 'Some fields are missing or invalid.', {
        stripe_publishable_key: STRIPE_SECRET_NEEDS_PUBLISHABLE,
      });
    }
    out.stripeSecretKeyEnc = sealSecret(extras.stripe_secret_key, config.SESSION_SECRET);
  }
  return out;
}

async function ensureSlugFree(
  db: Database,
  slug: string,
  exceptId: number | undefined,
  transaction: Transaction,
): Promise<void> {
  const other = await db.models.Store.findOne({ where: { slug }, transaction });
  if (other && other.id !== exceptId) slugTaken();
}

function slugTaken(): never {
  throw new AppError(409, 'store_id_taken', STORE_ID_TAKEN, { store_id: STORE_ID_TAKEN });
}

/** A unique clash on the slug, raced past ensureSlugFree, is the same answer. */
async function slugGuard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UniqueConstraintError) slugTaken();
    throw error;
  }
}

function pick(stores: StaffStore[], id: number): StaffStore | null {
  return stores.find((s) => s.id === id) ?? null;
}

export async function createStore(deps: StaffDeps, actor: Actor, body: unknown): Promise<StoreChangeResult> {
  const { db, config } = deps;
  const { form, extras } = parseStoreBody(body);
  await ensureImageExists(config, form);
  return slugGuard(() =>
    db.sequelize.transaction(async (transaction) => {
      await ensureSlugFree(db, form.store_id, undefined, transaction);
      const source =
        extras.copy_prices_from === undefined || extras.copy_prices_from === null
          ? null
          : await db.models.Store.findByPk(extras.copy_prices_from, { transaction });
      if (extras.copy_prices_from && !source) {
        throw new AppError(400, 'validation_failed', 'Some fields are missing or invalid.', {
          copy_prices_from: COPY_PRICES_UNKNOWN,
        });
      }
      const store = await db.models.Store.create(
        {
          ...(columnsOf(form) as StoreAttributes),
          ...stripeColumns(extras, { stripePublishableKey: null, stripeSecretKeyEnc: null }, config),
        },
        { transaction },
      );
      let copied = 0;
      if (source) {
        const prices = await db.models.StorePrice.findAll({ where: { storeId: source.id }, transaction });
        for (const price of prices) {
          await db.models.StorePrice.create(
            {
              storeId: store.id,
              productId: price.productId,
              unitAmount: price.unitAmount,
              currency: price.currency,
            },
            { transaction },
          );
        }
        copied = prices.length;
      }
      await recordChange(
        db,
        actor,
        {
          action: 'store_create',
          entity: 'store',
          entityId: store.id,
          storeId: store.id,
          after: {
            ...storeSnapshot(store),
            ...(source ? { prices_copied_from: source.slug, prices_copied: copied } : {}),
          },
        },
        transaction,
      );
      const stores = await listStaffStores(deps, transaction);
      return { store: pick(stores, store.id), stores };
    }),
  );
}

export async function updateStore(
  deps: StaffDeps,
  actor: Actor,
  id: number,
  body: unknown,
): Promise<StoreChangeResult> {
  const { db, config } = deps;
  const { form, extras } = parseStoreBody(body);
  await ensureImageExists(config, form);
  return slugGuard(() =>
    db.sequelize.transaction(async (transaction) => {
      const store = await findStaffStore(db, id, transaction);
      await ensureSlugFree(db, form.store_id, id, transaction);
      const before = storeSnapshot(store);
      store.set({ ...columnsOf(form), ...stripeColumns(extras, store, config) });
      const secretChanged = store.changed('stripeSecretKeyEnc') !== false;
      await store.save({ transaction });
      await storesChanged(db, [store.id], transaction);
      await recordChange(
        db,
        actor,
        {
          action: 'store_update',
          entity: 'store',
          entityId: store.id,
          storeId: store.id,
          before,
          after: { ...storeSnapshot(store), ...(secretChanged ? { stripe_secret_key: 'changed' } : {}) },
        },
        transaction,
      );
      const stores = await listStaffStores(deps, transaction);
      return { store: pick(stores, store.id), stores };
    }),
  );
}

const flagSchema = (name: 'is_active' | 'is_archived') =>
  z.object({ [name]: z.boolean({ error: `${name} must be true or false.` }) });

/** The Active toggle (saves at once, SPEC §4) and the Archive/UnArchive button. */
export async function setStoreFlag(
  deps: StaffDeps,
  actor: Actor,
  id: number,
  flag: 'is_active' | 'is_archived',
  body: unknown,
): Promise<StoreChangeResult> {
  const { db } = deps;
  const value = (flagSchema(flag).parse(body ?? {}) as Record<string, boolean>)[flag]!;
  return db.sequelize.transaction(async (transaction) => {
    const store = await findStaffStore(db, id, transaction);
    const column = flag === 'is_active' ? 'isActive' : 'isArchived';
    const before = store[column];
    if (before !== value) {
      store.set(column, value);
      await store.save({ transaction });
      await storesChanged(db, [store.id], transaction);
      await recordChange(
        db,
        actor,
        {
          action:
            flag === 'is_active'
              ? value
                ? 'store_activate'
                : 'store_deactivate'
              : value
                ? 'store_archive'
                : 'store_unarchive',
          entity: 'store',
          entityId: store.id,
          storeId: store.id,
          before: { [flag]: before },
          after: { [flag]: value },
        },
        transaction,
      );
    }
    const stores = await listStaffStores(deps, transaction);
    return { store: pick(stores, store.id), stores };
  });
}

/**
 * Deletes an archived store with its prices (SPEC §4: permanent, offered only in the archived view). A store
 * that has taken orders is refused: orders are financial records (the schema's RESTRICT says so too).
 */
export async function deleteStore(deps: StaffDeps, actor: Actor, id: number): Promise<StoreChangeResult> {
  const { db } = deps;
  try {
    return await db.sequelize.transaction(async (transaction) => {
      const store = await findStaffStore(db, id, transaction);
      if (!store.isArchived) throw new AppError(409, 'store_not_archived', STORE_DELETE_NOT_ARCHIVED);
      if ((await db.models.Order.count({ where: { storeId: id }, transaction })) > 0) {
        throw new AppError(409, 'store_has_orders', STORE_HAS_ORDERS);
      }
      const before = storeSnapshot(store);
      const prices = await db.models.StorePrice.count({ where: { storeId: id }, transaction });
      await store.destroy({ transaction });
      await recordChange(
        db,
        actor,
        { action: 'store_delete', entity: 'store', entityId: id, storeId: id, before: { ...before, prices } },
        transaction,
      );
      return { store: null, stores: await listStaffStores(deps, transaction) };
    });
  } catch (error) {
    // An order written between the count and the delete.
    if (error instanceof ForeignKeyConstraintError)
      throw new AppError(409, 'store_has_orders', STORE_HAS_ORDERS);
    throw error;
  }
}

import { createHash } from 'node:crypto';
import { addDays, effectiveCutoff, startOfDayIn, STORE_ID_PATTERN } from '@avp/shared';
import type { ProductStock, PublicStore } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';
import { findStore, publicStoreOf, STORE_NOT_FOUND, storeProducts } from './catalogue.js';
import type { StoreDeps } from './catalogue.js';
import { freshReads } from './fresh-reads.js';
import { leftOf } from '../stock/ledger.js';
import { metricsOf } from '../metrics/index.js';

/**
 * The store page's data (GET /api/stores/:storeId) held in this process's memory, with its validator.
 *
 * What the answer shows changes only when staff change the store, its prices or its products, and each of
 * those changes raises stores.version in its own transaction (storesChanged below). Every request reads the
 * store's (id, version) with one indexed query begun after it arrived (shared by the requests arriving
 * while one is under way) and rebuilds the held answer when it is older, so a change made through any
 * process is seen at once by every process. Whether the store is closed and whether early-bird pricing
 * applies depend on the clock: they are decided per request from instants worked out once per build, so
 * the store closes at its cut-off and not when something expires. Stock (units left of limited products)
 * changes with every hold and payment, so it is never held: the same query that reads the version reads
 * the store's limited stock rows, and the answer merges them in. The ETag is a hash of the exact bytes sent.
 */

export interface StoreAnswer {
  /** The JSON text of `{ store }`. */
  body: string;
  /** A strong validator: the same bytes give the same ETag in every process. */
  etag: string;
}

interface Held {
  id: number;
  version: number;
  base: PublicStore;
  /** Early-bird pricing applies before this instant (ms): the end of the deadline day in TZ_STORE. */
  earlyBirdUntil: number;
  /** The store is closed from this instant (ms): the end of its cut-off day, or always when inactive or archived. */
  closesAt: number;
  /** One per (closed, earlyBird, stock), the most recent few. */
  answers: Map<string, StoreAnswer>;
}

interface Current {
  id: number;
  version: number;
  /** Units left of the store's limited products, read with the version. */
  stock: Map<number, ProductStock>;
}

/** Answers kept per store for different stock figures; past it they are dropped and built again. */
const MAX_ANSWERS = 16;

/** Stores held at once; past it the longest-held is dropped (it is rebuilt when asked for again). */
const MAX_HELD = 1_000;

/** The first instant after `date` in `timeZone`: where shared's isOnOrBeforeDay turns false. */
function dayEndsAt(date: string, timeZone: string): number {
  return startOfDayIn(addDays(date, 1), timeZone).getTime();
}

function notFound(): AppError {
  return new AppError(404, 'store_not_found', STORE_NOT_FOUND);
}

export class StoreDataCache {
  private readonly held = new Map<string, Held>();
  private readonly building = new Map<string, Promise<Held>>();
  /** The store's (id, version), read by a query that began after the request arrived (fresh-reads.ts). */
  private readonly current = freshReads((slug) => this.readVersion(slug));

  constructor(private readonly deps: StoreDeps) {}

  async answer(slug: string, now: number = Date.now()): Promise<StoreAnswer> {
    if (!STORE_ID_PATTERN.test(slug)) throw notFound();
    const current = await this.current(slug);
    if (current === null) {
      this.held.delete(slug);
      throw notFound();
    }
    let held = this.held.get(slug);
    metricsOf(this.deps.db).storeLookup(held !== undefined && covers(held, current));
    if (held === undefined || !covers(held, current)) held = await this.rebuild(slug, current);
    return answerAt(held, now, current.stock);
  }

  private async readVersion(slug: string): Promise<Current | null> {
    const rows = await this.deps.db.sequelize.query<VersionRow>(
      `SELECT s.id, s.version, st.product_id, st.stock_limit, st.held, st.sold
         FROM stores s LEFT JOIN stock st ON st.store_id = s.id AND st.stock_limit IS NOT NULL
        WHERE s.store_id = $1`,
      { bind: [slug], type: QueryTypes.SELECT },
    );
    const row = rows[0];
    if (row === undefined) return null;
    const stock = new Map<number, ProductStock>();
    for (const r of rows) {
      if (r.product_id === null || r.stock_limit === null) continue;
      const left = leftOf({ limit: Number(r.stock_limit), sold: Number(r.sold), held: Number(r.held) }) ?? 0;
      stock.set(Number(r.product_id), { left, low: left <= this.deps.config.STOCK_LOW_THRESHOLD });
    }
    return { id: Number(row.id), version: Number(row.version), stock };
  }

  /** Concurrent requests for a stale store share one build. */
  private async rebuild(slug: string, current: Current): Promise<Held> {
    let pending = this.building.get(slug);
    if (pending === undefined) {
      pending = this.load(slug).finally(() => this.building.delete(slug));
      this.building.set(slug, pending);
    }
    let held = await pending;
    // A build that read the store before this request's version was committed: read again, once (a load
    // that starts now sees at least that version).
    if (!covers(held, current)) held = await this.load(slug);
    this.keep(slug, held);
    return held;
  }

  private async load(slug: string): Promise<Held> {
    const { config, db } = this.deps;
    // The store row first, then its products: the products read are never older than the version held.
    const store = await findStore(db, slug);
    const products = await storeProducts(db, store.id);
    const tz = config.TZ_STORE;
    return {
      id: store.id,
      version: store.version,
      base: publicStoreOf(store, products, config, new Date()),
      earlyBirdUntil: dayEndsAt(store.deadline, tz),
      closesAt:
        !store.isActive || store.isArchived
          ? Number.NEGATIVE_INFINITY
          : dayEndsAt(effectiveCutoff({ deadline: store.deadline, order_cutoff: store.orderCutoff }), tz),
      answers: new Map(),
    };
  }

  private keep(slug: string, held: Held): void {
    const kept = this.held.get(slug);
    if (kept !== undefined && (kept.id > held.id || (kept.id === held.id && kept.version > held.version))) {
      return;
    }
    this.held.delete(slug);
    this.held.set(slug, held);
    if (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value!);
  }
}

/**
 * Whether what is held shows at least the current version. A different id under the same slug is a store
 * deleted and created again; ids are never reused (AUTOINCREMENT, serial), so only the current id counts.
 */
function covers(held: Held, current: Current): boolean {
  return held.id === current.id ? held.version >= current.version : held.id > current.id;
}

interface VersionRow {
  id: number | string;
  version: number | string;
  product_id: number | string | null;
  stock_limit: number | string | null;
  held: number | string | null;
  sold: number | string | null;
}

function answerAt(held: Held, now: number, stock: Map<number, ProductStock>): StoreAnswer {
  const closed = now >= held.closesAt;
  const earlyBird = now < held.earlyBirdUntil;
  let figures = '';
  for (const [id, s] of stock) figures += `|${id}:${s.left}`;
  const key = `${Number(closed)}${Number(earlyBird)}${figures}`;
  let answer = held.answers.get(key);
  if (answer === undefined) {
    const products =
      stock.size === 0
        ? held.base.products
        : held.base.products.map((p) => ({ ...p, stock: stock.get(p.id) ?? null }));
    const body = JSON.stringify({ store: { ...held.base, closed, early_bird: earlyBird, products } });
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 32);
    answer = { body, etag: `"${hash}"` };
    if (held.answers.size >= MAX_ANSWERS) held.answers.clear();
    held.answers.set(key, answer);
  }
  return answer;
}

/**
 * Marks what a store page shows as changed, in the caller's transaction: the stores named by stores.id, or
 * every store (products are shared; an edit to one is rare, and raising every store's version cannot miss
 * a store whose price for it is being written concurrently).
 */
export async function storesChanged(
  db: Database,
  which: readonly number[] | 'every',
  transaction: Transaction,
): Promise<void> {
  if (which !== 'every' && which.length === 0) return;
  await db.models.Store.increment('version', {
    where: which === 'every' ? {} : { id: [...which] },
    // The stores' own rows did not change: updated_at stays theirs.
    silent: true,
    transaction,
  });
}

import type { StockShortLine } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';
import {
  ensureRows,
  heldToSold,
  leftOf,
  lockRows,
  perProduct,
  readCounts,
  releaseHeld,
  releaseHeldAll,
  returnSold,
  takeHeld,
  takeHeldAll,
  takeSold,
} from './ledger.js';
import type { StockCounts, UnitLine } from './ledger.js';

/**
 * An order's hold (stock_holds, one row per order) and what its state means for the stock rows:
 *
 *   held       the order's lines are counted in `held` until expires_at (ms)
 *   committed  paid: counted in `sold`
 *   released   its hold ran out (the sweep) or was given up: counted nowhere
 *   short      paid after its hold ran out, when its units were gone: counted nowhere; the order waits
 *              for staff as needs_review
 *   returned   refunded with 'back in stock': its units left `sold`
 *
 * Every move from one state to another is `UPDATE stock_holds SET state = … WHERE order_id = ? AND state
 * = …`, so of a payment, the sweep and a cart change racing over one hold exactly one moves it, and only
 * that one changes the stock rows, in the same transaction. The units are the order's own lines
 * (order_lines), which change only together with its hold.
 */

export type HoldState = 'held' | 'released' | 'committed' | 'short' | 'returned';

export interface NamedLine extends UnitLine {
  name: string;
}

export interface OrderRef {
  id: string;
  storeId: number;
}

/** 'Only 2 Projector XGA left; your cart has 3.' per short line; the words the web shows are its own. */
export function shortMessage(lines: readonly StockShortLine[]): string {
  return lines
    .map((line) =>
      line.left === 0
        ? `${line.name} is sold out; your cart has ${line.requested}.`
        : `Only ${line.left} ${line.name} left; your cart has ${line.requested}.`,
    )
    .join(' ');
}

/** 409 stock_short: a line asks for more than is left; nothing was held. */
export class StockShortError extends AppError {
  constructor(readonly lines: StockShortLine[]) {
    super(409, 'stock_short', shortMessage(lines));
    this.name = 'StockShortError';
  }

  toJSON(): { error: { code: 'stock_short'; message: string; lines: StockShortLine[] } } {
    return { error: { code: 'stock_short', message: this.message, lines: this.lines } };
  }
}

/** Thrown inside a transaction when a conditional update found too few units: the transaction rolls back. */
export class StockShortSignal extends Error {
  constructor(readonly productId: number) {
    super(`stock short for product ${productId}`);
    this.name = 'StockShortSignal';
  }
}

async function moved(
  db: Database,
  sql: string,
  replacements: Record<string, unknown>,
  transaction: Transaction,
): Promise<boolean> {
  const rows = await db.sequelize.query(sql, { replacements, type: QueryTypes.SELECT, transaction });
  return rows.length > 0;
}

/** The order's lines as they stand in the transaction. */
export async function orderUnits(
  db: Database,
  orderId: string,
  transaction?: Transaction,
): Promise<NamedLine[]> {
  const rows = await db.sequelize.query<{
    product_id: number | string;
    quantity: number | string;
    name: string;
  }>('SELECT product_id, quantity, name FROM order_lines WHERE order_id = :orderId ORDER BY product_id, id', {
    replacements: { orderId },
    type: QueryTypes.SELECT,
    transaction: transaction ?? null,
  });
  return rows.map((r) => ({ productId: Number(r.product_id), quantity: Number(r.quantity), name: r.name }));
}

async function writeHold(
  db: Database,
  order: OrderRef,
  state: HoldState,
  expiresAt: number,
  reason: string | null,
  transaction: Transaction,
): Promise<void> {
  await db.sequelize.query(
    `INSERT INTO stock_holds (order_id, store_id, state, expires_at, reason)
     VALUES (:orderId, :storeId, :state, :expiresAt, :reason)
     ON CONFLICT (order_id) DO UPDATE
       SET state = excluded.state, expires_at = excluded.expires_at, reason = excluded.reason`,
    { replacements: { orderId: order.id, storeId: order.storeId, state, expiresAt, reason }, transaction },
  );
}

/**
 * Holds `lines` for the order until `expiresAt` (ms), replacing the hold it had: in the caller's
 * transaction, before the order's lines are replaced. The old hold is claimed first (only a hold still
 * 'held' counts), then each product moves by the difference: up only when the units are left, else
 * StockShortSignal and the caller's transaction rolls back with nothing held. A new order has no hold to
 * replace: holdNewOrders.
 */
export async function holdOrder(
  db: Database,
  order: OrderRef,
  lines: readonly UnitLine[],
  expiresAt: number,
  transaction: Transaction,
): Promise<void> {
  const hadHold = await moved(
    db,
    `UPDATE stock_holds SET state = 'released' WHERE order_id = :orderId AND state = 'held' RETURNING order_id`,
    { orderId: order.id },
    transaction,
  );
  const before = new Map(
    (hadHold ? perProduct(await orderUnits(db, order.id, transaction)) : []).map((l) => [
      l.productId,
      l.quantity,
    ]),
  );
  const wanted = perProduct(lines);
  const after = new Map(wanted.map((l) => [l.productId, l.quantity]));
  await ensureRows(
    db,
    order.storeId,
    wanted.map((l) => l.productId),
    transaction,
  );
  const productIds = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b);
  for (const productId of productIds) {
    const change = (after.get(productId) ?? 0) - (before.get(productId) ?? 0);
    if (change > 0) {
      if (!(await takeHeld(db, order.storeId, { productId, quantity: change }, transaction))) {
        throw new StockShortSignal(productId);
      }
    } else if (change < 0) {
      await releaseHeld(db, order.storeId, { productId, quantity: -change }, transaction);
    }
  }
  await writeHold(db, order, 'held', expiresAt, null, transaction);
}

export interface NewHold {
  order: OrderRef;
  lines: readonly UnitLine[];
}

/**
 * The units of new orders (no hold to replace), taken in the caller's transaction first come first
 * served, and for each order all of its lines or none. Answers, for each order that was short, the first
 * product whose units were not left; the caller writes the others and their holds (writeHolds), and no
 * trace of the short ones.
 *
 * One statement per store first asks for every order's units at once (takeHeldAll of the sums): when the
 * sums fit, so does each order, in any order, and that is the whole of it. When a product would pass its
 * limit, what that statement took is given back and the store's orders ask one by one, in turn: each
 * order's lines in one statement, and what it took of a short order given back at once. On PostgreSQL the
 * first statement has locked the store's rows in product id order; a batch with several stores locks
 * every store's rows first, stores in id order, so two transactions never wait for each other in a
 * circle.
 */
export async function holdNewOrders(
  db: Database,
  holds: readonly NewHold[],
  transaction: Transaction,
): Promise<Map<string, number>> {
  const byStore = new Map<number, NewHold[]>();
  for (const hold of holds)
    byStore.set(hold.order.storeId, [...(byStore.get(hold.order.storeId) ?? []), hold]);
  const stores = [...byStore].sort((a, b) => a[0] - b[0]);
  if (stores.length > 1 && db.dialect === 'postgres') {
    for (const [storeId, storeHolds] of stores) {
      const ids = storeHolds.flatMap((h) => h.lines.map((l) => l.productId));
      await ensureRows(db, storeId, ids, transaction);
      await lockRows(db, storeId, ids, transaction);
    }
  }
  const short = new Map<string, number>();
  for (const [storeId, storeHolds] of stores) {
    const sums = perProduct(storeHolds.flatMap((h) => h.lines));
    const taken = await takeHeldAll(db, storeId, sums, transaction);
    if (taken.size === sums.length) continue;
    await releaseHeldAll(
      db,
      storeId,
      sums.filter((l) => taken.has(l.productId)),
      transaction,
    );
    for (const { order, lines } of storeHolds) {
      const wanted = perProduct(lines);
      const mine = await takeHeldAll(db, storeId, wanted, transaction);
      if (mine.size === wanted.length) continue;
      await releaseHeldAll(
        db,
        storeId,
        wanted.filter((l) => mine.has(l.productId)),
        transaction,
      );
      short.set(order.id, wanted.find((l) => !mine.has(l.productId))!.productId);
    }
  }
  return short;
}

/** The 'held' rows of new orders whose units holdNewOrders took (the orders must be written first). */
export async function writeHolds(
  db: Database,
  holds: readonly { order: OrderRef; expiresAt: number }[],
  transaction: Transaction,
): Promise<void> {
  if (holds.length === 0) return;
  const replacements: Record<string, unknown> = {};
  const values = holds
    .map(({ order, expiresAt }, i) => {
      replacements[`o${i}`] = order.id;
      replacements[`s${i}`] = order.storeId;
      replacements[`e${i}`] = expiresAt;
      return `(:o${i}, :s${i}, 'held', :e${i}, NULL)`;
    })
    .join(', ');
  await db.sequelize.query(
    `INSERT INTO stock_holds (order_id, store_id, state, expires_at, reason) VALUES ${values}`,
    { replacements, transaction },
  );
}

/**
 * The lines of a cart that ask for more than is left, counting the order's own live hold as its own (a
 * buyer changing a cart competes only with others). A read for the 409's words, never for a decision.
 */
export async function shortLines(
  db: Database,
  storeId: number,
  orderId: string | null,
  lines: readonly NamedLine[],
): Promise<StockShortLine[]> {
  return (await shortOf(db, storeId, orderId, lines)).short;
}

async function shortOf(
  db: Database,
  storeId: number,
  orderId: string | null,
  lines: readonly NamedLine[],
): Promise<{ short: StockShortLine[]; limited: boolean }> {
  const counts = await readCounts(db, storeId, {
    productIds: perProduct(lines).map((l) => l.productId),
    limitedOnly: true,
  });
  const own = new Map<number, number>();
  if (orderId !== null && counts.length > 0) {
    const rows = await db.sequelize.query<{ state: string }>(
      'SELECT state FROM stock_holds WHERE order_id = :orderId',
      { replacements: { orderId }, type: QueryTypes.SELECT },
    );
    if (rows[0]?.state === 'held') {
      for (const line of perProduct(await orderUnits(db, orderId))) own.set(line.productId, line.quantity);
    }
  }
  return shortAgainst(counts, own, lines);
}

/**
 * The short lines of a cart against counts read already (limited products; others are ignored), the
 * order's own held units (`own`, by product) counted as its own.
 */
function shortAgainst(
  limitedCounts: readonly StockCounts[],
  own: ReadonlyMap<number, number>,
  lines: readonly NamedLine[],
): { short: StockShortLine[]; limited: boolean } {
  const counts = new Map(limitedCounts.map((c) => [c.productId, c]));
  const short: StockShortLine[] = [];
  let limited = false;
  for (const line of perProduct(lines)) {
    const count = counts.get(line.productId);
    if (count === undefined || count.limit === null) continue;
    limited = true;
    const left = Math.min(count.limit, Math.max(0, (leftOf(count) ?? 0) + (own.get(line.productId) ?? 0)));
    if (line.quantity > left) {
      const name = lines.find((l) => l.productId === line.productId)?.name ?? `Product ${line.productId}`;
      short.push({ productId: line.productId, name, left, requested: line.quantity });
    }
  }
  return { short, limited };
}

/** Attempts at a hold whose units were there when read but taken before the update (then it is a 409). */
const HOLD_ATTEMPTS = 3;

/**
 * Runs `attempt` (a transaction that calls holdOrder) and turns a shortage into the 409 naming every short
 * line. A shortage that the fresh read no longer shows (units freed meanwhile) is tried again.
 */
export async function withHold<T>(
  db: Database,
  storeId: number,
  orderId: string | null,
  lines: readonly NamedLine[],
  attempt: () => Promise<T>,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof StockShortSignal)) throw error;
      const short = await shortLines(db, storeId, orderId, lines);
      if (short.length > 0) throw new StockShortError(short);
      if (n >= HOLD_ATTEMPTS) {
        // Units kept coming and going under this cart: it is refused as short by at least one unit.
        const line = lines.find((l) => l.productId === error.productId);
        throw new StockShortError([
          {
            productId: error.productId,
            name: line?.name ?? `Product ${error.productId}`,
            left: Math.max(0, (line?.quantity ?? 1) - 1),
            requested: line?.quantity ?? 1,
          },
        ]);
      }
    }
  }
}

/**
 * Before anything is asked of the payment provider: a cart that cannot be held is refused at once. Answers
 * whether any line has a limit (only then does the hold mean something to the buyer).
 */
export async function assertLeft(
  db: Database,
  storeId: number,
  orderId: string | null,
  lines: readonly NamedLine[],
): Promise<boolean> {
  const { short, limited } = await shortOf(db, storeId, orderId, lines);
  if (short.length > 0) throw new StockShortError(short);
  return limited;
}

/**
 * assertLeft for a new order (no hold of its own), against the store's limited rows read already
 * (readCounts with limitedOnly): a read for a quick refusal, never for a decision (holdNewOrders decides).
 */
export function assertNewLeft(limitedCounts: readonly StockCounts[], lines: readonly NamedLine[]): boolean {
  const { short, limited } = shortAgainst(limitedCounts, new Map(), lines);
  if (short.length > 0) throw new StockShortError(short);
  return limited;
}

export type CommitOutcome = { ok: true } | { ok: false; reason: string };

/** The size of orders.review_reason. */
const REASON_MAX = 255;

/**
 * The order was just paid (in the caller's transaction, by the one caller whose UPDATE made it paid): its
 * held units become sold. A hold that had run out is taken again from what is left; when a line's units
 * are gone, nothing is taken (what this call took is put back) and the answer says why, for staff.
 */
export async function commitOnPay(
  db: Database,
  order: OrderRef,
  transaction: Transaction,
): Promise<CommitOutcome> {
  const units = await orderUnits(db, order.id, transaction);
  const lines = perProduct(units);
  const stood = await moved(
    db,
    `UPDATE stock_holds SET state = 'committed' WHERE order_id = :orderId AND state = 'held' RETURNING order_id`,
    { orderId: order.id },
    transaction,
  );
  if (stood) {
    for (const line of lines) await heldToSold(db, order.storeId, line, transaction);
    return { ok: true };
  }
  await ensureRows(
    db,
    order.storeId,
    lines.map((l) => l.productId),
    transaction,
  );
  const taken: UnitLine[] = [];
  for (const line of lines) {
    if (await takeSold(db, order.storeId, line, transaction)) {
      taken.push(line);
      continue;
    }
    for (const back of taken) await returnSold(db, order.storeId, back, transaction);
    const [count] = await readCounts(db, order.storeId, { productIds: [line.productId], transaction });
    const left = count ? (leftOf(count) ?? 0) : 0;
    const name = units.find((u) => u.productId === line.productId)?.name ?? `product ${line.productId}`;
    const reason = (
      `Paid after its hold ran out, when ${left === 0 ? 'no' : `only ${left}`} ${name} ` +
      `${left === 1 ? 'was' : 'were'} left of the ${line.quantity} ordered: not paid until staff refund it ` +
      'or raise the limit.'
    ).slice(0, REASON_MAX);
    await writeHold(db, order, 'short', 0, reason, transaction);
    return { ok: false, reason };
  }
  await writeHold(db, order, 'committed', 0, null, transaction);
  return { ok: true };
}

/**
 * Releases the order's hold if it is still held and ran out by `now` (ms): the sweep's step. Answers
 * whether this call released it (another process or a payment may have moved it first).
 */
export async function releaseExpired(
  db: Database,
  orderId: string,
  now: number,
  transaction: Transaction,
): Promise<boolean> {
  const rows = await db.sequelize.query<{ store_id: number | string }>(
    `UPDATE stock_holds SET state = 'released'
      WHERE order_id = :orderId AND state = 'held' AND expires_at <= :now
      RETURNING store_id`,
    { replacements: { orderId, now }, type: QueryTypes.SELECT, transaction },
  );
  const row = rows[0];
  if (row === undefined) return false;
  for (const line of perProduct(await orderUnits(db, orderId, transaction))) {
    await releaseHeld(db, Number(row.store_id), line, transaction);
  }
  return true;
}

/**
 * A refund with 'back in stock': the paid order's units leave `sold`, once however many refunds ask.
 * Answers the lines returned (empty when they were already returned, or never counted as sold).
 */
export async function returnToStock(
  db: Database,
  orderId: string,
  transaction: Transaction,
): Promise<NamedLine[]> {
  const rows = await db.sequelize.query<{ store_id: number | string }>(
    `UPDATE stock_holds SET state = 'returned' WHERE order_id = :orderId AND state = 'committed' RETURNING store_id`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  const row = rows[0];
  if (row === undefined) return [];
  const units = await orderUnits(db, orderId, transaction);
  for (const line of perProduct(units)) await returnSold(db, Number(row.store_id), line, transaction);
  return units;
}

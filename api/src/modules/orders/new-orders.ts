import type { Database } from '../../db/index.js';
import type { OrderCreation, OrderLineCreation } from '../../db/models/index.js';
import { holdNewOrders, StockShortSignal, writeHolds } from '../stock/holds.js';
import type { UnitLine } from '../stock/ledger.js';

/**
 * New orders are written in batches (issue #34 part 4). Each order's write is a transaction of its own
 * rows, its lines and its hold, and with SQLite one writer at a time those transactions queued one behind
 * the other: under 50 connections an intent spent most of its time waiting for the writes ahead of it, each
 * of them several round trips to the database. So the orders that arrive while one write is under way go
 * together in the next: one transaction, each order's units taken in turn as they arrived (stock/holds.ts
 * holdNewOrders), then every order that got its units with its lines and its hold in one statement each.
 * An order still never exists without its lines and hold, nor a hold without its order: they commit
 * together or not at all. An order whose units were not left gets StockShortSignal, as from its own
 * transaction, and nothing of it is written. Should a batch fail for any other reason, its orders are
 * written again one by one, so one order's failure is only ever its own. With nothing under way an order
 * is written at once: no waiting for company.
 */

export interface NewOrder {
  order: OrderCreation & { id: string; storeId: number };
  lines: OrderLineCreation[];
  /** The units to hold, and until when (ms). */
  hold: { lines: readonly UnitLine[]; expiresAt: number };
}

/** Orders in one transaction at most: a bound on how long one write holds the database. */
export const MAX_ORDERS_PER_WRITE = 64;

interface Waiting {
  order: NewOrder;
  resolve: () => void;
  reject: (error: unknown) => void;
}

class NewOrderWriter {
  private readonly waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly db: Database) {}

  write(order: NewOrder): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ order, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) await this.writeBatch(this.waiting.splice(0, MAX_ORDERS_PER_WRITE));
    } finally {
      this.writing = false;
    }
  }

  /** Settles every order of the batch; never throws. */
  private async writeBatch(batch: Waiting[]): Promise<void> {
    let short: Map<string, number>;
    try {
      short = await writeOrders(
        this.db,
        batch.map((w) => w.order),
      );
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else for (const one of batch) await this.writeBatch([one]);
      return;
    }
    for (const { order, resolve, reject } of batch) {
      const productId = short.get(order.order.id);
      if (productId === undefined) resolve();
      else reject(new StockShortSignal(productId));
    }
  }
}

/** The orders, their lines and holds in one transaction; answers the short ones (order id → product). */
async function writeOrders(db: Database, orders: readonly NewOrder[]): Promise<Map<string, number>> {
  const { Order, OrderLine } = db.models;
  return db.sequelize.transaction(async (transaction) => {
    const refOf = ({ order }: NewOrder) => ({ id: order.id, storeId: order.storeId });
    const short = await holdNewOrders(
      db,
      orders.map((o) => ({ order: refOf(o), lines: o.hold.lines })),
      transaction,
    );
    const kept = orders.filter((o) => !short.has(o.order.id));
    if (kept.length > 0) {
      // Validated like Order.create() validates, which sets the times before it validates.
      const at = new Date();
      await Order.bulkCreate(
        kept.map((o) => ({ ...o.order, createdAt: at, updatedAt: at })),
        { transaction, validate: true },
      );
      await OrderLine.bulkCreate(
        kept.flatMap((o) => o.lines),
        { transaction, validate: true },
      );
      await writeHolds(
        db,
        kept.map((o) => ({ order: refOf(o), expiresAt: o.hold.expiresAt })),
        transaction,
      );
    }
    return short;
  });
}

const writers = new WeakMap<Database, NewOrderWriter>();

/**
 * Writes a new order with its lines and its hold, together with whatever other new orders are waiting
 * (see above). Rejects with StockShortSignal when its units were not left (nothing of it written).
 */
export function writeNewOrder(db: Database, order: NewOrder): Promise<void> {
  let writer = writers.get(db);
  if (writer === undefined) {
    writer = new NewOrderWriter(db);
    writers.set(db, writer);
  }
  return writer.write(order);
}

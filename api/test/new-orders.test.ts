import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { afterEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/db/seed-demo.js';
import { writeNewOrder } from '../src/modules/orders/new-orders.js';
import type { NewOrder } from '../src/modules/orders/new-orders.js';
import { StockShortSignal } from '../src/modules/stock/holds.js';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';
import { DIALECTS } from './helpers/env.js';
import type { TestDialect } from './helpers/env.js';
import { countsOf } from './helpers/stock.js';

/**
 * New orders written together (orders/new-orders.ts, issue #34 part 4), against a real database: orders
 * asked for at once go in one transaction, take their units first come first served and each all or
 * nothing, a short one leaves no trace, and a batch that fails for another reason fails only the order
 * that caused it. The first order of a burst is written alone (nothing was under way), the rest together.
 */

let t: TestDatabase | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

async function start(dialect: TestDialect) {
  t = await openTestDatabase(dialect);
  await seedDemo(t.db, { timeZone: t.config.TZ_STORE });
  const store = await t.db.models.Store.findOne({ where: { slug: 'demo-expo' }, rejectOnEmpty: true });
  const prices = await t.db.models.StorePrice.findAll({
    where: { storeId: store.id },
    order: [['id', 'ASC']],
  });
  const [a, b] = prices.map((p) => p.productId);
  return { db: t.db, storeId: store.id, a: a!, b: b! };
}

function orderOf(storeId: number, cart: Record<number, number>, id: string = randomUUID()): NewOrder {
  const lines = Object.entries(cart).map(([productId, quantity]) => ({
    orderId: id,
    productId: Number(productId),
    name: `Product ${productId}`,
    unitAmount: 1000,
    quantity,
    lineTotal: 1000 * quantity,
  }));
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  return {
    order: {
      id,
      storeId,
      status: 'pending',
      accessTokenHash: 'a'.repeat(64),
      gateway: 'test-gateway',
      gatewayIntentId: `tgpi_${id}`,
      customer: {},
      email: '',
      subtotal,
      discount: 0,
      fee: 0,
      total: subtotal,
      currency: 'usd',
      earlyBird: false,
    },
    lines,
    hold: { lines: lines.map((l) => ({ productId: l.productId, quantity: l.quantity })), expiresAt: 1 },
  };
}

async function setLimit(t: TestDatabase, storeId: number, productId: number, limit: number) {
  await t.db.sequelize.query(
    `INSERT INTO stock (store_id, product_id, stock_limit, held, sold) VALUES (:storeId, :productId, :limit, 0, 0)`,
    { replacements: { storeId, productId, limit } },
  );
}

/** What each write came to: 'written', 'short <product>', or the error's name. */
function outcomes(writes: Promise<void>[]) {
  return Promise.all(
    writes.map((w) =>
      w.then(
        () => 'written',
        (error: unknown) =>
          error instanceof StockShortSignal ? `short ${error.productId}` : (error as Error).name,
      ),
    ),
  );
}

/** The order as stored: its lines' units by product, and its hold's state (null: no order at all). */
async function stored(t: TestDatabase, orderId: string) {
  const order = await t.db.models.Order.findByPk(orderId);
  if (!order) return null;
  const lines = await t.db.models.OrderLine.findAll({ where: { orderId } });
  const holds = await t.db.sequelize.query<{ state: string }>(
    'SELECT state FROM stock_holds WHERE order_id = :orderId',
    { replacements: { orderId }, type: QueryTypes.SELECT },
  );
  return {
    total: order.total,
    units: Object.fromEntries(lines.map((l) => [l.productId, l.quantity])),
    hold: holds[0]?.state ?? null,
  };
}

describe.each(DIALECTS)('new orders written together on %s', (dialect) => {
  it('takes units first come first served, each order all or nothing, and writes nothing of a short one', async () => {
    const { storeId, a, b } = await start(dialect);
    await setLimit(t!, storeId, a, 3);
    const orders = [
      orderOf(storeId, { [a]: 1, [b]: 1 }), // alone: nothing was under way
      orderOf(storeId, { [a]: 2 }), // the batch from here: its sum of a (4) is past the 2 left
      orderOf(storeId, { [a]: 1, [b]: 5 }), // short of a: its b is not held either
      orderOf(storeId, { [b]: 2 }),
      orderOf(storeId, { [a]: 1 }), // short
    ];
    expect(await outcomes(orders.map((o) => writeNewOrder(t!.db, o)))).toEqual([
      'written',
      'written',
      `short ${a}`,
      'written',
      `short ${a}`,
    ]);
    expect(await countsOf(t!.db, storeId, a)).toEqual({ limit: 3, held: 3, sold: 0 });
    expect(await countsOf(t!.db, storeId, b)).toEqual({ limit: null, held: 3, sold: 0 });
    expect(await stored(t!, orders[0]!.order.id)).toEqual({
      total: 2000,
      units: { [a]: 1, [b]: 1 },
      hold: 'held',
    });
    expect(await stored(t!, orders[1]!.order.id)).toEqual({ total: 2000, units: { [a]: 2 }, hold: 'held' });
    expect(await stored(t!, orders[2]!.order.id)).toBeNull();
    expect(await stored(t!, orders[3]!.order.id)).toEqual({ total: 2000, units: { [b]: 2 }, hold: 'held' });
    expect(await stored(t!, orders[4]!.order.id)).toBeNull();
    expect(await t!.db.models.Order.count()).toBe(3);
  });

  it('holds a whole batch at once when its units fit, limits or none', async () => {
    const { storeId, a, b } = await start(dialect);
    await setLimit(t!, storeId, a, 40);
    const orders = Array.from({ length: 20 }, (_, i) => orderOf(storeId, { [a]: 2, [b]: i + 1 }));
    expect(new Set(await outcomes(orders.map((o) => writeNewOrder(t!.db, o))))).toEqual(new Set(['written']));
    expect(await countsOf(t!.db, storeId, a)).toEqual({ limit: 40, held: 40, sold: 0 });
    expect(await countsOf(t!.db, storeId, b)).toEqual({ limit: null, held: 210, sold: 0 });
    for (const o of orders) expect((await stored(t!, o.order.id))?.hold).toBe('held');
  });

  it('fails only the order that breaks a batch, and writes its neighbours one by one', async () => {
    const { storeId, a, b } = await start(dialect);
    const taken = orderOf(storeId, { [b]: 1 });
    await writeNewOrder(t!.db, taken);
    const orders = [
      orderOf(storeId, { [a]: 1 }),
      orderOf(storeId, { [a]: 2 }),
      orderOf(storeId, { [b]: 4 }, taken.order.id), // the same id again: its INSERT fails
      orderOf(storeId, { [a]: 3 }),
    ];
    const results = await outcomes(orders.map((o) => writeNewOrder(t!.db, o)));
    expect(results).toEqual(['written', 'written', 'SequelizeUniqueConstraintError', 'written']);
    expect(await countsOf(t!.db, storeId, a)).toEqual({ limit: null, held: 6, sold: 0 });
    // The failed order's units went back with its transaction; the first order of that id is untouched.
    expect(await countsOf(t!.db, storeId, b)).toEqual({ limit: null, held: 1, sold: 0 });
    expect(await stored(t!, taken.order.id)).toEqual({ total: 1000, units: { [b]: 1 }, hold: 'held' });
  });
});

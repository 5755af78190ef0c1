import type { PublicStore, StaffOrderDetail, StockShortError } from '@avp/shared';
import fc from 'fast-check';
import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDown, migrateUp } from '../src/db/index.js';
import { claimSweep, releaseExpiredHolds } from '../src/modules/stock/index.js';
import { startPeerApp, startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import type { TestDialect } from './helpers/env.js';
import { countsOf, holdRunsOut, holdState, setLimit, staffBrowser, storeKeyOf } from './helpers/stock.js';
import type { StockTableJson } from './helpers/stock.js';
import { customerFor, Exhibitor, seeded } from './helpers/store.js';
import type { IntentJson } from './helpers/store.js';
import { StripeStandIn, stripeEvent } from './helpers/stripe-stand-in.js';

/**
 * Stock per store and product (issue #32) through the HTTP API against a real database: what the store
 * page shows, holds taken and replaced, the 409 that names short lines, the sweep, payment (test gateway,
 * Stripe's confirm and webhook), paid-after-expiry with the units gone, refunds back in stock, and the
 * staff table's edits with their validation and audit.
 */

const WEBHOOK_SECRET = 'whsec_stock_0123456789abcdef';
const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_stock0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_stock0123456789',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};

let t: TestApp | undefined;
let standIn: StripeStandIn | undefined;
afterEach(async () => {
  await t?.close();
  await standIn?.stop();
  t = undefined;
  standIn = undefined;
});

type StoreAnswer = { store: PublicStore };
type Intent = IntentJson & { holdExpiresAt: string | null } & StockShortError;

async function start(dialect: TestDialect, env: Record<string, string> = {}) {
  if (env.STRIPE_SECRET_KEY) {
    standIn = await new StripeStandIn().start();
    env = { ...env, STRIPE_API_URL: standIn.url };
  }
  t = await startTestApp({ dialect, env });
  await seeded(t);
  const staff = await staffBrowser(t);
  const storeKey = await storeKeyOf(t.db);
  const exhibitor = new Exhibitor(t);
  const store = (await exhibitor.get<StoreAnswer>('/api/stores/demo-expo')).body.store;
  return { app: t, staff, storeKey, store, product: store.products[0]!, other: store.products[1]! };
}

async function stockOf(app: TestApp, productId: number) {
  const { body } = await new Exhibitor(app).get<StoreAnswer>('/api/stores/demo-expo');
  return body.store.products.find((p) => p.id === productId)!.stock;
}

/** Creates an order for the cart and submits it with the customer info: its hold as the payment page has it. */
async function submitted(app: TestApp, store: PublicStore, cart: { productId: number; count: number }[]) {
  const exhibitor = new Exhibitor(app);
  const created = await exhibitor.post<Intent>('/api/stores/demo-expo/payment-intents', { cart });
  if (created.status !== 201) return { exhibitor, created, intent: created.body };
  const updated = await exhibitor.put<Intent>(
    `/api/orders/${created.body.orderId}`,
    { cart, customer: customerFor(store) },
    { 'x-order-token': created.body.token },
  );
  expect(updated.status).toBe(200);
  return { exhibitor, created, updated, intent: created.body };
}

function refund(staff: TestBrowser, orderId: string, body: Record<string, unknown>) {
  return staff.post<{ order: StaffOrderDetail } & StockTableJson>(
    `/api/staff/orders/${orderId}/refunds`,
    body,
  );
}

describe.each(DIALECTS)('stock on %s', (dialect) => {
  it('shows units left, holds a cart (its own hold counts as its own), refuses a short cart naming the lines, and sells on payment', async () => {
    const { app, staff, storeKey, store, product, other } = await start(dialect);
    expect(store.products.every((p) => p.stock === null)).toBe(true);

    const rows = await setLimit(staff, storeKey, product.id, 3);
    expect(rows.find((r) => r.productId === product.id)).toEqual({
      productId: product.id,
      name: product.name,
      limit: 3,
      held: 0,
      sold: 0,
      left: 3,
    });
    expect(rows.find((r) => r.productId === other.id)).toMatchObject({ limit: null, left: null });
    expect(await stockOf(app, product.id)).toEqual({ left: 3, low: true });
    expect(await stockOf(app, other.id)).toBeNull();

    const before = Date.now();
    const first = await submitted(app, store, [
      { productId: product.id, count: 2 },
      { productId: other.id, count: 5 },
    ]);
    expect(first.created.status).toBe(201);
    const expires = Date.parse(first.updated!.body.holdExpiresAt!);
    expect(expires).toBeGreaterThanOrEqual(before + 20 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 20 * 60_000);
    expect(await stockOf(app, product.id)).toEqual({ left: 1, low: true });
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 3, held: 2, sold: 0 });

    // Someone else asks for 2 of the 1 left: 409 naming the line, and nothing is held or ordered.
    const orders = await app.db.models.Order.count();
    const second = await submitted(app, store, [{ productId: product.id, count: 2 }]);
    expect(second.created.status).toBe(409);
    expect(second.created.body).toEqual({
      error: {
        code: 'stock_short',
        message: `Only 1 ${product.name} left; your cart has 2.`,
        lines: [{ productId: product.id, name: product.name, left: 1, requested: 2 }],
      },
    });
    expect(await app.db.models.Order.count()).toBe(orders);
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 3, held: 2, sold: 0 });

    // The first buyer raises the cart to 3: its own 2 count as its own, so 3 fit; then 4 do not.
    const cart3 = [{ productId: product.id, count: 3 }];
    const raised = await first.exhibitor.updateIntent(first.intent, {
      cart: cart3,
      customer: customerFor(store),
    });
    expect(raised.status).toBe(200);
    expect(await stockOf(app, product.id)).toEqual({ left: 0, low: true });
    const tooMany = await first.exhibitor.updateIntent(first.intent, {
      cart: [{ productId: product.id, count: 4 }],
      customer: customerFor(store),
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.message).toBe(`Only 3 ${product.name} left; your cart has 4.`);
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 3, held: 3, sold: 0 });
    // Sold out for everyone else.
    const soldOut = await submitted(app, store, [{ productId: product.id, count: 1 }]);
    expect(soldOut.created.body.error.message).toBe(`${product.name} is sold out; your cart has 1.`);

    // Lowered to 1: the hold gives 2 back; paid: the 1 is sold.
    expect(
      (
        await first.exhibitor.updateIntent(first.intent, {
          cart: [{ productId: product.id, count: 1 }],
          customer: customerFor(store),
        })
      ).status,
    ).toBe(200);
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 3, held: 1, sold: 0 });
    expect((await first.exhibitor.pay(first.intent)).body.status).toBe('paid');
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 3, held: 0, sold: 1 });
    expect(await holdState(app.db, first.intent.orderId)).toBe('committed');
    expect(await stockOf(app, product.id)).toEqual({ left: 2, low: true });

    // An unlimited product's intent says no hold time.
    const free = await submitted(app, store, [{ productId: other.id, count: 1 }]);
    expect(free.created.body.holdExpiresAt).toBeNull();
  });

  it('releases expired holds by the sweep (once across processes); a payment after expiry takes units that are left, else waits for staff with the reason', async () => {
    const { app, staff, storeKey, store, product } = await start(dialect);
    await setLimit(staff, storeKey, product.id, 3);
    const cart = (count: number) => [{ productId: product.id, count }];

    const a = await submitted(app, store, cart(2));
    await holdRunsOut(app.db, a.intent.orderId);
    // Two processes' timers at once: one claims the sweep, the other finds it taken.
    const now = Date.now();
    expect([
      await claimSweep(app.db, 'one', 30_000, now),
      await claimSweep(app.db, 'two', 30_000, now),
    ]).toEqual([true, false]);
    expect(await releaseExpiredHolds({ db: app.db, logger: app.logger })).toBe(1);
    expect(await releaseExpiredHolds({ db: app.db, logger: app.logger })).toBe(0);
    expect(await holdState(app.db, a.intent.orderId)).toBe('released');
    expect(await stockOf(app, product.id)).toEqual({ left: 3, low: true });

    // B takes 2 of the 3; A pays for its 2 after its hold ran out: only 1 left, so A is not paid.
    const b = await submitted(app, store, cart(2));
    const late = await a.exhibitor.pay(a.intent);
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ status: 'needs_review', confirmation: null });
    const detail = await staff.get<{ order: StaffOrderDetail }>(`/api/staff/orders/${a.intent.orderId}`);
    expect(detail.body.order.status).toBe('needs_review');
    expect(detail.body.order.review?.reason).toBe(
      `Paid after its hold ran out, when only 1 ${product.name} was left of the 2 ordered: not paid until staff refund it or raise the limit.`,
    );
    expect(await app.db.models.MailOutbox.count()).toBe(0);
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 3, held: 2, sold: 0 });
    const audit = await app.db.models.AuditLog.findOne({ where: { action: 'order_stock_review' } });
    expect(audit).toMatchObject({ entityId: a.intent.orderId, after: { status: 'needs_review' } });

    // B's hold ran out but was not swept yet: its units are still its own when it pays.
    await holdRunsOut(app.db, b.intent.orderId);
    expect((await b.exhibitor.pay(b.intent)).body.status).toBe('paid');
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 3, held: 0, sold: 2 });

    // C's hold ran out and was swept; the unit is still there when C pays: sold.
    const c = await submitted(app, store, cart(1));
    await holdRunsOut(app.db, c.intent.orderId);
    expect(await releaseExpiredHolds({ db: app.db, logger: app.logger })).toBe(1);
    expect((await c.exhibitor.pay(c.intent)).body.status).toBe('paid');
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 3, held: 0, sold: 3 });
    expect(await stockOf(app, product.id)).toEqual({ left: 0, low: true });
  });

  it('sells held units when Stripe confirms (browser and webhook alike), once', async () => {
    const { app, staff, storeKey, store, product } = await start(dialect, STRIPE_KEYS);
    await setLimit(staff, storeKey, product.id, 4);
    const cart = [{ productId: product.id, count: 2 }];

    const viaConfirm = await submitted(app, store, cart);
    standIn!.succeed(viaConfirm.intent.intentID);
    expect((await viaConfirm.exhibitor.confirm(viaConfirm.intent)).body.status).toBe('paid');
    expect((await viaConfirm.exhibitor.confirm(viaConfirm.intent)).body.status).toBe('paid');

    const viaHook = await submitted(app, store, cart);
    const paid = standIn!.succeed(viaHook.intent.intentID);
    const payload = stripeEvent('evt_stock_1', 'payment_intent.succeeded', paid);
    const deliver = () =>
      app.request('/api/webhooks/stripe', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        },
        body: payload,
      });
    expect(await (await deliver()).json()).toEqual({ received: true, outcome: 'paid' });
    expect(await (await deliver()).json()).toEqual({ received: true, outcome: 'duplicate_event' });
    expect((await viaHook.exhibitor.confirm(viaHook.intent)).body.status).toBe('paid');
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 4, held: 0, sold: 4 });
  });

  it('puts a refunded order’s units back in stock when staff tick it, once; not otherwise', async () => {
    const { app, staff, storeKey, store, product, other } = await start(dialect);
    await setLimit(staff, storeKey, product.id, 5);
    const order = await submitted(app, store, [
      { productId: product.id, count: 2 },
      { productId: other.id, count: 1 },
    ]);
    expect((await order.exhibitor.pay(order.intent)).body.status).toBe('paid');
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 5, held: 0, sold: 2 });
    const id = order.intent.orderId;

    const plain = await refund(staff, id, { amount: 100, reason: 'Late delivery', key: 'stock-refund-1' });
    expect(plain.status).toBe(201);
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 5, held: 0, sold: 2 });

    const bad = await refund(staff, id, {
      amount: 100,
      reason: 'x',
      key: 'stock-refund-2',
      backInStock: 'yes',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ backInStock: 'backInStock is true or false.' });

    const back = await refund(staff, id, {
      amount: 100,
      reason: 'Cancelled',
      key: 'stock-refund-3',
      backInStock: true,
    });
    expect(back.status).toBe(201);
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 5, held: 0, sold: 0 });
    expect(await countsOf(app.db, storeKey, other.id)).toEqual({ limit: null, held: 0, sold: 0 });
    expect(await stockOf(app, product.id)).toEqual({ left: 5, low: true });
    const entry = await app.db.models.AuditLog.findOne({
      where: { action: 'order_refund', entityId: id },
      order: [['id', 'DESC']],
    });
    expect(entry?.after).toMatchObject({
      back_in_stock: [
        { product: product.name, quantity: 2 },
        { product: other.name, quantity: 1 },
      ].sort((x, y) => (x.product < y.product ? -1 : 1)),
    });

    // A second refund ticked 'back in stock' finds the units already back.
    const again = await refund(staff, id, {
      amount: 100,
      reason: 'More',
      key: 'stock-refund-4',
      backInStock: true,
    });
    expect(again.status).toBe(201);
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 5, held: 0, sold: 0 });
  });

  it('lets staff set, refuse and clear limits, in words, audited; the pull sheet shows held beside paid', async () => {
    const { app, staff, storeKey, store, product } = await start(dialect);
    const put = (productId: number, body: unknown, key = storeKey) =>
      staff.put<StockTableJson>(`/api/staff/stores/${key}/stock/${productId}`, body);
    const invalid = 'Enter a whole number from 0 to 100,000, or leave it blank for unlimited.';
    for (const limit of [-1, 1.5, 100_001, 'ten', undefined]) {
      const res = await put(product.id, { limit });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: 'validation_failed',
        message: invalid,
        fields: { limit: invalid },
      });
    }
    expect((await put(999_999, { limit: 1 })).status).toBe(404);
    expect((await put(product.id, { limit: 1 }, 999_999)).status).toBe(404);
    expect((await put(product.id, { limit: 100_000 })).status).toBe(200);

    await setLimit(staff, storeKey, product.id, 4);
    const paid = await submitted(app, store, [{ productId: product.id, count: 1 }]);
    await paid.exhibitor.pay(paid.intent);
    await submitted(app, store, [{ productId: product.id, count: 2 }]);
    const below = await put(product.id, { limit: 2 });
    expect(below.status).toBe(409);
    const words = 'The limit cannot be below the 3 units already sold or held (1 sold, 2 held).';
    expect(below.body.error).toEqual({
      code: 'stock_limit_below_taken',
      message: words,
      fields: { limit: words },
    });
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: 4, held: 2, sold: 1 });

    const table = await staff.get<StockTableJson>(`/api/staff/stores/${storeKey}/stock`);
    expect(table.body.rows.find((r) => r.productId === product.id)).toEqual({
      productId: product.id,
      name: product.name,
      limit: 4,
      held: 2,
      sold: 1,
      left: 1,
    });
    expect(table.body.rows.map((r) => r.productId)).toEqual(store.products.map((p) => p.id));

    const sheet = await staff.get<{
      days: { items: { product_id: number; quantity: number; paid: number; held: number }[] }[];
    }>(`/api/staff/stores/${storeKey}/pull-sheet`);
    expect(sheet.body.days[0]?.items.find((i) => i.product_id === product.id)).toMatchObject({
      quantity: 1,
      paid: 1,
      held: 2,
    });

    await setLimit(staff, storeKey, product.id, 3);
    await setLimit(staff, storeKey, product.id, null);
    expect(await stockOf(app, product.id)).toBeNull();
    const audit = await app.db.models.AuditLog.findAll({
      where: { action: 'stock_limit_update' },
      order: [['id', 'ASC']],
    });
    expect(audit.map((e) => [e.before?.limit, e.after?.limit])).toEqual([
      [null, 100_000],
      [100_000, 4],
      [4, 3],
      [3, null],
    ]);
    expect(audit[0]).toMatchObject({ entityId: String(product.id), storeId: storeKey });
  });

  it('shows units left fresh on every process: a hold made through one is seen by the next request to another, never a stale 304', async () => {
    const { app, staff, storeKey, store, product } = await start(dialect);
    const peer = await startPeerApp(app);
    try {
      const other = new TestBrowser(peer.url);
      await setLimit(staff, storeKey, product.id, 4);
      const first = await other.get<StoreAnswer>('/api/stores/demo-expo');
      const etag = first.headers.get('etag')!;
      expect(first.body.store.products.find((p) => p.id === product.id)!.stock).toEqual({
        left: 4,
        low: true,
      });
      expect((await other.get('/api/stores/demo-expo', { 'if-none-match': etag })).status).toBe(304);

      // Held through the first process; the peer's held page (same store version) must not be served.
      expect((await submitted(app, store, [{ productId: product.id, count: 3 }])).created.status).toBe(201);
      const after = await other.get<StoreAnswer>('/api/stores/demo-expo', { 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(after.body.store.products.find((p) => p.id === product.id)!.stock).toEqual({
        left: 1,
        low: true,
      });
    } finally {
      await peer.close();
    }
  });

  it('answers any body or address on the staff stock calls in words, never a 500 (fast-check)', async () => {
    const { staff, storeKey, product } = await start(dialect);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.jsonValue(), fc.record({ limit: fc.jsonValue() })),
        fc.constantFrom(String(product.id), '0', '-1', '1e3', 'x', '99999999999', '%00'),
        async (body, productKey) => {
          const res = await staff.put<StockTableJson>(
            `/api/staff/stores/${storeKey}/stock/${productKey}`,
            body,
          );
          expect([200, 400, 404, 409]).toContain(res.status);
          if (res.status !== 200) expect(res.body.error.message).toMatch(/\.$/);
        },
      ),
      { numRuns: 40 },
    );
    expect((await staff.get<StockTableJson>(`/api/staff/stores/x/stock`)).status).toBe(404);
  });

  it('migration 0010 counts orders paid before it as sold, with holds a refund can return; down() removes its tables', async () => {
    const { app, store, product } = await start(dialect);
    const paid = await submitted(app, store, [{ productId: product.id, count: 2 }]);
    expect((await paid.exhibitor.pay(paid.intent)).body.status).toBe('paid');
    // Back to before 0010 (later migrations first), then up again.
    expect((await migrateDown(app.db, '0010-stock')).at(-1)).toBe('0010-stock');
    for (const table of ['stock', 'stock_holds', 'stock_sweeps']) {
      await expect(app.db.sequelize.query(`SELECT 1 FROM ${table}`)).rejects.toThrow();
    }
    expect(await migrateUp(app.db)).toContain('0010-stock');
    const storeKey = await storeKeyOf(app.db);
    expect(await countsOf(app.db, storeKey, product.id)).toEqual({ limit: null, held: 0, sold: 2 });
    expect(await holdState(app.db, paid.intent.orderId)).toBe('committed');
  });

  it('keeps sold + held within the limit even against a direct write (the CHECK constraint)', async () => {
    const { app, staff, storeKey, product } = await start(dialect);
    await setLimit(staff, storeKey, product.id, 2);
    /** The database's own words for a refused write (Sequelize wraps SQLite's as a 'Validation error'). */
    const refusal = async (sql: string) => {
      try {
        await app.db.sequelize.query(sql, { replacements: { s: storeKey, p: product.id } });
      } catch (error) {
        const cause = (error as { original?: Error; parent?: Error }).original ?? (error as Error);
        return cause.message;
      }
      return 'accepted';
    };
    const check = /stock_counts_within_limit|CHECK constraint failed/;
    expect(await refusal('UPDATE stock SET held = 3 WHERE store_id = :s AND product_id = :p')).toMatch(check);
    expect(
      await refusal('UPDATE stock SET sold = 2, held = 1 WHERE store_id = :s AND product_id = :p'),
    ).toMatch(check);
    expect(await refusal('UPDATE stock SET sold = -1 WHERE store_id = :s AND product_id = :p')).toMatch(
      check,
    );
    expect(await refusal('UPDATE stock SET held = 2 WHERE store_id = :s AND product_id = :p')).toBe(
      'accepted',
    );
  });
});

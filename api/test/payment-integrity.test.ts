import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import type { StaffOrderDetail, StaffOrderSummary } from '@avp/shared';
import { sessionCookieName } from '../src/modules/accounts/index.js';
import { createSession } from '../src/modules/accounts/sessions.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { AMOUNT_MISMATCH_REASON, ORDER_FROZEN, REFUND_TOO_LARGE } from '../src/modules/orders/index.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import type { Env } from '../src/config.js';
import { customerFor, Exhibitor, seeded, VISA } from './helpers/store.js';
import type { IntentJson, StoreJson } from './helpers/store.js';
import { StripeStandIn, stripeEvent } from './helpers/stripe-stand-in.js';

/**
 * An order is paid only for what was charged. The attack: let Stripe.js confirm a small cart, then swap the
 * order's cart for a large one and have the confirmation or the webhook settle it, so the receipt and the
 * e-mail claim the large amount. Defences, each tried here through HTTP against the Stripe stand-in:
 * the cart is frozen once the buyer has confirmed; a cart change and the provider's amount change
 * together or not at all; and whatever path settles an order, one whose capture differs from its total
 * is held for staff review instead of paid, with no confirmation e-mail.
 */

const WEBHOOK_SECRET = 'whsec_integrity_0123456789abcdef';
const STRIPE_KEYS: Env = {
  STRIPE_SECRET_KEY: 'sk_test_integrity0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_integrity0123456789',
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

async function start(dialect: (typeof DIALECTS)[number], env: Env) {
  if (env.STRIPE_SECRET_KEY) standIn = await new StripeStandIn().start();
  t = await startTestApp({ dialect, env: standIn ? { ...env, STRIPE_API_URL: standIn.url } : env });
  await seeded(t);
  const exhibitor = new Exhibitor(t);
  const { body } = await exhibitor.store();
  const { user } = await upsertStaffAccount(t.db, {
    email: 'ada@example.com',
    password: 'Staff passphrase 9',
    firstName: 'Ada',
    lastName: 'Lovelace',
  });
  const { token } = await createSession(t.db, t.config, user.id, {
    ip: null,
    userAgent: null,
    via: 'cookie',
  });
  const staff = new TestBrowser(t.url);
  staff.cookies.set(sessionCookieName(t.config), token);
  return { app: t, exhibitor, staff, store: body.store };
}

const small = (store: StoreJson) => [{ productId: store.products[0]!.id, count: 1 }];
const large = (store: StoreJson) => [
  { productId: store.products[1]!.id, count: 25 },
  { productId: store.products[2]!.id, count: 25 },
];

/** Created and submitted with the small cart, as the payment page leaves it just before Stripe.js confirms. */
async function submittedSmall(exhibitor: Exhibitor, store: StoreJson): Promise<IntentJson> {
  const created = await exhibitor.createIntent({ cart: small(store) });
  expect(created.status).toBe(201);
  const updated = await exhibitor.updateIntent(created.body, {
    cart: small(store),
    customer: customerFor(store),
  });
  expect(updated.status).toBe(200);
  return { ...created.body, total: updated.body.total };
}

function deliver(app: TestApp, payload: string) {
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return app.request('/api/webhooks/stripe', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
}

async function receiptOf(exhibitor: Exhibitor, intent: IntentJson) {
  const { body } = await exhibitor.order(intent);
  return body.order as { status: string; total: number; lines: { productId: number; quantity: number }[] };
}

describe.each(DIALECTS)('payment integrity on %s', (dialect) => {
  it('refuses a cart change once Stripe.js has confirmed, leaves the order as confirmed, and pays what was charged', async () => {
    const { app, exhibitor, store } = await start(dialect, STRIPE_KEYS);
    const order = await submittedSmall(exhibitor, store);
    standIn!.succeed(order.intentID);

    const swap = await exhibitor.updateIntent(order, { cart: large(store), customer: customerFor(store) });
    expect(swap.status).toBe(409);
    expect(swap.body.error).toEqual({ code: 'order_frozen', message: ORDER_FROZEN });
    const after = await receiptOf(exhibitor, order);
    expect(after.total).toBe(order.total);
    expect(after.lines).toEqual([expect.objectContaining({ productId: store.products[0]!.id, quantity: 1 })]);

    const confirmed = await exhibitor.confirm(order);
    expect(confirmed.body).toMatchObject({ status: 'paid', paymentIntent: { amount: order.total } });
    expect(await app.db.models.MailOutbox.count()).toBe(1);
  });

  it('freezes the cart while the payment is processing too', async () => {
    const { exhibitor, store } = await start(dialect, STRIPE_KEYS);
    const order = await submittedSmall(exhibitor, store);
    standIn!.processing(order.intentID);
    const swap = await exhibitor.updateIntent(order, { cart: large(store), customer: customerFor(store) });
    expect(swap.status).toBe(409);
    expect(swap.body.error.code).toBe('order_frozen');
    expect(standIn!.intents.get(order.intentID)!.amount).toBe(order.total);
    expect((await receiptOf(exhibitor, order)).total).toBe(order.total);
  });

  it('leaves the order untouched when Stripe refuses the amount change (both change or neither)', async () => {
    const { exhibitor, store } = await start(dialect, STRIPE_KEYS);
    const order = await submittedSmall(exhibitor, store);
    standIn!.refuseUpdates.add(order.intentID);
    const swap = await exhibitor.updateIntent(order, { cart: large(store), customer: customerFor(store) });
    expect(swap.status).toBe(502);
    const after = await receiptOf(exhibitor, order);
    expect(after.total).toBe(order.total);
    expect(after.lines).toHaveLength(1);
    expect(standIn!.intents.get(order.intentID)!.amount).toBe(order.total);

    // Once Stripe takes updates again, the same change applies to both sides.
    standIn!.refuseUpdates.clear();
    const retried = await exhibitor.updateIntent(order, { cart: large(store), customer: customerFor(store) });
    expect(retried.status).toBe(200);
    expect((await receiptOf(exhibitor, order)).total).toBe(retried.body.total);
    expect(standIn!.intents.get(order.intentID)!.amount).toBe(retried.body.total);
  });

  it('holds for review, never pays, an order whose capture differs from its total (confirm path)', async () => {
    const { app, exhibitor, staff, store } = await start(dialect, STRIPE_KEYS);
    const order = await submittedSmall(exhibitor, store);
    standIn!.succeed(order.intentID, undefined, order.total - 100);

    const confirmed = await exhibitor.confirm(order);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      status: 'needs_review',
      confirmation: null,
      paymentIntent: { amount: order.total - 100 },
    });
    // Asking again, or the webhook arriving later, changes nothing.
    expect((await exhibitor.confirm(order)).body.status).toBe('needs_review');
    const hook = await deliver(
      app,
      stripeEvent('evt_late', 'payment_intent.succeeded', standIn!.intents.get(order.intentID)),
    );
    expect(await hook.json()).toEqual({ received: true, outcome: 'already_settled' });
    expect(await app.db.models.MailOutbox.count()).toBe(0);

    // Staff see it in the order list and detail, and in the audit log.
    const list = await staff.get<{ orders: StaffOrderSummary[] }>('/api/staff/orders?status=needs_review');
    expect(list.body.orders.map((o) => o.id)).toEqual([order.orderId]);
    const settled = await staff.get<{ orders: StaffOrderSummary[] }>('/api/staff/orders');
    expect(settled.body.orders).toHaveLength(0);
    const detail = await staff.get<{ order: StaffOrderDetail }>(`/api/staff/orders/${order.orderId}`);
    expect(detail.body.order).toMatchObject({
      status: 'needs_review',
      confirmation: null,
      refundable: order.total - 100,
      review: {
        reason: AMOUNT_MISMATCH_REASON,
        amount_received: order.total - 100,
        received_currency: 'usd',
      },
    });
    const audit = await staff.get<{ entries: { action: string; entityId: string; actor: unknown }[] }>(
      '/api/staff/audit',
    );
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({ action: 'order_payment_review', entityId: order.orderId, actor: null }),
    );
  });

  it('refunds a held order up to what was captured, never up to its total', async () => {
    const { exhibitor, staff, store } = await start(dialect, STRIPE_KEYS);
    const order = await submittedSmall(exhibitor, store);
    const capturedAmount = order.total - 100;
    standIn!.succeed(order.intentID, undefined, capturedAmount);
    expect((await exhibitor.confirm(order)).body.status).toBe('needs_review');
    const refund = (amount: number, key: string) =>
      staff.post<{ order: StaffOrderDetail; error?: { message: string; fields?: Record<string, string> } }>(
        `/api/staff/orders/${order.orderId}/refunds`,
        { amount, reason: 'Charged less than the order', key },
      );

    // The order's total is more than the provider took: refused by our rule, and Stripe never asked.
    const whole = await refund(order.total, 'held-refund-1');
    expect(whole.status).toBe(400);
    expect(whole.body.error).toMatchObject({ fields: { amount: REFUND_TOO_LARGE } });
    const justOver = await refund(capturedAmount + 1, 'held-refund-2');
    expect(justOver.status).toBe(400);
    expect(standIn!.refunds.size).toBe(0);

    // What was captured can go back, in parts, and not a cent more.
    const part = await refund(capturedAmount - 500, 'held-refund-3');
    expect(part.status).toBe(201);
    expect(part.body.order).toMatchObject({ refunded_amount: capturedAmount - 500, refundable: 500 });
    expect((await refund(501, 'held-refund-4')).status).toBe(400);
    const rest = await refund(500, 'held-refund-5');
    expect(rest.status).toBe(201);
    expect(rest.body.order).toMatchObject({ refunded_amount: capturedAmount, refundable: 0 });
    expect([...standIn!.refunds.values()].map((r) => r.amount)).toEqual([capturedAmount - 500, 500]);
  });

  it('holds for review an order whose webhook reports another amount or currency', async () => {
    const { app, exhibitor, store } = await start(dialect, STRIPE_KEYS);
    const first = await submittedSmall(exhibitor, store);
    const shortPaid = standIn!.succeed(first.intentID, undefined, 50);
    const outcome = await deliver(app, stripeEvent('evt_short', 'payment_intent.succeeded', shortPaid));
    expect(await outcome.json()).toEqual({ received: true, outcome: 'needs_review' });

    const second = await submittedSmall(new Exhibitor(app), store);
    const euros = { ...standIn!.succeed(second.intentID), currency: 'eur' };
    const other = await deliver(app, stripeEvent('evt_eur', 'payment_intent.succeeded', euros));
    expect(await other.json()).toEqual({ received: true, outcome: 'needs_review' });

    expect(await app.db.models.Order.count({ where: { status: 'needs_review' } })).toBe(2);
    expect(await app.db.models.Order.count({ where: { status: 'paid' } })).toBe(0);
    expect(await app.db.models.MailOutbox.count()).toBe(0);
  });

  it('the attack end to end: confirm small, swap, confirm and webhook: paid for what was charged, once', async () => {
    const { app, exhibitor, store } = await start(dialect, STRIPE_KEYS);
    const order = await submittedSmall(exhibitor, store);
    const paid = standIn!.succeed(order.intentID);
    await exhibitor.updateIntent(order, { cart: large(store), customer: customerFor(store) });
    await deliver(app, stripeEvent('evt_attack', 'payment_intent.succeeded', paid));
    await exhibitor.confirm(order);
    const row = await app.db.models.Order.findByPk(order.orderId);
    expect(row).toMatchObject({ status: 'paid', total: order.total, amountReceived: order.total });
    const mail = await app.db.models.MailOutbox.findAll();
    expect(mail).toHaveLength(1);
    expect(JSON.stringify(mail[0]!.toJSON())).not.toContain('39,432');
  });

  it('test gateway: a cart change racing the card payment never leaves an order paid for another amount', async () => {
    const { app, store } = await start(dialect, {});
    for (let round = 0; round < 6; round++) {
      const buyer = new Exhibitor(app);
      const order = await submittedSmall(buyer, store);
      const [paid] = await Promise.all([
        buyer.pay(order, VISA),
        buyer.updateIntent(order, { cart: large(store), customer: customerFor(store) }),
      ]);
      expect([200, 409]).toContain(paid.status);
      const row = await app.db.models.Order.findByPk(order.orderId, { rejectOnEmpty: true });
      const lines = await app.db.models.OrderLine.findAll({ where: { orderId: order.orderId } });
      const linesTotal = lines.reduce((sum, line) => sum + line.lineTotal, 0);
      expect(row.subtotal).toBe(linesTotal);
      if (row.status === 'paid') expect(row.amountReceived).toBe(row.total);
      else if (row.status === 'needs_review') expect(row.amountReceived).not.toBe(row.total);
      else expect(row.status).toBe('pending');
    }
    const paidOrders = await app.db.models.Order.findAll({ where: { status: 'paid' } });
    expect(await app.db.models.MailOutbox.count()).toBe(paidOrders.length);
  });
});

import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { openSecret, sealSecret, SecretBoxError } from '../src/adapters/payments/index.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { NO_CONFIRMATION_ADDRESS } from '../src/modules/staff/resend-confirmation.js';
import { BAD_EVENT, BAD_SIGNATURE, CONFIRMATION_PATTERN } from '../src/modules/store/index.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { TestBrowser } from './helpers/browser.js';
import { DIALECTS, TEST_SECRET } from './helpers/env.js';
import type { Env } from '../src/config.js';
import { customerFor, Exhibitor, seeded } from './helpers/store.js';
import type { StoreJson } from './helpers/store.js';
import { StripeStandIn, stripeEvent } from './helpers/stripe-stand-in.js';

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const STAFF = { email: 'grace@example.com', password: 'Staff passphrase 9' };
const SERVER_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_server0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_server0123456789',
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

async function start(dialect: (typeof DIALECTS)[number], env: Env = SERVER_KEYS) {
  standIn = await new StripeStandIn().start();
  t = await startTestApp({ dialect, env: { ...env, STRIPE_API_URL: standIn.url } });
  await seeded(t);
  const exhibitor = new Exhibitor(t);
  const { body } = await exhibitor.store();
  return { app: t, stripe: standIn, exhibitor, store: body.store };
}

/** An intent created and submitted, as the payment page leaves it just before Stripe.js confirms. */
async function submitted(exhibitor: Exhibitor, store: StoreJson) {
  const cart = [
    { productId: store.products[1]!.id, count: 2 },
    { productId: store.products[4]!.id, count: 1 },
  ];
  const created = await exhibitor.createIntent({ cart });
  expect(created.status).toBe(201);
  const updated = await exhibitor.updateIntent(created.body, { cart, customer: customerFor(store) });
  expect(updated.status).toBe(200);
  return { ...created.body, total: updated.body.total };
}

/** Posts a webhook the way Stripe does: the exact bytes, signed by the SDK's own test helper. */
function deliver(app: TestApp, payload: string, secret = WEBHOOK_SECRET, body = payload) {
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return app.request('/api/webhooks/stripe', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body,
  });
}

describe.each(DIALECTS)('Stripe gateway on %s (against a local stand-in of its API)', (dialect) => {
  it('creates and updates PaymentIntents with automatic payment methods and idempotency keys', async () => {
    const { stripe, exhibitor, store } = await start(dialect);
    expect(store).toMatchObject({ gateway: 'stripe', publicKey: SERVER_KEYS.STRIPE_PUBLISHABLE_KEY });
    expect(JSON.stringify(store)).not.toContain(SERVER_KEYS.STRIPE_SECRET_KEY);

    const cart = [{ productId: store.products[0]!.id, count: 1 }];
    const created = await exhibitor.createIntent({ cart });
    expect(created.status).toBe(201);
    const [create] = stripe.calls('POST', '/v1/payment_intents');
    expect(create?.path).toBe('/v1/payment_intents');
    expect(create?.headers.authorization).toBe(`Bearer ${SERVER_KEYS.STRIPE_SECRET_KEY}`);
    expect(create?.headers['idempotency-key']).toBe(`order-${created.body.orderId}-create`);
    expect(create?.form).toMatchObject({
      amount: String(created.body.total),
      currency: 'usd',
      'automatic_payment_methods[enabled]': 'true',
      'metadata[order_id]': created.body.orderId,
      'metadata[store_id]': 'demo-expo',
    });
    const intent = stripe.intents.get(created.body.intentID)!;
    expect(created.body).toMatchObject({
      gateway: 'stripe',
      publicKey: SERVER_KEYS.STRIPE_PUBLISHABLE_KEY,
      clientSecret: intent.client_secret,
    });

    const bigger = [{ productId: store.products[0]!.id, count: 3 }];
    const updated = await exhibitor.updateIntent(created.body, {
      cart: bigger,
      customer: customerFor(store),
    });
    expect(updated.status).toBe(200);
    const update = stripe.calls('POST', `/v1/payment_intents/${intent.id}`).at(-1);
    expect(update?.headers['idempotency-key']).toMatch(
      new RegExp(`^order-${created.body.orderId}-update-[0-9a-f-]{36}$`),
    );
    expect(update?.form.amount).toBe(String(updated.body.total));
    expect(intent.amount).toBe(updated.body.total);
    expect(updated.body.total).toBeGreaterThan(created.body.total);
  });

  it('checks the webhook signature on the raw body, and a replayed event pays once and mails once', async () => {
    const { app, stripe, exhibitor, store } = await start(dialect);
    const order = await submitted(exhibitor, store);
    const paidIntent = stripe.succeed(order.intentID, { brand: 'mastercard', last4: '4444' });
    const payload = stripeEvent('evt_paid_1', 'payment_intent.succeeded', paidIntent);

    // Signed for other bytes, or by another secret, or not at all: refused, nothing recorded.
    const reformatted = await deliver(app, payload, WEBHOOK_SECRET, JSON.stringify(JSON.parse(payload)));
    expect(reformatted.status).toBe(400);
    expect(await reformatted.json()).toEqual({ error: { code: 'bad_signature', message: BAD_SIGNATURE } });
    expect((await deliver(app, payload, 'whsec_someone_else')).status).toBe(400);
    const unsigned = await app.request('/api/webhooks/stripe', { method: 'POST', body: payload });
    expect(unsigned.status).toBe(400);
    expect(await app.db.models.WebhookEvent.count()).toBe(0);

    const outcomes: string[] = [];
    const first = await Promise.all([1, 2, 3, 4, 5].map(() => deliver(app, payload)));
    for (const res of first) outcomes.push(((await res.json()) as { outcome: string }).outcome);
    for (let i = 0; i < 5; i++) {
      const res = await deliver(app, payload);
      expect(res.status).toBe(200);
      outcomes.push(((await res.json()) as { outcome: string }).outcome);
    }
    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate_event')).toHaveLength(9);

    // Another event about the same intent (Stripe may send several): the order is already settled.
    const other = await deliver(app, stripeEvent('evt_paid_2', 'payment_intent.succeeded', paidIntent));
    expect(await other.json()).toEqual({ received: true, outcome: 'already_settled' });

    const row = await app.db.models.Order.findByPk(order.orderId);
    expect(row).toMatchObject({ status: 'paid', cardBrand: 'mastercard', cardLast4: '4444' });
    expect(row?.confirmation).toMatch(CONFIRMATION_PATTERN);
    expect(await app.db.models.Order.count({ where: { status: 'paid' } })).toBe(1);
    expect(await app.db.models.MailOutbox.count()).toBe(1);
    expect(await app.db.models.WebhookEvent.count()).toBe(2);
  });

  it("settles on the browser's confirmation once the intent succeeded; the webhook then changes nothing", async () => {
    const { app, stripe, exhibitor, store } = await start(dialect);
    const order = await submitted(exhibitor, store);

    const early = await exhibitor.confirm(order);
    expect(early.body).toMatchObject({
      status: 'pending',
      confirmation: null,
      paymentIntent: { status: 'requires_payment_method' },
    });

    const paidIntent = stripe.succeed(order.intentID);
    const confirmed = await exhibitor.confirm(order);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      status: 'paid',
      paymentIntent: { id: order.intentID, amount: order.total, status: 'succeeded' },
    });
    const confirmation = confirmed.body.confirmation;
    expect((await exhibitor.confirm(order)).body.confirmation).toBe(confirmation);
    const hook = await deliver(app, stripeEvent('evt_after_confirm', 'payment_intent.succeeded', paidIntent));
    expect(await hook.json()).toEqual({ received: true, outcome: 'already_settled' });

    expect(await app.db.models.Order.findByPk(order.orderId)).toMatchObject({
      confirmation,
      cardLast4: '4242',
    });
    expect(await app.db.models.MailOutbox.count()).toBe(1);
    // The test gateway's card call is not for Stripe orders.
    expect((await exhibitor.pay(order)).body.status).toBe('paid');
  });

  it('records other events once and ignores an intent of no order', async () => {
    const { app, stripe, exhibitor, store } = await start(dialect);
    const order = await submitted(exhibitor, store);
    const failed = await deliver(
      app,
      stripeEvent('evt_failed', 'payment_intent.payment_failed', stripe.intents.get(order.intentID)),
    );
    expect(await failed.json()).toEqual({ received: true, outcome: 'recorded' });
    expect(
      await (await deliver(app, stripeEvent('evt_failed', 'payment_intent.payment_failed', {}))).json(),
    ).toMatchObject({
      outcome: 'duplicate_event',
    });
    const stranger = { ...stripe.intents.get(order.intentID)!, id: 'pi_not_ours' };
    expect(
      await (await deliver(app, stripeEvent('evt_stranger', 'payment_intent.succeeded', stranger))).json(),
    ).toMatchObject({
      outcome: 'unknown_order',
    });
    expect(await app.db.models.Order.findByPk(order.orderId)).toMatchObject({ status: 'pending' });
    expect(await app.db.models.MailOutbox.count()).toBe(0);
  });

  it('refuses a signed event that is not a well-formed Stripe event, recording nothing', async () => {
    const { app } = await start(dialect);
    const malformed = [
      '{}',
      '[]',
      stripeEvent('evt_no_object', 'payment_intent.succeeded', null),
      stripeEvent('evt_no_intent_id', 'payment_intent.succeeded', { object: 'payment_intent' }),
      // Found by the fuzz suite: a succeeded intent without its capture cannot be checked against the order.
      stripeEvent('evt_no_currency', 'payment_intent.succeeded', { id: 'pi_x', amount_received: 100 }),
      stripeEvent('evt_no_amount', 'payment_intent.succeeded', { id: 'pi_x', currency: 'usd' }),
      stripeEvent('x'.repeat(256), 'payment_intent.payment_failed', {}),
      JSON.stringify({ id: 'evt_typed', type: ['payment_intent.succeeded'], data: { object: {} } }),
    ];
    for (const payload of malformed) {
      const res = await deliver(app, payload);
      expect(res.status, payload).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'bad_event', message: BAD_EVENT } });
    }
    expect(await app.db.models.WebhookEvent.count()).toBe(0);
  });

  it('settles an intent paid before the customer details were given, with no e-mail to send', async () => {
    const { app, stripe, exhibitor, store } = await start(dialect);
    // A caller may confirm the intent with its client secret straight away, skipping the checkout form.
    const cart = [{ productId: store.products[0]!.id, count: 1 }];
    const created = await exhibitor.createIntent({ cart });
    const paidIntent = stripe.succeed(created.body.intentID);

    const hook = await deliver(app, stripeEvent('evt_early', 'payment_intent.succeeded', paidIntent));
    expect(hook.status).toBe(200);
    expect(await hook.json()).toEqual({ received: true, outcome: 'paid' });
    expect(await app.db.models.Order.findByPk(created.body.orderId)).toMatchObject({
      status: 'paid',
      email: '',
    });
    expect(await app.db.models.MailOutbox.count()).toBe(0);

    await upsertStaffAccount(app.db, { ...STAFF, firstName: 'Grace', lastName: 'Hopper' });
    const staff = new TestBrowser(app.url);
    expect((await staff.post('/api/auth/login', STAFF)).status).toBe(200);
    const resend = await staff.post(`/api/staff/orders/${created.body.orderId}/resend-confirmation`);
    expect(resend.status).toBe(409);
    expect(resend.body).toEqual({ error: { code: 'order_incomplete', message: NO_CONFIRMATION_ADDRESS } });
  });

  it('uses a store’s own keys: the secret sealed at rest, only the publishable key reaches the browser', async () => {
    // The server itself has no Stripe account here: the store's keys alone switch it to Stripe.
    const { app, stripe, exhibitor } = await start(dialect, {});
    const secretKey = 'sk_test_store_own_key_987654321';
    const sealed = sealSecret(secretKey, TEST_SECRET);
    expect(sealed).not.toContain(secretKey);
    expect(openSecret(sealed, TEST_SECRET)).toBe(secretKey);
    expect(() => openSecret(sealed, `${TEST_SECRET}-changed`)).toThrow(SecretBoxError);
    expect(sealSecret(secretKey, TEST_SECRET)).not.toBe(sealed);

    // Straight to the row, as a staff edit would (with the version that tells every process the page changed).
    await app.db.models.Store.update(
      {
        stripeSecretKeyEnc: sealed,
        stripePublishableKey: 'pk_test_store_own_key',
        version: app.db.sequelize.literal('version + 1') as unknown as number,
      },
      { where: { slug: 'demo-expo' } },
    );
    const res = await exhibitor.get('/api/stores/demo-expo');
    const text = JSON.stringify(res.body);
    expect(res.body).toMatchObject({ store: { gateway: 'stripe', publicKey: 'pk_test_store_own_key' } });
    expect(text).not.toContain(secretKey);
    expect(text).not.toContain(sealed);
    expect(JSON.stringify((await exhibitor.get('/api/stores')).body)).not.toContain('sk_test');

    const store = (res.body as { store: StoreJson }).store;
    const created = await exhibitor.createIntent({ cart: [{ productId: store.products[0]!.id, count: 1 }] });
    expect(created.status).toBe(201);
    expect(created.body.publicKey).toBe('pk_test_store_own_key');
    expect(JSON.stringify(created.body)).not.toContain(secretKey);
    expect(stripe.calls('POST', '/v1/payment_intents')[0]?.headers.authorization).toBe(`Bearer ${secretKey}`);

    // Webhooks need the server's signing secret: without it the endpoint does not exist.
    const hook = await deliver(app, stripeEvent('evt_x', 'payment_intent.succeeded', {}));
    expect(hook.status).toBe(404);
  });

  it('answers 502 with the spec text when Stripe cannot be reached, leaving no payable order', async () => {
    const { app, stripe, exhibitor, store } = await start(dialect);
    await stripe.stop();
    const created = await exhibitor.createIntent({ cart: [{ productId: store.products[0]!.id, count: 1 }] });
    expect(created.status).toBe(502);
    // A 5xx carries the request id that leads to its log line (issue 35).
    expect(created.body.error).toEqual({
      code: 'payment_gateway_error',
      message: 'Server error, please try again later.',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(await app.db.models.Order.count()).toBe(0);
  });
});

import {
  CHECKOUT_INVALID_EMAIL,
  formatPrice,
  priceOrder,
  QUANTITY_INVALID,
  STORE_CLOSED_TRANSACTION,
} from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EXPO_BCC } from '../src/db/seed-demo.js';
import { CARD_MESSAGES } from '../src/adapters/payments/index.js';
import { CONFIRMATION_PATTERN } from '../src/modules/store/index.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { DIALECTS, writeWebDist } from './helpers/env.js';
import { customerFor, DECLINED, Exhibitor, seeded, VISA } from './helpers/store.js';
import type { StoreJson } from './helpers/store.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start(
  dialect: (typeof DIALECTS)[number],
): Promise<{ app: TestApp; exhibitor: Exhibitor; store: StoreJson }> {
  t = await startTestApp({ dialect });
  await seeded(t);
  const exhibitor = new Exhibitor(t);
  const { status, body } = await exhibitor.store();
  expect(status).toBe(200);
  return { app: t, exhibitor, store: body.store };
}

/** The server's own price for a cart of (product index, count), from the store's published prices. */
function expected(store: StoreJson, picks: [number, number][]) {
  return priceOrder(
    picks.map(([index, count]) => ({ unitAmount: store.products[index]!.price, quantity: count })),
    { deadline: store.deadline, now: new Date(), timeZone: 'America/New_York' },
  );
}

describe.each(DIALECTS)('exhibitor store calls on %s', (dialect) => {
  it('lists only active, unarchived stores, with no secret, BCC or e-mail text', async () => {
    const { exhibitor } = await start(dialect);
    const { status, body } = await exhibitor.get<{ stores: { store_id: string; closed: boolean }[] }>(
      '/api/stores',
    );
    expect(status).toBe(200);
    expect(body.stores.map((s) => [s.store_id, s.closed])).toEqual([
      ['demo-late', true],
      ['demo-expo', false],
    ]);
    const text = JSON.stringify(body);
    for (const secret of ['bcc', 'email_text', 'stripe', 'secret']) expect(text).not.toContain(secret);
  });

  it('sends a store with its priced products in metadata.order order, and 404 for an unknown one', async () => {
    const { exhibitor, store } = await start(dialect);
    expect(store).toMatchObject({
      store_id: 'demo-expo',
      closed: false,
      early_bird: true,
      gateway: 'test-gateway',
    });
    expect(store.publicKey).toBeUndefined();
    expect(store.products).toHaveLength(8);
    const orders = store.products.map((p) => p.metadata.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(store.products[0]).toMatchObject({
      name: '55" LED Monitor with Floor Stand',
      price: 45000,
      currency: 'usd',
    });
    expect(JSON.stringify(store)).not.toContain(DEMO_EXPO_BCC);

    const inactive = await exhibitor.store('demo-inactive');
    expect(inactive.body.store.closed).toBe(true);
    const unknown = await exhibitor.get<{ error: { code: string } }>('/api/stores/no-such-store');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('store_not_found');
  });

  it('prices from its own prices: a tampered price, discount or total in the request changes nothing', async () => {
    const { app, exhibitor, store } = await start(dialect);
    const [a, b, c] = store.products;
    const tampered = {
      cart: [
        {
          productId: a!.id,
          count: 2,
          price: 1,
          unitAmount: 1,
          lineTotal: 1,
          product: { id: a!.id, price: 1 },
        },
        { productId: b!.id, count: 1, price: 0 },
        { productId: c!.id, count: 3 },
      ],
      subtotal: 100,
      discount: 999_999,
      fee: 0,
      total: 1,
      earlyBird: true,
    };
    const want = expected(store, [
      [0, 2],
      [1, 1],
      [2, 3],
    ]);
    const created = await exhibitor.createIntent(tampered);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      subtotal: want.subtotal,
      discount: want.discount,
      fee: want.fee,
      total: want.total,
      earlyBird: true,
    });
    expect(created.body.lines.map((l) => l.unitAmount)).toEqual([a!.price, b!.price, c!.price]);

    const updated = await exhibitor.updateIntent(created.body, { ...tampered, customer: customerFor(store) });
    expect(updated.status).toBe(200);
    expect(updated.body.total).toBe(want.total);

    const paid = await exhibitor.pay(created.body);
    expect(paid.status).toBe(200);
    expect(paid.body.paymentIntent.amount).toBe(want.total);
    const order = await app.db.models.Order.findByPk(created.body.orderId);
    expect(order).toMatchObject({
      status: 'paid',
      subtotal: want.subtotal,
      discount: want.discount,
      total: want.total,
    });
    const lines = await app.db.models.OrderLine.findAll({
      where: { orderId: created.body.orderId },
      order: [['id', 'ASC']],
    });
    expect(lines.map((l) => [l.unitAmount, l.quantity, l.lineTotal])).toEqual([
      [a!.price, 2, a!.price * 2],
      [b!.price, 1, b!.price],
      [c!.price, 3, c!.price * 3],
    ]);
    const mail = await app.db.models.MailOutbox.findOne();
    expect(mail?.textBody).toContain(`Total: ${formatPrice(want.total)}`);
  });

  it('refuses quantity 26, 0, an unknown or repeated product, and an empty cart with 400', async () => {
    const { app, exhibitor, store } = await start(dialect);
    const id = store.products[0]!.id;
    const tooMany = await exhibitor.createIntent({ cart: [{ productId: id, count: 26 }] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.fields).toEqual({ 'cart.0.count': QUANTITY_INVALID });
    for (const cart of [
      [{ productId: id, count: 0 }],
      [{ productId: id, count: 1.5 }],
      [{ productId: 999_999, count: 1 }],
      [
        { productId: id, count: 1 },
        { productId: id, count: 2 },
      ],
      [],
    ]) {
      expect((await exhibitor.createIntent({ cart })).status).toBe(400);
    }
    expect(await app.db.models.Order.count()).toBe(0);

    const created = await exhibitor.createIntent({ cart: [{ productId: id, count: 25 }] });
    expect(created.status).toBe(201);
    const update = await exhibitor.updateIntent(created.body, {
      cart: [{ productId: id, count: 26 }],
      customer: customerFor(store),
    });
    expect(update.status).toBe(400);
    expect(update.body.error.fields?.['cart.0.count']).toBe(QUANTITY_INVALID);
    const order = await app.db.models.Order.findByPk(created.body.orderId);
    expect(order?.email).toBe('');
  });

  it('answers 409 with the spec message for a closed store, at every step', async () => {
    const { app, exhibitor, store } = await start(dialect);
    const cart = [{ productId: store.products[0]!.id, count: 1 }];
    for (const closed of ['demo-late', 'demo-inactive', 'demo-archived']) {
      const res = await exhibitor.createIntent({ cart }, closed);
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({ code: 'store_closed', message: STORE_CLOSED_TRANSACTION });
    }

    // Open when the intent was made, closed by the time the exhibitor submits or pays.
    const created = await exhibitor.createIntent({ cart });
    const submitted = await exhibitor.createIntent({ cart });
    await exhibitor.updateIntent(submitted.body, { cart, customer: customerFor(store) });
    await app.db.models.Store.update({ isActive: false }, { where: { slug: 'demo-expo' } });
    const update = await exhibitor.updateIntent(created.body, { cart, customer: customerFor(store) });
    expect(update.status).toBe(409);
    expect(update.body.error.message).toBe(STORE_CLOSED_TRANSACTION);
    const pay = await exhibitor.pay(submitted.body);
    expect(pay.status).toBe(409);
    expect(pay.body.error.message).toBe(STORE_CLOSED_TRANSACTION);
    expect(await app.db.models.Order.count({ where: { status: 'paid' } })).toBe(0);
    expect(await app.db.models.MailOutbox.count()).toBe(0);
  });

  it('checks the customer info with the checkout schema and the event dates', async () => {
    const { exhibitor, store } = await start(dialect);
    const cart = [{ productId: store.products[0]!.id, count: 1 }];
    const created = await exhibitor.createIntent({ cart });
    const res = await exhibitor.updateIntent(created.body, {
      cart,
      customer: { ...customerFor(store), email: 'not-an-address', booth: ' ', pickupDate: '2001-01-01' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toMatchObject({
      'customer.email': CHECKOUT_INVALID_EMAIL,
      'customer.booth': 'This field is required.',
      'customer.pickupDate': expect.stringMatching(/^Date must be after /),
    });
    // Paying before the rental information was accepted is refused.
    const pay = await exhibitor.pay(created.body);
    expect(pay.status).toBe(409);
  });

  it('pays with 4242 once: paying and confirming again change nothing; one e-mail with BCC and invoice', async () => {
    const { app, exhibitor, store } = await start(dialect);
    const cart = [
      { productId: store.products[0]!.id, count: 2 },
      { productId: store.products[3]!.id, count: 1 },
    ];
    const { intent, paid } = await exhibitor.checkout(cart);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      orderId: intent.orderId,
      status: 'paid',
      paymentIntent: { id: intent.intentID, amount: intent.total, currency: 'usd', status: 'succeeded' },
    });
    const confirmation = paid.body.confirmation!;
    expect(confirmation).toMatch(CONFIRMATION_PATTERN);

    const again = await exhibitor.pay(intent, DECLINED);
    expect(again.status).toBe(200);
    expect(again.body.confirmation).toBe(confirmation);
    for (let i = 0; i < 2; i++) {
      const confirmed = await exhibitor.confirm(intent);
      expect(confirmed.body).toMatchObject({ status: 'paid', confirmation });
    }
    expect(await app.db.models.Order.count({ where: { status: 'paid' } })).toBe(1);

    const order = await app.db.models.Order.findByPk(intent.orderId);
    expect(order).toMatchObject({ cardBrand: 'visa', cardLast4: '4242', email: 'grace@acme.example' });
    expect(JSON.stringify(order?.toJSON())).not.toContain('4242424242424242');

    const mails = await app.db.models.MailOutbox.findAll();
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail).toMatchObject({ toAddress: 'grace@acme.example', bcc: DEMO_EXPO_BCC, status: 'queued' });
    expect(mail.subject).toContain(confirmation);
    expect(mail.textBody).toContain(`Confirmation number: ${confirmation}`);
    expect(mail.textBody).toContain(`was charged ${formatPrice(intent.total)}`);
    expect(mail.textBody).toContain('Visa ending in 4242');
    expect(mail.textBody).toContain('Thank you for your order. Our crew will set up your equipment');
    expect(mail.htmlBody).toContain(confirmation);
    expect(mail.attachments).toHaveLength(1);
    const pdf = Buffer.from(mail.attachments![0]!.content, 'base64');
    expect(mail.attachments![0]).toMatchObject({
      filename: `invoice-${confirmation}.pdf`,
      contentType: 'application/pdf',
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    const receipt = await exhibitor.order(intent);
    expect(receipt.status).toBe(200);
    expect(receipt.body.order).toMatchObject({
      status: 'paid',
      confirmation,
      total: intent.total,
      card: 'Visa ending in 4242',
      store: { store_id: 'demo-expo' },
    });
    const wrongToken = await exhibitor.order({ orderId: intent.orderId, token: 'x'.repeat(43) });
    expect(wrongToken.status).toBe(404);
    const noToken = await exhibitor.get(`/api/orders/${intent.orderId}`);
    expect(noToken.status).toBe(404);
    expect((await exhibitor.get('/api/orders/not-a-uuid')).status).toBe(404);
  });

  it('a declined card answers 402 with the provider message; a malformed one 400 under its field', async () => {
    const { app, exhibitor, store } = await start(dialect);
    const cart = [{ productId: store.products[0]!.id, count: 1 }];
    const created = await exhibitor.createIntent({ cart });
    await exhibitor.updateIntent(created.body, { cart, customer: customerFor(store) });

    const declined = await exhibitor.pay(created.body, DECLINED);
    expect(declined.status).toBe(402);
    expect(declined.body.error).toEqual({ code: 'card_declined', message: 'Your card was declined.' });
    const funds = await exhibitor.pay(created.body, { ...VISA, number: '4000 0000 0000 9995' });
    expect(funds.body.error.message).toBe('Your card has insufficient funds.');
    const typo = await exhibitor.pay(created.body, { ...VISA, number: '4242 4242 4242 4241' });
    expect(typo.status).toBe(400);
    expect(typo.body.error.fields).toEqual({ 'card.number': CARD_MESSAGES.numberInvalid });
    const expired = await exhibitor.pay(created.body, { ...VISA, expiry: '01 / 20' });
    expect(expired.body.error.fields).toEqual({ 'card.expiry': CARD_MESSAGES.expiryPastYear });

    expect(await app.db.models.Order.findByPk(created.body.orderId)).toMatchObject({
      status: 'pending',
      confirmation: null,
    });
    expect(await app.db.models.MailOutbox.count()).toBe(0);
    expect((await exhibitor.pay(created.body)).body.status).toBe('paid');
  });

  it('20 concurrent checkouts get 20 distinct confirmation numbers', async () => {
    const { app, store } = await start(dialect);
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        new Exhibitor(app).checkout([
          { productId: store.products[i % store.products.length]!.id, count: 1 + (i % 25) },
        ]),
      ),
    );
    const numbers = runs.map(({ paid }) => {
      expect(paid.status).toBe(200);
      return paid.body.confirmation;
    });
    expect(new Set(numbers).size).toBe(20);
    for (const n of numbers) expect(n).toMatch(CONFIRMATION_PATTERN);
    expect(await app.db.models.Order.count({ where: { status: 'paid' } })).toBe(20);
    expect(await app.db.models.MailOutbox.count()).toBe(20);
  });

  it('serves store pages with 200 for a known store and 404 for an unknown one', async () => {
    t = await startTestApp({ dialect, configure: (config) => config });
    await seeded(t);
    const dist = await writeWebDist(t.config.WEB_DIST_DIR);
    expect(dist).toBe(t.config.WEB_DIST_DIR);
    for (const [path, status] of [
      ['/exhibitor_order', 200],
      ['/exhibitor_order/demo-expo', 200],
      ['/exhibitor_order/demo-late/checkout', 200],
      ['/exhibitor_order/no-such-store', 404],
      ['/exhibitor_order/no-such-store/checkout', 404],
      ['/exhibitor_order/%E0%A4%A', 404],
      ['/payment', 200],
      ['/confirmation', 200],
    ] as const) {
      const res = await t.request(path);
      expect([path, res.status]).toEqual([path, status]);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
  });
});

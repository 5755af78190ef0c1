import sharp from 'sharp';
import { STORE_ID_INVALID, storeImageUnknown } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { REFUND_KEY_REUSED, REFUND_TOO_LARGE } from '../src/modules/orders/index.js';
import {
  CSV_COLUMNS,
  IMAGE_NOT_AN_IMAGE,
  STORE_HAS_ORDERS,
  STORE_ID_TAKEN,
} from '../src/modules/staff/index.js';
import type { StaffStore } from '@avp/shared';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import type { Env } from '../src/config.js';
import { DIALECTS } from './helpers/env.js';
import { Exhibitor, seeded } from './helpers/store.js';
import type { ErrorJson } from './helpers/store.js';
import { StripeStandIn } from './helpers/stripe-stand-in.js';
import { signedInStaff } from './helpers/staff.js';

/**
 * The staff calls through HTTP against a real database: the store manager's rules (slug, uniqueness,
 * the full list after every change, deleting only archived stores without orders), prices and products as
 * the store page sees them, orders with their CSV and pull sheet, refunds recorded once (test gateway and
 * Stripe's stand-in), and the audit log. Who may call them is api/test/authorization-matrix.test.ts.
 */

let t: TestApp | undefined;
let standIn: StripeStandIn | undefined;
afterEach(async () => {
  await t?.close();
  await standIn?.stop();
  t = undefined;
  standIn = undefined;
});

type Stores = { stores: StaffStore[]; store: StaffStore | null } & ErrorJson;

async function start(dialect: (typeof DIALECTS)[number], env: Env = {}) {
  t = await startTestApp({ dialect, env });
  await seeded(t);
  const { staff, staffId } = await signedInStaff(t);
  return { app: t, staff, staffId };
}

function form(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Spring Expo',
    store_id: 'spring-expo',
    image: '',
    deadline: '2031-03-01',
    start_date: '2031-03-10',
    end_date: '2031-03-12',
    order_cutoff: '',
    bcc: 'ops@example.com; ',
    email_text: 'See you there',
    store_text: 'Hall A',
    is_active: true,
    is_archived: false,
    ...overrides,
  };
}

/** RFC 4180: quoted cells with doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.trim().split('\r\n')) {
    const cells: string[] = [];
    for (const match of line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)) {
      cells.push(match[1] !== undefined ? match[1].replace(/""/g, '"') : (match[2] ?? ''));
    }
    rows.push(cells);
  }
  return rows;
}

const storeOf = (body: Stores, slug: string) => body.stores.find((s) => s.store_id === slug);

describe.each(DIALECTS)('staff calls on %s', (dialect) => {
  it("names the zone the staff screens print times in: the company's (TZ_STORE)", async () => {
    const { staff } = await start(dialect, { TZ_STORE: 'America/Chicago' });
    const answer = await staff.get<{ time_zone: string }>('/api/staff/settings');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ time_zone: 'America/Chicago' });
  });

  it('creates, edits, toggles, archives and deletes stores, answering the full list each time', async () => {
    const { staff } = await start(dialect);
    const listed = await staff.get<Stores>('/api/staff/stores');
    expect(listed.status).toBe(200);
    // Archived and inactive stores are listed too, with their counts.
    expect(listed.body.stores.map((s) => s.store_id).sort()).toEqual([
      'demo-archived',
      'demo-expo',
      'demo-inactive',
      'demo-late',
    ]);
    const expo = storeOf(listed.body, 'demo-expo')!;
    expect(expo.products).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(listed.body)).not.toMatch(/secret_?key_?enc|sk_/i);

    // The slug rule and uniqueness, reported on the field.
    const bad = await staff.post<Stores>('/api/staff/stores', form({ store_id: 'Spring Expo' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields?.store_id).toBe(STORE_ID_INVALID);
    const taken = await staff.post<Stores>('/api/staff/stores', form({ store_id: 'demo-expo' }));
    expect(taken.status).toBe(409);
    expect(taken.body.error.fields?.store_id).toBe(STORE_ID_TAKEN);

    // Created with the price list of demo-expo copied.
    const created = await staff.post<Stores>('/api/staff/stores', form({ copy_prices_from: expo.id }));
    expect(created.status).toBe(201);
    expect(created.body.stores).toHaveLength(5);
    expect(created.body.store).toMatchObject({
      store_id: 'spring-expo',
      bcc: 'ops@example.com',
      products: expo.products,
      is_active: true,
      is_archived: false,
    });
    const id = created.body.store!.id;
    const exhibitor = new Exhibitor(t!);
    const [copied, original] = await Promise.all([
      exhibitor.store('spring-expo'),
      exhibitor.store('demo-expo'),
    ]);
    expect(copied.body.store.products.map((p) => [p.id, p.price])).toEqual(
      original.body.store.products.map((p) => [p.id, p.price]),
    );

    // Renaming onto another store's slug is refused; the store keeps its own.
    const clash = await staff.put<Stores>(`/api/staff/stores/${id}`, form({ store_id: 'demo-late' }));
    expect(clash.status).toBe(409);
    const edited = await staff.put<Stores>(`/api/staff/stores/${id}`, form({ name: 'Spring Expo 2031' }));
    expect(edited.status).toBe(200);
    expect(edited.body.store?.name).toBe('Spring Expo 2031');

    // Deactivating takes it out of the exhibitor selector.
    const selector = async () =>
      (await exhibitor.get<{ stores: { store_id: string }[] }>('/api/stores')).body.stores.map(
        (s) => s.store_id,
      );
    expect(await selector()).toContain('spring-expo');
    const off = await staff.post<Stores>(`/api/staff/stores/${id}/active`, { is_active: false });
    expect(storeOf(off.body, 'spring-expo')?.is_active).toBe(false);
    expect(await selector()).not.toContain('spring-expo');

    // Only an archived store may be deleted.
    expect((await staff.call<Stores>('DELETE', `/api/staff/stores/${id}`)).status).toBe(409);
    const archived = await staff.post<Stores>(`/api/staff/stores/${id}/archive`, { is_archived: true });
    expect(
      archived.body.stores
        .filter((s) => s.is_archived)
        .map((s) => s.store_id)
        .sort(),
    ).toEqual(['demo-archived', 'spring-expo']);
    const deleted = await staff.call<Stores>('DELETE', `/api/staff/stores/${id}`);
    expect(deleted.status).toBe(200);
    expect(storeOf(deleted.body, 'spring-expo')).toBeUndefined();
    expect(await t!.db.models.StorePrice.count({ where: { storeId: id } })).toBe(0);

    // The audit log has every change, newest first, filterable by store.
    const audit = await staff.get<{
      entries: { action: string; actor: { name: string } | null; storeId: number }[];
    }>(`/api/staff/audit?store=${id}`);
    expect(audit.body.entries.map((e) => e.action)).toEqual([
      'store_delete',
      'store_archive',
      'store_deactivate',
      'store_update',
      'store_create',
    ]);
    expect(audit.body.entries.every((e) => e.actor?.name === 'Grace Hopper' && e.storeId === id)).toBe(true);
  });

  it('refuses to delete a store that has orders: archive it instead', async () => {
    const { staff } = await start(dialect);
    const exhibitor = new Exhibitor(t!);
    const { body } = await exhibitor.store();
    await exhibitor.checkout([{ productId: body.store.products[0]!.id, count: 1 }]);
    const expo = storeOf((await staff.get<Stores>('/api/staff/stores')).body, 'demo-expo')!;
    expect(expo.orders).toBe(1);
    await staff.post(`/api/staff/stores/${expo.id}/archive`, { is_archived: true });
    const refused = await staff.call<Stores>('DELETE', `/api/staff/stores/${expo.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'store_has_orders', message: STORE_HAS_ORDERS });
    expect(await t!.db.models.Store.count({ where: { id: expo.id } })).toBe(1);
  });

  it('edits products and prices as the store page shows them', async () => {
    const { staff } = await start(dialect);
    const stores = (await staff.get<Stores>('/api/staff/stores')).body;
    const expo = storeOf(stores, 'demo-expo')!;
    type Products = { products: { id: number; name: string; sort_order: number; is_active: boolean }[] };
    const created = await staff.post<Products>('/api/staff/products', {
      name: 'Laser pointer',
      description: 'Green, 5 mW',
    });
    expect(created.status).toBe(201);
    const laser = created.body.products.find((p) => p.name === 'Laser pointer')!;

    const prices = (
      await staff.get<{ prices: { product_id: number; unit_amount: number }[] }>(
        `/api/staff/stores/${expo.id}/prices`,
      )
    ).body.prices;
    const next = [
      ...prices.map((p, i) => ({ product_id: p.product_id, unit_amount: i === 0 ? 12_345 : p.unit_amount })),
      { product_id: laser.id, unit_amount: 2_500 },
    ];
    expect((await staff.put(`/api/staff/stores/${expo.id}/prices`, { prices: next })).status).toBe(200);
    const bad = await staff.put<ErrorJson>(`/api/staff/stores/${expo.id}/prices`, {
      prices: [{ product_id: laser.id, unit_amount: -1 }],
    });
    expect(bad.status).toBe(400);

    // Laser first, then the rest.
    const ids = [laser.id, ...created.body.products.filter((p) => p.id !== laser.id).map((p) => p.id)];
    expect((await staff.post('/api/staff/products/reorder', { ids })).status).toBe(200);

    const exhibitor = new Exhibitor(t!);
    let page = (await exhibitor.store()).body.store;
    expect(page.products[0]).toMatchObject({ id: laser.id, name: 'Laser pointer', price: 2_500 });
    expect(page.products.find((p) => p.id === prices[0]!.product_id)?.price).toBe(12_345);

    // Deactivated: off the store page, still in the staff list.
    await staff.put(`/api/staff/products/${laser.id}`, { name: 'Laser pointer', is_active: false });
    page = (await exhibitor.store()).body.store;
    expect(page.products.map((p) => p.id)).not.toContain(laser.id);
    const actions = (await staff.get<{ entries: { action: string }[] }>('/api/staff/audit')).body.entries.map(
      (e) => e.action,
    );
    expect(actions.slice(0, 4)).toEqual([
      'product_update',
      'product_reorder',
      'prices_update',
      'product_create',
    ]);
  });

  it('stores uploaded images under safe names, resizes product images and serves both', async () => {
    const { staff, app } = await start(dialect);
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#0d1b2a' } })
      .png()
      .toBuffer();
    const upload = (path: string, body: Buffer, type = 'image/png') =>
      fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': type, cookie: staff.cookieHeader()!, origin: app.url },
        body,
      });
    const store = await upload('/api/staff/store-images?name=../../Évent Logo!.PNG', png);
    expect(store.status).toBe(201);
    expect(await store.json()).toEqual({ image: 'event-logo.png', url: '/media/stores/event-logo.png' });
    const again = (await (await upload('/api/staff/store-images?name=event-logo.png', png)).json()) as {
      image: string;
    };
    expect(again.image).toBe('event-logo-2.png');
    const served = await fetch(`${app.url}/media/stores/event-logo.png`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    const product = await upload('/api/staff/product-images?name=mic.png', png);
    const body = (await product.json()) as { url: string; width: number; height: number };
    expect(body).toMatchObject({ width: 800, height: 450 });
    const resized = await fetch(`${app.url}${body.url}`);
    expect((await sharp(Buffer.from(await resized.arrayBuffer())).metadata()).format).toBe('webp');

    const notImage = await upload('/api/staff/store-images?name=x.png', Buffer.from('<svg onload=alert(1)>'));
    expect(notImage.status).toBe(415);
    expect(((await notImage.json()) as ErrorJson).error.message).toBe(IMAGE_NOT_AN_IMAGE);
    const tooBig = await upload('/api/staff/store-images?name=x.png', Buffer.alloc(6 * 1024 * 1024));
    expect(tooBig.status).toBe(413);

    // A PNG header that promises 6000×6000 pixels, followed by the data of a 1×1 image: it reads as a
    // PNG, but cannot be decoded.
    const broken = Buffer.from(
      await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    broken.writeUInt32BE(6000, 16);
    broken.writeUInt32BE(6000, 20);
    const undecodable = await upload('/api/staff/product-images?name=broken.png', broken);
    expect(undecodable.status).toBe(415);
    expect(((await undecodable.json()) as ErrorJson).error.message).toBe(IMAGE_NOT_AN_IMAGE);
  });

  it('takes as a store Image only one of the store images, and lists them', async () => {
    const { staff, app } = await start(dialect);
    const refused = await staff.post<Stores>('/api/staff/stores', form({ image: 'qa-logo.png' }));
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields?.image).toBe(storeImageUnknown('qa-logo.png'));
    expect((await staff.get<{ images: string[] }>('/api/staff/store-images')).body).toEqual({ images: [] });

    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#f4a261' } })
      .png()
      .toBuffer();
    const uploaded = await fetch(`${app.url}/api/staff/store-images?name=qa-logo.png`, {
      method: 'POST',
      headers: { 'content-type': 'image/png', cookie: staff.cookieHeader()!, origin: app.url },
      body: png,
    });
    expect(uploaded.status).toBe(201);
    expect((await staff.get<{ images: string[] }>('/api/staff/store-images')).body).toEqual({
      images: ['qa-logo.png'],
    });
    const created = await staff.post<Stores>('/api/staff/stores', form({ image: 'qa-logo.png' }));
    expect(created.status).toBe(201);
    const id = created.body.store!.id;
    const renamed = await staff.put<Stores>(`/api/staff/stores/${id}`, form({ image: 'qa-logo-2.png' }));
    expect(renamed.status).toBe(400);
    expect(renamed.body.error.fields?.image).toBe(storeImageUnknown('qa-logo-2.png'));
    expect((await staff.put<Stores>(`/api/staff/stores/${id}`, form({ image: '' }))).status).toBe(200);
  });

  it('lists orders with their lines, exports CSV rows per line, the pull sheet, and resends the e-mail', async () => {
    const { staff } = await start(dialect);
    const exhibitor = new Exhibitor(t!);
    const { body } = await exhibitor.store();
    const [a, b] = body.store.products;
    const { intent } = await exhibitor.checkout([
      { productId: a!.id, count: 2 },
      { productId: b!.id, count: 1 },
    ]);
    // An abandoned (pending) order is not in the default list.
    await exhibitor.createIntent({ cart: [{ productId: a!.id, count: 1 }] });

    type Orders = { orders: { id: string; status: string; company: string; total: number }[] };
    const list = await staff.get<Orders>('/api/staff/orders');
    expect(list.body.orders.map((o) => [o.id, o.status, o.company])).toEqual([
      [intent.orderId, 'paid', 'Acme Widgets'],
    ]);
    expect((await staff.get<Orders>('/api/staff/orders?status=all')).body.orders).toHaveLength(2);
    expect((await staff.get<Orders>('/api/staff/orders?from=2000-01-01&to=2000-01-02')).body.orders).toEqual(
      [],
    );
    expect((await staff.get<ErrorJson>('/api/staff/orders?status=bogus')).status).toBe(400);

    const detail = await staff.get<{
      order: { lines: { name: string; quantity: number }[]; refundable: number };
    }>(`/api/staff/orders/${intent.orderId}`);
    expect(detail.body.order.lines.map((l) => [l.name, l.quantity])).toEqual([
      [a!.name, 2],
      [b!.name, 1],
    ]);
    expect(detail.body.order.refundable).toBe(intent.total);

    const csv = await fetch(`${t!.url}/api/staff/orders.csv`, { headers: { cookie: staff.cookieHeader()! } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(
      /^attachment; filename=orders-\d{4}-\d\d-\d\d\.csv$/,
    );
    const rows = parseCsv(await csv.text());
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const column = (name: string) => CSV_COLUMNS.indexOf(name as (typeof CSV_COLUMNS)[number]);
    expect(
      rows.slice(1).map((r) => [r[column('product')], r[column('quantity')], r[column('booth')]]),
    ).toEqual([
      [a!.name, '2', '1142'],
      [b!.name, '1', '1142'],
    ]);

    const expo = storeOf((await staff.get<Stores>('/api/staff/stores')).body, 'demo-expo')!;
    const sheet = await staff.get<{ days: { date: string; items: { name: string; quantity: number }[] }[] }>(
      `/api/staff/stores/${expo.id}/pull-sheet`,
    );
    expect(sheet.body.days).toEqual([
      expect.objectContaining({
        date: body.store.start_date,
        items: expect.arrayContaining([
          { product_id: a!.id, name: a!.name, quantity: 2, paid: 2, held: 0 },
          { product_id: b!.id, name: b!.name, quantity: 1, paid: 1, held: 0 },
        ]),
      }),
    ]);

    const mails = () => t!.db.models.MailOutbox.count();
    const before = await mails();
    const resent = await staff.post(`/api/staff/orders/${intent.orderId}/resend-confirmation`);
    expect(resent.status).toBe(202);
    expect(await mails()).toBe(before + 1);
  });

  it('refunds through the test gateway, partially then fully, each request recorded once', async () => {
    const { staff } = await start(dialect);
    const exhibitor = new Exhibitor(t!);
    const { body } = await exhibitor.store();
    const { intent } = await exhibitor.checkout([{ productId: body.store.products[0]!.id, count: 1 }]);
    const total = intent.total;
    const refund = (amount: number, key: string) =>
      staff.post<{ replayed: boolean; order: { status: string; refunded_amount: number } } & ErrorJson>(
        `/api/staff/orders/${intent.orderId}/refunds`,
        { amount, reason: 'Monitor arrived late', key },
      );

    // The same request three times at once and once more: one refund.
    const first = await Promise.all([
      refund(1_000, 'refund-key-1'),
      refund(1_000, 'refund-key-1'),
      refund(1_000, 'refund-key-1'),
    ]);
    expect(first.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    const again = await refund(1_000, 'refund-key-1');
    expect(again.body).toMatchObject({
      replayed: true,
      order: { status: 'partially_refunded', refunded_amount: 1_000 },
    });
    expect((await refund(2_000, 'refund-key-1')).body.error?.message).toBe(REFUND_KEY_REUSED);

    const tooMuch = await refund(total, 'refund-key-2');
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.fields?.amount).toBe(REFUND_TOO_LARGE);
    const rest = await refund(total - 1_000, 'refund-key-3');
    expect(rest.status).toBe(201);
    expect(rest.body.order).toMatchObject({ status: 'refunded', refunded_amount: total });
    expect((await refund(1, 'refund-key-4')).status).toBe(409);

    expect(await t!.db.models.OrderRefund.count({ where: { status: 'succeeded' } })).toBe(2);
    const audit = await t!.db.models.AuditLog.count({ where: { action: 'order_refund' } });
    expect(audit).toBe(2);
  });

  it('refunds through Stripe (its local stand-in) with an idempotency key', async () => {
    standIn = await new StripeStandIn().start();
    const { staff } = await start(dialect, {
      STRIPE_SECRET_KEY: 'sk_test_server0123456789',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_server0123456789',
      STRIPE_WEBHOOK_SECRET: 'whsec_test_0123456789abcdef',
      STRIPE_API_URL: standIn.url,
    });
    const exhibitor = new Exhibitor(t!);
    const { body } = await exhibitor.store();
    const cart = [{ productId: body.store.products[0]!.id, count: 1 }];
    const created = await exhibitor.createIntent({ cart });
    const { customerFor } = await import('./helpers/store.js');
    await exhibitor.updateIntent(created.body, { cart, customer: customerFor(body.store) });
    standIn.succeed(created.body.intentID);
    expect((await exhibitor.confirm(created.body)).body.status).toBe('paid');

    const refund = () =>
      staff.post<{ order: { refunds: { gateway_refund_id: string }[] } } & ErrorJson>(
        `/api/staff/orders/${created.body.orderId}/refunds`,
        { amount: 500, reason: 'Duplicate cable', key: 'stripe-key-1' },
      );
    const done = await refund();
    expect(done.status).toBe(201);
    expect(done.body.order.refunds[0]?.gateway_refund_id).toMatch(/^re_standin/);
    expect((await refund()).status).toBe(200);
    const calls = standIn.calls('POST', '/v1/refunds');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.form).toMatchObject({ amount: '500', payment_intent: created.body.intentID });
    expect(calls[0]?.headers['idempotency-key']).toBe(`refund-${created.body.orderId}-stripe-key-1`);
  });
});

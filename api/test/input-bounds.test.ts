import sharp from 'sharp';
import {
  COMPANY_MAX,
  EMAIL_MAX,
  LONG_TEXT_MAX,
  NAME_LONG_MAX,
  NAME_MAX,
  TEXT_HAS_NUL,
  TITLE_MAX,
  tooManyCharacters,
} from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import type { CallResult } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { customerFor, Exhibitor, seeded } from './helpers/store.js';
import { signedInStaff } from './helpers/staff.js';

/**
 * Every text a caller sends is bounded before it reaches the database: over its column's size it is a 400
 * with the field's message (PostgreSQL would refuse it with a 500; SQLite would store it whole), and so is a
 * NUL (PostgreSQL refuses it in any text; SQLite's Sequelize quoting breaks on it). At the bound it is
 * stored. Lengths are characters: half of each test text is astral (two UTF-16 units per character).
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function textOf(n: number): string {
  return '𝒜'.repeat(Math.floor(n / 2)) + 'a'.repeat(n - Math.floor(n / 2));
}

function emailOf(n: number): string {
  return `${'a'.repeat(n - '@example.com'.length)}@example.com`;
}

type Answer = CallResult<{ error?: { code: string; fields?: Record<string, string> } }>;

function expectRefused(res: Answer, field: string, message: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error?.code).toBe('validation_failed');
  expect(res.body.error?.fields?.[field]).toBe(message);
}

describe.each(DIALECTS)('text bounds on %s: the database never sees a value it would refuse', (dialect) => {
  it('registration and the account update', async () => {
    t = await startTestApp({ dialect });
    const browser = new TestBrowser(t.url);
    const register = (overrides: Record<string, unknown>) =>
      browser.post('/api/auth/register', registration(overrides));

    expectRefused(
      await register({ firstname: textOf(NAME_MAX + 1) }),
      'firstname',
      tooManyCharacters(NAME_MAX),
    );
    expectRefused(
      await register({ lastname: textOf(NAME_MAX + 1) }),
      'lastname',
      tooManyCharacters(NAME_MAX),
    );
    expectRefused(
      await register({ company: textOf(COMPANY_MAX + 1) }),
      'company',
      tooManyCharacters(COMPANY_MAX),
    );
    expectRefused(await register({ email: emailOf(EMAIL_MAX + 1) }), 'email', tooManyCharacters(EMAIL_MAX));
    expectRefused(await register({ company: 'Analytical\u0000Engines' }), 'company', TEXT_HAS_NUL);
    expect(await t.db.models.User.count()).toBe(0);

    const full = {
      email: emailOf(EMAIL_MAX),
      firstname: textOf(NAME_MAX),
      lastname: textOf(NAME_MAX),
      company: textOf(COMPANY_MAX),
    };
    expect((await register(full)).status).toBe(201);
    expect(await t.db.models.User.findOne()).toMatchObject({
      email: full.email,
      firstName: full.firstname,
      lastName: full.lastname,
      company: full.company,
    });

    const update = (overrides: Record<string, unknown>) =>
      browser.put('/api/account', { ...registration(full), password: '', confirmPassword: '', ...overrides });
    expectRefused(
      await update({ company: textOf(COMPANY_MAX + 1) }),
      'company',
      tooManyCharacters(COMPANY_MAX),
    );
    expectRefused(await update({ firstname: 'Ada\u0000' }), 'firstname', TEXT_HAS_NUL);
    expect((await update({ lastname: 'King' })).status).toBe(200);
  });

  it('sign-in and forgot password answer a NUL or an over-long address with 400, never 500', async () => {
    t = await startTestApp({ dialect });
    const browser = new TestBrowser(t.url);
    for (const path of ['/api/auth/login', '/api/auth/forgot-password']) {
      expectRefused(
        await browser.post(path, { email: 'ada\u0000@example.com', password: 'whatever!' }),
        'email',
        TEXT_HAS_NUL,
      );
      expectRefused(
        await browser.post(path, { email: emailOf(EMAIL_MAX + 1), password: 'whatever!' }),
        'email',
        tooManyCharacters(EMAIL_MAX),
      );
    }
  });

  it('the contact form, and the address it records', async () => {
    t = await startTestApp({ dialect, env: { TRUST_PROXY: 'true' } });
    const browser = new TestBrowser(t.url);
    const valid = {
      firstname: 'Dana',
      lastname: 'Okafor',
      email: 'dana@example.com',
      message: 'Two LED walls, please.',
    };
    const send = (overrides: Record<string, unknown>, headers: Record<string, string> = {}) =>
      browser.post('/api/contact', { ...valid, ...overrides }, headers);

    expectRefused(await send({ title: textOf(TITLE_MAX + 1) }), 'title', tooManyCharacters(TITLE_MAX));
    expectRefused(await send({ firstname: textOf(NAME_MAX + 1) }), 'firstname', tooManyCharacters(NAME_MAX));
    expectRefused(await send({ email: emailOf(EMAIL_MAX + 1) }), 'email', tooManyCharacters(EMAIL_MAX));
    expectRefused(await send({ message: 'a\u0000b' }), 'message', TEXT_HAS_NUL);
    expect(await t.db.models.ContactMessage.count()).toBe(0);

    const full = {
      firstname: textOf(NAME_MAX),
      lastname: textOf(NAME_MAX),
      email: emailOf(EMAIL_MAX),
      company: textOf(COMPANY_MAX),
      title: textOf(TITLE_MAX),
    };
    // A proxy passes on whatever the client claimed to be; the column keeps 64 characters of it.
    const res = await send(full, { 'x-forwarded-for': `${'f'.repeat(100)}, 127.0.0.1` });
    expect(res.status).toBe(201);
    expect(await t.db.models.ContactMessage.findOne()).toMatchObject({
      firstName: full.firstname,
      email: full.email,
      company: full.company,
      title: full.title,
      ip: 'f'.repeat(64),
    });
  });

  it('the checkout form', async () => {
    t = await startTestApp({ dialect });
    await seeded(t);
    const exhibitor = new Exhibitor(t);
    const { body } = await exhibitor.store();
    const cart = [{ productId: body.store.products[0]!.id, count: 1 }];
    const created = await exhibitor.createIntent({ cart });
    const customer = customerFor(body.store);
    const submit = (overrides: Record<string, unknown>) =>
      exhibitor.updateIntent(created.body, { cart, customer: { ...customer, ...overrides } });

    expectRefused(
      await submit({ company: textOf(COMPANY_MAX + 1) }),
      'customer.company',
      tooManyCharacters(COMPANY_MAX),
    );
    expectRefused(
      await submit({ email: emailOf(EMAIL_MAX + 1) }),
      'customer.email',
      tooManyCharacters(EMAIL_MAX),
    );
    expectRefused(await submit({ booth: '11\u000042' }), 'customer.booth', TEXT_HAS_NUL);

    const ok = await submit({ company: textOf(COMPANY_MAX), email: emailOf(EMAIL_MAX) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await t.db.models.Order.findByPk(created.body.orderId))?.email).toBe(emailOf(EMAIL_MAX));
  });

  it('a store id with a NUL in the address is no store', async () => {
    t = await startTestApp({ dialect });
    await seeded(t);
    const browser = new TestBrowser(t.url);
    expect((await browser.get('/api/stores/demo%00expo')).status).toBe(404);
    expect((await browser.post('/api/stores/demo%00expo/payment-intents', { cart: [] })).status).toBe(400);
    expect(
      (await browser.post('/api/stores/demo%00expo/payment-intents', { cart: [{ productId: 1, count: 1 }] }))
        .status,
    ).toBe(404);
    expect((await browser.get(`/api/stores/${'x'.repeat(300)}`)).status).toBe(404);
  });

  it('the staff store and product forms, a refund reason and image names', async () => {
    t = await startTestApp({ dialect });
    await seeded(t);
    const { staff } = await signedInStaff(t);
    const store = {
      name: 'Spring Expo',
      store_id: 'spring-expo',
      deadline: '2031-03-01',
      start_date: '2031-03-10',
      end_date: '2031-03-12',
    };
    const createStore = (overrides: Record<string, unknown>) =>
      staff.post('/api/staff/stores', { ...store, ...overrides });
    expectRefused(
      await createStore({ name: textOf(NAME_LONG_MAX + 1) }),
      'name',
      tooManyCharacters(NAME_LONG_MAX),
    );
    expectRefused(
      await createStore({ store_text: textOf(LONG_TEXT_MAX + 1) }),
      'store_text',
      tooManyCharacters(LONG_TEXT_MAX),
    );
    expectRefused(await createStore({ email_text: 'See you\u0000there' }), 'email_text', TEXT_HAS_NUL);
    const created = await createStore({ name: textOf(NAME_LONG_MAX), store_text: textOf(LONG_TEXT_MAX) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const product = (overrides: Record<string, unknown>) =>
      staff.post('/api/staff/products', { name: 'Monitor', description: '', ...overrides });
    expectRefused(
      await product({ name: textOf(NAME_LONG_MAX + 1) }),
      'name',
      tooManyCharacters(NAME_LONG_MAX),
    );
    expectRefused(
      await product({ description: textOf(LONG_TEXT_MAX + 1) }),
      'description',
      tooManyCharacters(LONG_TEXT_MAX),
    );
    expectRefused(await product({ name: 'Mon\u0000itor' }), 'name', TEXT_HAS_NUL);
    expect((await product({ name: textOf(NAME_LONG_MAX), description: textOf(LONG_TEXT_MAX) })).status).toBe(
      201,
    );

    const exhibitor = new Exhibitor(t);
    const { body } = await exhibitor.store();
    const { intent } = await exhibitor.checkout([{ productId: body.store.products[0]!.id, count: 1 }]);
    const refund = await staff.post(`/api/staff/orders/${intent.orderId}/refunds`, {
      amount: 100,
      reason: 'Late\u0000delivery',
      key: 'refund-key-1',
    });
    expectRefused(refund, 'reason', TEXT_HAS_NUL);

    // The audit log names an uploaded image in a 64-character column, whatever the browser called it.
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0d1b2a' } })
      .png()
      .toBuffer();
    const upload = (path: string) =>
      fetch(`${t!.url}${path}?name=${'long-name-'.repeat(12)}.png`, {
        method: 'POST',
        headers: { 'content-type': 'image/png', cookie: staff.cookieHeader()!, origin: t!.url },
        body: png,
      });
    for (const path of ['/api/staff/store-images', '/api/staff/product-images']) {
      for (let i = 0; i < 2; i++) {
        const res = await upload(path);
        expect(res.status, await res.clone().text()).toBe(201);
      }
    }
  });

  it('an upload file registration', async () => {
    t = await startTestApp({ dialect });
    const browser = new TestBrowser(t.url);
    expect((await browser.post('/api/auth/register', registration())).status).toBe(201);
    const created = await browser.post<{ submission: { id: string } }>('/api/uploads/submissions', {
      form_type: 'sponsor',
      event_name: 'Expo',
      sponsor_company: textOf(NAME_LONG_MAX),
    });
    expect(created.status).toBe(201);
    const files = `/api/uploads/submissions/${created.body.submission.id}/files`;
    expectRefused(
      await browser.post(files, { name: 'clip.mov', size: 10, type: 'video/\u0000' }),
      'type',
      TEXT_HAS_NUL,
    );
    expectRefused(
      await browser.post('/api/uploads/submissions', {
        form_type: 'sponsor',
        event_name: 'Expo',
        sponsor_company: textOf(NAME_LONG_MAX + 1),
      }),
      'sponsor_company',
      tooManyCharacters(NAME_LONG_MAX),
    );
  });
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { addDays, dateInZone, startOfDayIn } from '@avp/shared';
import type { PublicStore, StaffStore } from '@avp/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSession } from '../src/modules/accounts/sessions.js';
import { sessionCookieName } from '../src/modules/accounts/index.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { startPeerApp, startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { DIALECTS, TEST_SECRET } from './helpers/env.js';
import { TestBrowser } from './helpers/browser.js';
import { seeded } from './helpers/store.js';

/**
 * The store page's data call as browsers revalidate it (ETag, If-None-Match, 304) and as two API processes
 * on one database serve it: every staff change to what the page shows, made through its real route on one
 * process, shows at once on that process and on the other; an old ETag then gets the new answer and the
 * current one a bodiless 304. Crossing the deadline or the cut-off changes the answer with no edit at all.
 */

const API_DIR = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

let t: TestApp | undefined;
let peer: Awaited<ReturnType<typeof startPeerApp>> | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await peer?.close();
  await t?.close();
  peer = undefined;
  t = undefined;
});

const STAFF = {
  email: 'grace@example.com',
  password: 'Staff passphrase 9',
  firstName: 'Grace',
  lastName: 'Hopper',
};

interface Look {
  status: number;
  etag: string | null;
  cacheControl: string | null;
  text: string;
  store: PublicStore;
}

async function look(url: string, storeId = 'demo-expo', etag?: string): Promise<Look> {
  const res = await fetch(`${url}/api/stores/${storeId}`, {
    headers: etag === undefined ? {} : { 'if-none-match': etag },
  });
  const text = await res.text();
  const store = res.status === 200 ? (JSON.parse(text) as { store: PublicStore }).store : undefined;
  return {
    status: res.status,
    etag: res.headers.get('etag'),
    cacheControl: res.headers.get('cache-control'),
    text,
    store: store as PublicStore,
  };
}

async function start(dialect: (typeof DIALECTS)[number]) {
  t = await startTestApp({ dialect });
  await seeded(t);
  peer = await startPeerApp(t);
  const { user } = await upsertStaffAccount(t.db, STAFF);
  const { token } = await createSession(t.db, t.config, user.id, {
    ip: null,
    userAgent: null,
    via: 'cookie',
  });
  const staff = new TestBrowser(t.url);
  staff.cookies.set(sessionCookieName(t.config), token);
  const stores = (await staff.get<{ stores: StaffStore[] }>('/api/staff/stores')).body.stores;
  const idOf = (storeId: string) => stores.find((s) => s.store_id === storeId)!.id;
  return { app: t, urls: [t.url, peer.url], staff, stores, idOf };
}

/** Both processes answer and hold the store; both give the same ETag for the same answer. */
async function seen(urls: string[], storeId = 'demo-expo'): Promise<Look> {
  const [first, second] = [await look(urls[0]!, storeId), await look(urls[1]!, storeId)];
  expect(first.status).toBe(200);
  expect(second.etag).toBe(first.etag);
  expect(second.text).toBe(first.text);
  return first;
}

/**
 * On each process: the old ETag gets 200 with the changed answer (checked by `check`), and the new ETag a
 * 304 with no body. Answers the changed store.
 */
async function expectChanged(
  urls: string[],
  before: Look,
  check: (store: PublicStore) => void,
  storeId = 'demo-expo',
): Promise<Look> {
  let changed: Look | undefined;
  for (const url of urls) {
    const now = await look(url, storeId, before.etag!);
    expect(now.status).toBe(200);
    expect(now.etag).not.toBe(before.etag);
    check(now.store);
    if (changed) expect(now.etag).toBe(changed.etag);
    changed = now;
    const again = await look(url, storeId, now.etag!);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  }
  return changed!;
}

function formOf(store: StaffStore, overrides: Record<string, unknown> = {}) {
  return {
    name: store.name,
    store_id: store.store_id,
    image: store.image ?? '',
    deadline: store.deadline,
    order_cutoff: store.order_cutoff ?? '',
    start_date: store.start_date,
    end_date: store.end_date,
    bcc: store.bcc,
    email_text: store.email_text,
    store_text: store.store_text,
    is_active: store.is_active,
    is_archived: store.is_archived,
    ...overrides,
  };
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe.each(DIALECTS)('the store page data on %s, held in memory by each process', (dialect) => {
  it('answers with a strong ETag and no-cache; the same ETag back is a bodiless 304, another one a 200', async () => {
    const { urls } = await start(dialect);
    const first = await seen(urls);
    expect(first.etag).toMatch(/^"[\w-]+"$/);
    expect(first.cacheControl).toBe('no-cache');
    expect(first.store).toMatchObject({ store_id: 'demo-expo', closed: false, early_bird: true });

    const repeat = await look(urls[0]!, 'demo-expo', first.etag!);
    expect(repeat).toMatchObject({ status: 304, text: '', etag: first.etag, cacheControl: 'no-cache' });
    const other = await look(urls[0]!, 'demo-expo', '"something-else"');
    expect(other.status).toBe(200);
    expect(other.text).toBe(first.text);

    const late = await look(urls[1]!, 'demo-late');
    expect(late.store).toMatchObject({ closed: true, early_bird: false });
    expect(late.etag).not.toBe(first.etag);
    expect((await look(urls[0]!, 'no-such-store')).status).toBe(404);
  });

  it('a store edit (PUT /api/staff/stores/:id) shows at once on both processes', async () => {
    const { urls, staff, stores, idOf } = await start(dialect);
    const before = await seen(urls);
    const expo = stores.find((s) => s.store_id === 'demo-expo')!;
    const edit = await staff.put(
      `/api/staff/stores/${idOf('demo-expo')}`,
      formOf(expo, { name: 'Renamed Expo', store_text: 'Hall C this year' }),
    );
    expect(edit.status).toBe(200);
    await expectChanged(urls, before, (store) =>
      expect(store).toMatchObject({ name: 'Renamed Expo', store_text: 'Hall C this year' }),
    );
  });

  it('an edit is seen by the first request after it, even while that process is answering many others', async () => {
    const { urls, staff, stores, idOf } = await start(dialect);
    const expo = stores.find((s) => s.store_id === 'demo-expo')!;
    let busy = true;
    const hammer = async () => {
      while (busy) await look(urls[1]!);
    };
    const hammers = Array.from({ length: 8 }, hammer);
    try {
      for (let round = 1; round <= 5; round++) {
        const text = `Round ${round}`;
        expect(
          (await staff.put(`/api/staff/stores/${idOf('demo-expo')}`, formOf(expo, { store_text: text })))
            .status,
        ).toBe(200);
        expect((await look(urls[1]!)).store.store_text).toBe(text);
      }
    } finally {
      busy = false;
      await Promise.all(hammers);
    }
  });

  it('the Active toggle and the Archive button close and reopen the store on both processes', async () => {
    const { urls, staff, idOf } = await start(dialect);
    const id = idOf('demo-expo');
    const open = await seen(urls);
    expect((await staff.post(`/api/staff/stores/${id}/active`, { is_active: false })).status).toBe(200);
    const inactive = await expectChanged(urls, open, (store) =>
      expect(store).toMatchObject({ is_active: false, closed: true }),
    );
    expect((await staff.post(`/api/staff/stores/${id}/active`, { is_active: true })).status).toBe(200);
    const reopened = await expectChanged(urls, inactive, (store) =>
      expect(store).toMatchObject({ is_active: true, closed: false }),
    );
    // The same answer as before the toggles: the same bytes, so the first ETag is current again.
    expect(reopened.etag).toBe(open.etag);

    expect((await staff.post(`/api/staff/stores/${id}/archive`, { is_archived: true })).status).toBe(200);
    await expectChanged(urls, reopened, (store) =>
      expect(store).toMatchObject({ is_archived: true, closed: true }),
    );
  });

  it('a price list change (PUT /api/staff/stores/:id/prices) shows at once on both processes', async () => {
    const { urls, staff, idOf } = await start(dialect);
    const before = await seen(urls);
    const [first, second, ...rest] = before.store.products;
    const prices = [
      { product_id: first!.id, unit_amount: 12_345 },
      ...rest.map((p) => ({ product_id: p.id, unit_amount: p.price })),
    ];
    const edit = await staff.put(`/api/staff/stores/${idOf('demo-expo')}/prices`, { prices });
    expect(edit.status).toBe(200);
    await expectChanged(urls, before, (store) => {
      expect(store.products.find((p) => p.id === first!.id)?.price).toBe(12_345);
      expect(store.products.map((p) => p.id)).not.toContain(second!.id);
    });
  });

  it('a product edit (PUT /api/staff/products/:id) shows at once in every store that sells it', async () => {
    const { urls, staff } = await start(dialect);
    const expo = await seen(urls);
    const late = await seen(urls, 'demo-late');
    const product = expo.store.products[0]!;
    const edit = await staff.put(`/api/staff/products/${product.id}`, {
      name: 'Monitor, 55 inch',
      description: 'Now with a longer cable.',
      images: product.images,
      is_active: true,
    });
    expect(edit.status).toBe(200);
    const renamed = (store: PublicStore) =>
      expect(store.products.find((p) => p.id === product.id)).toMatchObject({
        name: 'Monitor, 55 inch',
        description: 'Now with a longer cable.',
      });
    const edited = await expectChanged(urls, expo, renamed);
    await expectChanged(urls, late, renamed, 'demo-late');

    await staff.put(`/api/staff/products/${product.id}`, { name: 'Monitor, 55 inch', is_active: false });
    await expectChanged(urls, edited, (store) =>
      expect(store.products.map((p) => p.id)).not.toContain(product.id),
    );
  });

  it('a new product order (POST /api/staff/products/reorder) shows at once on both processes', async () => {
    const { urls, staff } = await start(dialect);
    const before = await seen(urls);
    const all = (await staff.get<{ products: { id: number }[] }>('/api/staff/products')).body.products;
    const ids = all.map((p) => p.id).reverse();
    expect((await staff.post('/api/staff/products/reorder', { ids })).status).toBe(200);
    await expectChanged(urls, before, (store) =>
      expect(store.products.map((p) => p.id)).toEqual(before.store.products.map((p) => p.id).reverse()),
    );
  });

  it('a deleted store is gone from both processes, and a new store under its address is the new one', async () => {
    const { urls, staff, stores, idOf } = await start(dialect);
    const old = await seen(urls, 'demo-archived');
    const deleted = await staff.call('DELETE', `/api/staff/stores/${idOf('demo-archived')}`);
    expect(deleted.status).toBe(200);
    for (const url of urls) {
      const gone = await look(url, 'demo-archived', old.etag!);
      expect(gone.status).toBe(404);
    }
    const archived = stores.find((s) => s.store_id === 'demo-archived')!;
    const created = await staff.post('/api/staff/stores', {
      ...formOf(archived, { name: 'Second Conference', is_archived: false }),
      copy_prices_from: idOf('demo-expo'),
    });
    expect(created.status).toBe(201);
    await expectChanged(
      urls,
      old,
      (store) => expect(store).toMatchObject({ name: 'Second Conference', is_archived: false }),
      'demo-archived',
    );
  });

  it('the legacy staff calls (updateStore.php, deleteStore.php) show at once on both processes', async () => {
    const { urls, stores, idOf } = await start(dialect);
    await upsertStaffAccount(t!.db, STAFF);
    const login = await fetch(`${urls[0]}/api/login.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: STAFF.email, password: b64(STAFF.password) }),
    });
    const { token } = (await login.json()) as { token: string };
    const legacy = (call: string, body: unknown) =>
      fetch(`${urls[0]}/api/${call}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });

    const before = await seen(urls);
    const expo = stores.find((s) => s.store_id === 'demo-expo')!;
    const form = formOf(expo, {
      id: idOf('demo-expo'),
      store_text: b64('Orders close at the deadline.'),
      email_text: b64(expo.email_text),
      bcc: b64(expo.bcc),
    });
    expect((await legacy('updateStore.php', form)).status).toBe(200);
    await expectChanged(urls, before, (store) =>
      expect(store.store_text).toBe('Orders close at the deadline.'),
    );

    const archived = await seen(urls, 'demo-archived');
    expect((await legacy('deleteStore.php', { storeId: 'demo-archived' })).status).toBe(200);
    for (const url of urls) expect((await look(url, 'demo-archived', archived.etag!)).status).toBe(404);
  });

  it('npm run seed:demo (the CLI) putting the demo store back shows at once on both processes', async () => {
    const { app, urls, staff, stores, idOf } = await start(dialect);
    const expo = stores.find((s) => s.store_id === 'demo-expo')!;
    const seededAnswer = await seen(urls);
    await staff.put(`/api/staff/stores/${idOf('demo-expo')}`, formOf(expo, { name: 'Someone Else’s Expo' }));
    const renamed = await expectChanged(urls, seededAnswer, (store) =>
      expect(store.name).toBe('Someone Else’s Expo'),
    );

    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: app.dataDir,
      SESSION_SECRET: TEST_SECRET,
      LOG_LEVEL: 'silent',
      TZ_STORE: app.config.TZ_STORE,
      ...(app.config.DATABASE_URL ? { DATABASE_URL: app.config.DATABASE_URL } : {}),
      ...(app.config.DB_SCHEMA ? { DB_SCHEMA: app.config.DB_SCHEMA } : {}),
    };
    const { stdout } = await run(process.execPath, [path.join('dist', 'cli', 'seed.js')], {
      cwd: API_DIR,
      env,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/1 rows created or updated/);
    const restored = await expectChanged(urls, renamed, (store) => expect(store.name).toBe(expo.name));
    expect(restored.etag).toBe(seededAnswer.etag);
    // The CLI starts a TypeScript process of its own: seconds on a busy machine.
  }, 90_000);

  it('crossing the deadline ends early-bird pricing, and crossing the cut-off closes the store, at that instant', async () => {
    const { app, urls, staff, stores, idOf } = await start(dialect);
    const tz = app.config.TZ_STORE;
    const today = dateInZone(new Date(), tz);
    const tomorrow = addDays(today, 1);
    // Early-bird pricing ends tonight; orders at the standard price are taken until tomorrow night.
    const expo = stores.find((s) => s.store_id === 'demo-expo')!;
    const edit = await staff.put(
      `/api/staff/stores/${idOf('demo-expo')}`,
      formOf(expo, { deadline: today, order_cutoff: tomorrow }),
    );
    expect(edit.status).toBe(200);
    const earlyBird = await seen(urls);
    expect(earlyBird.store).toMatchObject({ early_bird: true, closed: false });

    const tonight = startOfDayIn(tomorrow, tz).getTime();
    const tomorrowNight = startOfDayIn(addDays(tomorrow, 1), tz).getTime();
    vi.useFakeTimers({ toFake: ['Date'] });

    vi.setSystemTime(tonight - 1);
    for (const url of urls) expect((await look(url, 'demo-expo', earlyBird.etag!)).status).toBe(304);

    vi.setSystemTime(tonight);
    const standard = await expectChanged(urls, earlyBird, (store) =>
      expect(store).toMatchObject({ early_bird: false, closed: false }),
    );

    vi.setSystemTime(tomorrowNight - 1);
    for (const url of urls) expect((await look(url, 'demo-expo', standard.etag!)).status).toBe(304);

    vi.setSystemTime(tomorrowNight);
    await expectChanged(urls, standard, (store) =>
      expect(store).toMatchObject({ early_bird: false, closed: true }),
    );
    // The payment side judges the same instant the same way.
    const intent = await fetch(`${urls[1]}/api/stores/demo-expo/payment-intents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: urls[1]! },
      body: JSON.stringify({ cart: [{ productId: earlyBird.store.products[0]!.id, count: 1 }] }),
    });
    expect(intent.status).toBe(409);
  });
});

import type { StaffOverview } from '@avp/shared';
import { dateInZone } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { OVERVIEW_DATE, OVERVIEW_SPAN, OVERVIEW_STORE_REQUIRED } from '../src/modules/staff/overview.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { customerFor, Exhibitor, seeded } from './helpers/store.js';
import type { ErrorJson, StoreJson } from './helpers/store.js';
import { memorySource, nodeClient, sponsorForm } from './helpers/uploads.js';
import { signedInStaff } from './helpers/staff.js';

/**
 * GET /api/staff/overview through HTTP on each database: paid orders and their totals per day in TZ_STORE
 * (pending and failed ones left out), the early-bird share, top products by units, stock left, and the
 * files received per upload event per day; refusals in words. Who may call it: authorization-matrix.test.ts.
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

type Overview = StaffOverview & ErrorJson;

async function start(dialect: (typeof DIALECTS)[number]) {
  t = await startTestApp({ dialect, env: { TZ_STORE: 'America/New_York' } });
  await seeded(t);
  const { staff } = await signedInStaff(t);
  const expo = await t.db.models.Store.findOne({ where: { slug: 'demo-expo' } });
  return { app: t, staff, storeKey: expo!.id };
}

/** An order paid with the test gateway's good card; answers its id and total. */
async function paidOrder(app: TestApp, cart: { productId: number; count: number }[]) {
  const exhibitor = new Exhibitor(app);
  const store = (await exhibitor.store()).body.store;
  const intent = await exhibitor.createIntent({ cart });
  expect(intent.status).toBe(201);
  const updated = await exhibitor.updateIntent(intent.body, { cart, customer: customerFor(store) });
  expect(updated.status).toBe(200);
  const paid = await exhibitor.pay(intent.body);
  expect(paid.body.status).toBe('paid');
  return { orderId: intent.body.orderId, total: updated.body.total };
}

describe.each(DIALECTS)('staff overview on %s', (dialect) => {
  it('counts paid orders per day with their totals, the early-bird share, top products and stock left', async () => {
    const { app, staff, storeKey } = await start(dialect);
    const products: StoreJson['products'] = (await new Exhibitor(app).store()).body.store.products;
    const first = products[0]!;
    const second = products[1]!;
    const limit = await staff.put<ErrorJson>(`/api/staff/stores/${storeKey}/stock/${first.id}`, {
      limit: 10,
    });
    expect(limit.status).toBe(200);

    const a = await paidOrder(app, [{ productId: first.id, count: 3 }]);
    const b = await paidOrder(app, [
      { productId: second.id, count: 1 },
      { productId: first.id, count: 1 },
    ]);
    // Neither a pending order nor one moved outside the span counts.
    const pending = await new Exhibitor(app).createIntent({ cart: [{ productId: second.id, count: 5 }] });
    expect(pending.status).toBe(201);

    const answer = await staff.get<Overview>(`/api/staff/overview?storeId=${storeKey}`);
    expect(answer.status).toBe(200);
    const today = dateInZone(new Date(), 'America/New_York');
    const overview = answer.body;
    expect(overview.to).toBe(today);
    expect(overview.days).toHaveLength(30);
    expect(overview.days[0]!.date).toBe(overview.from);
    expect(overview.days.at(-1)).toEqual({ date: today, orders: 2, revenue: a.total + b.total });
    expect(overview.days.slice(0, -1).every((d) => d.orders === 0 && d.revenue === 0)).toBe(true);
    // demo-expo's deadline is weeks away: both orders had the early-bird price.
    expect(overview.earlyBird).toEqual({ orders: 2, earlyBird: 2 });
    expect(overview.topProducts).toEqual([
      { productId: first.id, name: first.name, units: 4 },
      { productId: second.id, name: second.name, units: 1 },
    ]);
    // The pending order holds nothing of the limited product; the paid ones sold 4 of 10.
    expect(overview.stock.find((s) => s.productId === first.id)).toMatchObject({
      limit: 10,
      sold: 4,
      held: 0,
      left: 6,
    });
    expect(overview.stock.find((s) => s.productId === second.id)).toMatchObject({ limit: null, left: null });
    expect(overview.store).toMatchObject({ id: storeKey, store_id: 'demo-expo', currency: 'usd' });
    expect(overview.time_zone).toBe('America/New_York');
  });

  it('puts an order on the day it was paid in TZ_STORE, not in UTC', async () => {
    const { app, staff, storeKey } = await start(dialect);
    const products = (await new Exhibitor(app).store()).body.store.products as { id: number }[];
    const { orderId, total } = await paidOrder(app, [{ productId: products[0]!.id, count: 2 }]);
    // 03:00 UTC on Jan 2 is still Jan 1 in New York.
    await app.db.models.Order.update(
      { paidAt: new Date('2030-01-02T03:00:00Z') },
      { where: { id: orderId } },
    );
    const answer = await staff.get<Overview>(
      `/api/staff/overview?storeId=${storeKey}&from=2030-01-01&to=2030-01-02`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.days).toEqual([
      { date: '2030-01-01', orders: 1, revenue: total },
      { date: '2030-01-02', orders: 0, revenue: 0 },
    ]);
    // The next span does not see it.
    const later = await staff.get<Overview>(
      `/api/staff/overview?storeId=${storeKey}&from=2030-01-02&to=2030-01-03`,
    );
    expect(later.body.days.map((d) => d.orders)).toEqual([0, 0]);
    expect(later.body.topProducts).toEqual([]);
    expect(later.body.earlyBird).toEqual({ orders: 0, earlyBird: 0 });
  });

  it('counts the files received per upload event per day', async () => {
    const { app, staff, storeKey } = await start(dialect);
    const client = new TestBrowser(app.url);
    expect((await client.post('/api/auth/register', registration({ email: 'ada@example.com' }))).status).toBe(
      201,
    );
    const uploads = nodeClient(app.url, { cookie: client.cookieHeader()! });
    const send = async (eventName: string, files: number) => {
      const submission = await uploads.createSubmission({ ...sponsorForm, event_name: eventName });
      const queue = uploads.queue(submission.id);
      for (let i = 0; i < files; i++) queue.add(memorySource(100 + i, `clip-${i}.mov`).source);
      const outcomes = await queue.settled();
      expect(outcomes.map((o) => o.state)).toEqual(Array(files).fill('complete'));
    };
    await send('MedTech Summit', 2);
    await send('Auto Show', 1);
    await send('MedTech Summit', 1);
    const answer = await staff.get<Overview>(`/api/staff/overview?storeId=${storeKey}`);
    expect(answer.status).toBe(200);
    const today = dateInZone(new Date(), 'America/New_York');
    expect(answer.body.uploads).toEqual([
      { event: 'Auto Show', date: today, files: 1 },
      { event: 'MedTech Summit', date: today, files: 3 },
    ]);
  });

  it('refuses a missing store, bad dates and too long a span in words, and an unknown store with 404', async () => {
    const { staff, storeKey } = await start(dialect);
    const none = await staff.get<Overview>('/api/staff/overview');
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe(OVERVIEW_STORE_REQUIRED);
    const badDate = await staff.get<Overview>(`/api/staff/overview?storeId=${storeKey}&from=2030-02-30`);
    expect(badDate.status).toBe(400);
    expect(badDate.body.error.fields).toEqual({ from: OVERVIEW_DATE });
    const backwards = await staff.get<Overview>(
      `/api/staff/overview?storeId=${storeKey}&from=2030-02-02&to=2030-02-01`,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.message).toBe(OVERVIEW_SPAN);
    const long = await staff.get<Overview>(
      `/api/staff/overview?storeId=${storeKey}&from=2029-01-01&to=2030-01-02`,
    );
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe(OVERVIEW_SPAN);
    // 366 days is the most.
    const year = await staff.get<Overview>(
      `/api/staff/overview?storeId=${storeKey}&from=2030-01-01&to=2031-01-01`,
    );
    expect(year.status).toBe(200);
    expect(year.body.days).toHaveLength(366);
    const unknown = await staff.get<Overview>('/api/staff/overview?storeId=999999');
    expect(unknown.status).toBe(404);
  });
});

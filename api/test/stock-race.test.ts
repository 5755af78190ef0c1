import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { QueryTypes, Transaction } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { Config } from '../src/config.js';
import { migrateUp, openDatabase } from '../src/db/index.js';
import type { Database } from '../src/db/index.js';
import { createLogger } from '../src/logger.js';
import type { Logger } from '../src/logger.js';
import { releaseExpiredHolds } from '../src/modules/stock/index.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { TestBrowser } from './helpers/browser.js';
import { startCluster } from './helpers/cluster.js';
import type { Cluster } from './helpers/cluster.js';
import { dropSchema, onPostgres, TEST_DATABASE_URL, TEST_SECRET, tempDir, testEnv } from './helpers/env.js';
import type { TestDialect } from './helpers/env.js';
import { holdRunsOut, staffBrowser } from './helpers/stock.js';
import { customerFor, seeded } from './helpers/store.js';
import { StripeStandIn } from './helpers/stripe-stand-in.js';

/**
 * No oversell, ever (issue #32), as a property over interleavings. K exhibitors race for the N units of
 * one product through the HTTP API, paying through Stripe (its local stand-in): in each round every
 * client does one thing at once with the others (order or change the cart, pay, fail to pay, let the hold
 * run out, the sweep, a refund with or without 'back in stock'), in an order fast-check's scheduler
 * draws. After every request the database must show sold + held ≤ limit; after every round the stock
 * row must equal what the orders' holds account for, and every paid order's units must be sold.
 *
 * Runs on SQLite and PostgreSQL (one process), and on three API processes sharing PostgreSQL behind the
 * round-robin proxy, where each process also runs its own sweep every second.
 */

const WEBHOOK_SECRET = 'whsec_race_0123456789abcdef';
const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_race0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_race0123456789',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};
const CLIENTS = 4;
/** Cases per target; each is a fresh store with its own scarce product. */
const RUNS = { sqlite: 10, postgres: 10, cluster: 6 } as const;

type Step =
  | { kind: 'order'; client: number; count: number }
  | { kind: 'pay'; client: number; ok: boolean }
  | { kind: 'expire'; client: number; swept: boolean }
  | { kind: 'sweep' }
  | { kind: 'refund'; client: number; back: boolean };

const client = fc.integer({ min: 0, max: CLIENTS - 1 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      client,
      count: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('pay' as const), client, ok: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('expire' as const), client, swept: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sweep' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), client, back: fc.boolean() }) },
);
const caseArb = fc.record({
  limit: fc.integer({ min: 1, max: 6 }),
  /** Every client orders at once first (how a scarce product's launch looks), each for this many. */
  rush: fc.option(fc.array(fc.integer({ min: 1, max: 3 }), { minLength: CLIENTS, maxLength: CLIENTS })),
  rounds: fc.array(fc.array(stepArb, { minLength: 1, maxLength: CLIENTS }), { minLength: 3, maxLength: 6 }),
});

interface Target {
  url: string;
  db: Database;
  logger: Logger;
  stripe: StripeStandIn;
  staff: TestBrowser;
}

interface Figures {
  cases: number;
  rounds: number;
  requests: number;
  checks: number;
  paid: number;
  refused: number;
  review: number;
  oversells: number;
}

const newFigures = (): Figures => ({
  cases: 0,
  rounds: 0,
  requests: 0,
  checks: 0,
  paid: 0,
  refused: 0,
  review: 0,
  oversells: 0,
});

/** A fresh open store selling one product, with the case's limit; its slug and ids. */
async function scarceStore(target: Target, limit: number) {
  const { Store, StorePrice, Product } = target.db.models;
  const template = await Store.findOne({ where: { slug: 'demo-expo' }, rejectOnEmpty: true });
  const slug = `race-${randomBytes(5).toString('hex')}`;
  const {
    id: _id,
    slug: _slug,
    version: _version,
    createdAt: _c,
    updatedAt: _u,
    ...fields
  } = template.get({
    plain: true,
  });
  const store = await Store.create({ ...fields, slug, name: `Race ${slug}` });
  const product = await Product.findOne({ order: [['id', 'ASC']], rejectOnEmpty: true });
  await StorePrice.create({ storeId: store.id, productId: product.id, unitAmount: 5_000, currency: 'usd' });
  const set = await target.staff.put(`/api/staff/stores/${store.id}/stock/${product.id}`, { limit });
  expect(set.status).toBe(200);
  return {
    slug,
    storeId: store.id,
    productId: product.id,
    startDate: store.startDate,
    endDate: store.endDate,
  };
}

interface Counts {
  limit: number;
  held: number;
  sold: number;
}

async function counts(
  db: Database,
  storeId: number,
  productId: number,
  transaction?: Transaction,
): Promise<Counts> {
  const [row] = await db.sequelize.query<{ stock_limit: unknown; held: unknown; sold: unknown }>(
    'SELECT stock_limit, held, sold FROM stock WHERE store_id = :storeId AND product_id = :productId',
    { replacements: { storeId, productId }, type: QueryTypes.SELECT, transaction },
  );
  return { limit: Number(row!.stock_limit), held: Number(row!.held), sold: Number(row!.sold) };
}

/** What the orders' holds account for: units under live holds, units sold, and paid orders not counted. */
async function accounted(db: Database, storeId: number, productId: number, transaction?: Transaction) {
  const rows = await db.sequelize.query<{ status: string; state: string | null; quantity: unknown }>(
    `SELECT o.status, h.state, COALESCE(SUM(l.quantity), 0) AS quantity
       FROM orders o
       LEFT JOIN stock_holds h ON h.order_id = o.id
       LEFT JOIN order_lines l ON l.order_id = o.id AND l.product_id = :productId
      WHERE o.store_id = :storeId
      GROUP BY o.id, o.status, h.state`,
    { replacements: { storeId, productId }, type: QueryTypes.SELECT, transaction },
  );
  let held = 0;
  let sold = 0;
  const uncounted: string[] = [];
  for (const row of rows) {
    const quantity = Number(row.quantity);
    if (row.state === 'held') held += quantity;
    if (row.state === 'committed') sold += quantity;
    const settled = ['paid', 'partially_refunded', 'refunded'].includes(row.status);
    if (settled && row.state !== 'committed' && row.state !== 'returned')
      uncounted.push(`${row.status}/${row.state}`);
  }
  return { held, sold, uncounted };
}

/**
 * The stock row and the orders' holds, read in one snapshot: a process's sweep releases a hold (its row
 * and the stock row, in one transaction) whenever it runs, and a release between two separate reads made
 * them disagree with nothing wrong in the database (a CI run: held 5 in the stock row, 4 in the holds read
 * a moment later, after an expired hold was swept).
 */
async function booksOf(db: Database, storeId: number, productId: number) {
  const options =
    db.dialect === 'postgres' ? { isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ } : {};
  return db.sequelize.transaction(options, async (transaction) => ({
    stock: await counts(db, storeId, productId, transaction),
    orders: await accounted(db, storeId, productId, transaction),
  }));
}

interface ClientState {
  browser: TestBrowser;
  order: { orderId: string; token: string; intentID: string } | null;
  paid: string[];
  refunds: number;
}

const EXPECTED: Record<string, number[]> = {
  create: [201, 409],
  update: [200, 409],
  confirm: [200],
  refund: [200, 201, 400, 409],
};

async function runCase(
  target: Target,
  { limit, rush, rounds }: { limit: number; rush: number[] | null; rounds: Step[][] },
  scheduler: fc.Scheduler,
  figures: Figures,
): Promise<void> {
  const shop = await scarceStore(target, limit);
  const customer = customerFor({ start_date: shop.startDate, end_date: shop.endDate });
  const clients: ClientState[] = Array.from({ length: CLIENTS }, () => ({
    browser: new TestBrowser(target.url),
    order: null,
    paid: [],
    refunds: 0,
  }));

  /** At every step: the database never shows more units out than the limit. */
  const check = async (what: string) => {
    const c = await counts(target.db, shop.storeId, shop.productId);
    figures.checks++;
    if (c.sold + c.held > c.limit || c.held < 0 || c.sold < 0) {
      figures.oversells++;
      throw new Error(`after ${what}: sold ${c.sold} + held ${c.held} against a limit of ${c.limit}`);
    }
  };
  const expectStatus = (call: string, status: number, body: unknown) => {
    figures.requests++;
    if (!EXPECTED[call]!.includes(status))
      throw new Error(`${call} answered ${status}: ${JSON.stringify(body)}`);
  };

  const run = async (step: Step): Promise<void> => {
    if (step.kind === 'sweep') {
      await releaseExpiredHolds(target);
      return check('a sweep');
    }
    // A step that needs an order (or a paid one) goes to a client that has one, so few steps are idle.
    const among = (has: (c: ClientState) => boolean) => {
      const those = clients.filter(has);
      return those.length === 0 ? clients[step.client]! : those[step.client % those.length]!;
    };
    const me =
      step.kind === 'order'
        ? clients[step.client]!
        : step.kind === 'refund'
          ? among((c) => c.paid.length > 0)
          : among((c) => c.order !== null);
    const who = clients.indexOf(me);
    const headers = me.order ? { 'x-order-token': me.order.token } : undefined;
    switch (step.kind) {
      case 'order': {
        const cart = [{ productId: shop.productId, count: step.count }];
        if (me.order === null) {
          const created = await me.browser.post<{ orderId: string; token: string; intentID: string }>(
            `/api/stores/${shop.slug}/payment-intents`,
            { cart },
          );
          expectStatus('create', created.status, created.body);
          await check(`client ${who} ordering ${step.count}`);
          if (created.status !== 201) {
            figures.refused++;
            return;
          }
          me.order = created.body;
        }
        const order = me.order;
        const updated = await me.browser.put(
          `/api/orders/${order.orderId}`,
          { cart, customer },
          {
            'x-order-token': order.token,
          },
        );
        expectStatus('update', updated.status, updated.body);
        if (updated.status === 409) figures.refused++;
        return check(`client ${who} changing to ${step.count}`);
      }
      case 'pay': {
        const order = me.order;
        if (order === null) return;
        // A payment that succeeds is Stripe.js confirming the intent; one that fails leaves it unconfirmed.
        if (step.ok) target.stripe.succeed(order.intentID);
        const confirmed = await me.browser.post<{ status: string }>(
          `/api/orders/${order.orderId}/confirm`,
          {},
          headers,
        );
        expectStatus('confirm', confirmed.status, confirmed.body);
        await check(`client ${who} paying`);
        const status = confirmed.body.status;
        if (status === 'paid' || status === 'needs_review') {
          if (status === 'paid') figures.paid++;
          else figures.review++;
          if (status === 'paid') me.paid.push(order.orderId);
          if (me.order === order) me.order = null;
        }
        return;
      }
      case 'expire': {
        if (me.order === null) return;
        await holdRunsOut(target.db, me.order.orderId);
        // Swept at once, or left for a later sweep (a payment may come first and still find it held).
        if (step.swept) await releaseExpiredHolds(target);
        return check(`client ${who}'s hold running out`);
      }
      case 'refund': {
        const orderId = me.paid[me.paid.length - 1];
        if (orderId === undefined) return;
        const key = `race-${orderId.slice(0, 8)}-${me.refunds++}`;
        const refunded = await target.staff.post(`/api/staff/orders/${orderId}/refunds`, {
          amount: 100,
          reason: 'Race',
          key,
          backInStock: step.back,
        });
        expectStatus('refund', refunded.status, refunded.body);
        return check(`a refund of client ${who}'s order`);
      }
    }
  };

  const opening: Step[][] = rush
    ? [rush.map((count, i) => ({ kind: 'order' as const, client: i, count }))]
    : [];
  for (const round of [...opening, ...rounds]) {
    figures.rounds++;
    // Every client's step starts when the scheduler says, all of them under way at once.
    await Promise.all([
      ...round.map((step) => scheduler.schedule(Promise.resolve(step), `${step.kind}`).then(run)),
      scheduler.waitAll(),
    ]);
    const { stock: c, orders: books } = await booksOf(target.db, shop.storeId, shop.productId);
    expect(books.uncounted, 'paid orders whose units are not sold').toEqual([]);
    expect({ held: c.held, sold: c.sold }, 'the stock row against the orders’ holds').toEqual({
      held: books.held,
      sold: books.sold,
    });
    expect(c.sold + c.held).toBeLessThanOrEqual(c.limit);
  }
  figures.cases++;
}

async function race(target: Target, runs: number, name: string): Promise<Figures> {
  const figures = newFigures();
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(caseArb, fc.scheduler(), async (testCase, scheduler) => {
      await runCase(target, testCase, scheduler, figures);
    }),
    { numRuns: runs, endOnFailure: true },
  );
  console.log(
    `stock race (${name}): ${figures.cases} cases, ${figures.rounds} interleaved rounds, ${figures.requests} requests, ` +
      `${figures.checks} checks from the database, ${figures.paid} paid, ${figures.review} held for review, ` +
      `${figures.refused} refused short; oversells: ${figures.oversells}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return figures;
}

const DIALECTS: TestDialect[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(DIALECTS)('stock race on %s (one process)', (dialect) => {
  let t: TestApp;
  let stripe: StripeStandIn;
  let staff: TestBrowser;

  beforeAll(async () => {
    stripe = await new StripeStandIn().start();
    t = await startTestApp({ dialect, env: { ...STRIPE_KEYS, STRIPE_API_URL: stripe.url } });
    await seeded(t);
    staff = await staffBrowser(t);
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.stop();
  });

  it('never sells or holds more than the limit, and every paid order’s units are sold', async () => {
    const figures = await race(
      { url: t.url, db: t.db, logger: t.logger, stripe, staff },
      RUNS[dialect],
      dialect,
    );
    expect(figures.oversells).toBe(0);
    expect(figures.cases).toBe(RUNS[dialect]);
  }, 120_000);
});

describe.runIf(onPostgres('the stock race across three API processes'))(
  'stock race across three API processes',
  () => {
    let cluster: Cluster;
    let db: Database;
    let config: Config;
    let stripe: StripeStandIn;
    let staff: TestBrowser;
    const cleanups: Array<() => Promise<unknown>> = [];

    beforeAll(async () => {
      stripe = await new StripeStandIn().start();
      cleanups.push(() => stripe.stop());
      const data = await tempDir('stock-race-');
      cleanups.push(() => data.remove());
      const shared = { ...STRIPE_KEYS, STRIPE_API_URL: stripe.url, STOCK_SWEEP_SECONDS: '1' };
      config = loadConfig(testEnv(data.dir, 'postgres', shared));
      cleanups.push(() => dropSchema(config.DB_SCHEMA!));
      db = await openDatabase(config, createLogger({ LOG_LEVEL: 'silent' }));
      cleanups.push(() => db.close());
      await migrateUp(db);
      await seeded({ db, config } as TestApp);
      cluster = await startCluster({
        size: 3,
        env: {
          DATABASE_URL: TEST_DATABASE_URL,
          DB_SCHEMA: config.DB_SCHEMA,
          SESSION_SECRET: TEST_SECRET,
          TRUST_PROXY: '1',
          ...shared,
        },
      });
      cleanups.push(() => cluster.close());
      staff = await staffBrowser({ db, config, url: cluster.url });
    }, 120_000);
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('never sells or holds more than the limit across the processes (each sweeping every second)', async () => {
      const logger = createLogger({ LOG_LEVEL: 'silent' });
      const figures = await race(
        { url: cluster.url, db, logger, stripe, staff },
        RUNS.cluster,
        'three processes',
      );
      expect(figures.oversells).toBe(0);
      expect(cluster.processes.every((api) => api.alive)).toBe(true);
    }, 180_000);
  },
);

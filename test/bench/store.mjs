// `npm run bench:store`: the exhibitor store's two hot calls under autocannon, 50 connections each, against
// the real server (SQLite in a throwaway data folder, the built-in test gateway), printed beside the same
// server's GET /api/health as the ceiling: requests per second and p99 latency. A benchmark: it prints
// figures and never fails on them; it is not part of `npm test`.
//
//   GET  /api/stores/demo-expo                     the store page's data (store, products, prices)
//   GET  /api/stores/demo-expo + If-None-Match     a repeat visit: the browser revalidates, 304 with no body
//   POST /api/stores/demo-expo/payment-intents     intent creation: a pending order with its lines
//   POST … payment-intents, scarce product           intents for one unit of a product limited to 50 (issue
//                                                    #32): the first 50 are held (201), the rest refused 409
//                                                    stock_short; no warm-up (it would take the units)
//
// Each row says how many answers had another status than the call's own (200, 304, 201; 201 or 409 for the
// scarce row), and its req/s as a ratio of health's in the same run. The scarce row also says how many
// intents were held and the oversell count: units held or sold past the limit, from the staff stock table
// and from the 201s (must be 0).
//
// Last comes the goal line of issue #34 part 4: intent creation's p99 under 100 ms at 50 connections.
//
// Environment: BENCH_SECONDS (per call, default 10), BENCH_CONNECTIONS (default 50), BENCH_SERVER_NODE_ARGS
// (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server; each row's window is then printed for
// profile-summary.mjs --from/--to), BENCH_SKIP_BUILD=1 to use api/dist as it is, BENCH_LOG_LEVEL (server
// log level, default warn: one log line per request would measure the logger), BENCH_CALLS (the rows to
// run besides health, comma-separated from store,repeat,intents,scarce; default all), BENCH_DATABASE_URL
// (a PostgreSQL database, e.g. postgres://postgres@127.0.0.1:5432/bench: the server runs in a throwaway
// schema of it, dropped at the end, instead of SQLite), BENCH_GATEWAY=stripe (every intent through the
// Stripe SDK to the Stripe stand-in, api/test/helpers/stripe-stand-in.ts, run in this process, instead of
// the built-in test gateway).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { compileTypeScript } from '../../build/scripts/lib.mjs';
import { startBenchServer } from './server.mjs';

const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 10));
const CONNECTIONS = Math.max(1, Number(process.env.BENCH_CONNECTIONS ?? 50));
const WARM_UP_SECONDS = 2;
const SCARCE_LIMIT = 50;
const GOAL_P99_MS = 100;
const root = fileURLToPath(new URL('../..', import.meta.url));
const CALLS = new Set(
  (process.env.BENCH_CALLS ?? 'store,repeat,intents,scarce').split(',').map((name) => name.trim()),
);
const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const profiling = nodeArgs.some((arg) => arg.startsWith('--cpu-prof'));
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const schema = databaseUrl && `bench_store_${process.pid}_${randomBytes(3).toString('hex')}`;
// The server's and the admin command's database: SQLite in the data folder, or the throwaway schema.
const databaseEnv = databaseUrl ? { DATABASE_URL: databaseUrl, DB_SCHEMA: schema } : { DATABASE_URL: '' };
const viaStripe = process.env.BENCH_GATEWAY === 'stripe';
/** Microseconds of the monotonic clock, the clock of a V8 CPU profile's timestamps. */
const micros = () => Number(process.hrtime.bigint() / 1000n);

const INTENTS_ROW = 'POST /api/stores/demo-expo/payment-intents';

function run(options, duration) {
  return autocannon({ connections: CONNECTIONS, duration, ...options });
}

if (!process.env.BENCH_SKIP_BUILD) compileTypeScript();

// The data folder is the bench's own, so the staff account for the stock limit can be made in it.
const dataDir = mkdtempSync(join(tmpdir(), 'avp-bench-store-'));
const stripe = viaStripe
  ? await new (await import('../../api/test/helpers/stripe-stand-in.ts')).StripeStandIn().start()
  : undefined;
const { url, stop } = await startBenchServer({
  name: 'store',
  dataDir,
  // The built-in test gateway, whatever the environment says, unless the Stripe stand-in was asked for.
  env: {
    ...(stripe
      ? {
          STRIPE_SECRET_KEY: 'sk_test_bench0123456789',
          STRIPE_PUBLISHABLE_KEY: 'pk_test_bench0123456789',
          STRIPE_WEBHOOK_SECRET: 'whsec_bench0123456789',
          STRIPE_API_URL: stripe.url,
        }
      : { STRIPE_SECRET_KEY: '', STRIPE_PUBLISHABLE_KEY: '', STRIPE_WEBHOOK_SECRET: '' }),
    ...databaseEnv,
  },
  stdout: 'ignore',
  nodeArgs,
});

try {
  const storeRes = await fetch(`${url}/api/stores/demo-expo`);
  const etag = storeRes.headers.get('etag');
  const { store } = await storeRes.json();
  const cart = store.products
    .slice(0, 3)
    .map((product, index) => ({ productId: product.id, count: index + 1 }));

  const calls = [
    { name: 'GET /api/health (ceiling)', status: 200, options: { url: `${url}/api/health` } },
    {
      key: 'store',
      name: 'GET /api/stores/demo-expo',
      status: 200,
      options: { url: `${url}/api/stores/demo-expo` },
    },
    ...(etag
      ? [
          {
            key: 'repeat',
            name: 'GET /api/stores/demo-expo, repeat visit',
            status: 304,
            options: { url: `${url}/api/stores/demo-expo`, headers: { 'if-none-match': etag } },
          },
        ]
      : []),
    {
      key: 'intents',
      name: INTENTS_ROW,
      status: 201,
      options: {
        url: `${url}/api/stores/demo-expo/payment-intents`,
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ cart }),
      },
    },
  ].filter((call) => call.key === undefined || CALLS.has(call.key));

  console.log(
    `autocannon: ${CONNECTIONS} connections, ${SECONDS} s per call after a ${WARM_UP_SECONDS} s warm-up; ` +
      `${databaseUrl ? `PostgreSQL (schema ${schema})` : 'SQLite'}, ` +
      `${stripe ? 'Stripe SDK to the Stripe stand-in' : 'test gateway'}, ` +
      `log level ${process.env.BENCH_LOG_LEVEL ?? 'warn'}\n`,
  );
  const rows = [];
  const windows = [];
  for (const call of calls) {
    await run(call.options, WARM_UP_SECONDS);
    const from = micros();
    const result = await run(call.options, SECONDS);
    windows.push({ call: call.name, from, to: micros() });
    const answered = Object.values(result.statusCodeStats ?? {}).reduce((sum, s) => sum + s.count, 0);
    rows.push({
      call: call.name,
      'req/s': Math.round(result.requests.average),
      'p99 ms': result.latency.p99,
      'mean ms': Number(result.latency.average.toFixed(1)),
      requests: result.requests.total,
      'other status': answered - (result.statusCodeStats?.[call.status]?.count ?? 0),
      errors: result.errors + result.timeouts,
    });
  }
  // Last: it uses up the scarce product's units.
  if (CALLS.has('scarce')) rows.push(await scarceRow(url, store.products[3], windows));
  const ceiling = rows[0]['req/s'] || 1;
  for (const row of rows) row['× health'] = Number((row['req/s'] / ceiling).toFixed(2));
  console.table(rows);
  const scarce = rows.find((row) => row.oversells !== undefined);
  if (scarce) {
    console.log(
      `Scarce product (limit ${SCARCE_LIMIT}): ${scarce.held} intents held, oversells: ${scarce.oversells}` +
        (scarce.oversells === 0 ? '' : ' — MORE UNITS OUT THAN THE LIMIT'),
    );
  }
  if (!etag) console.log('The store answer carried no ETag: no repeat-visit row.');
  const intents = rows.find((row) => row.call === INTENTS_ROW);
  if (intents) {
    const met = intents['p99 ms'] < GOAL_P99_MS && intents['other status'] === 0 && intents.errors === 0;
    console.log(
      `Goal (#34 part 4): intent creation p99 under ${GOAL_P99_MS} ms at ${CONNECTIONS} connections, ` +
        `every answer 201: p99 ${intents['p99 ms']} ms, ${intents['req/s']} req/s ` +
        `(${intents['× health']} × health), ${intents['other status'] + intents.errors} other answers or errors` +
        ` — ${met ? 'met' : 'NOT MET'}${CONNECTIONS === 50 ? '' : ' (not at 50 connections: not the goal run)'}`,
    );
  }
  if (profiling) {
    console.log("\nEach row's window, for test/bench/profile-summary.mjs:");
    for (const w of windows) console.log(`  ${w.call}: --from ${w.from} --to ${w.to}`);
  }
  // Requests whose client hung up at the end of a run still finish on the server; let them before stopping it.
  await new Promise((r) => setTimeout(r, 3_000));
} finally {
  await stop();
  await stripe?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (databaseUrl) await dropSchema();
}

/** The throwaway schema goes, with every order the run made. */
async function dropSchema() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** A staff bearer token: the account made with the admin command in the server's data folder. */
async function staffToken(url) {
  const email = 'bench-staff@example.com';
  const password = 'Bench staff passphrase 2026!';
  const made = spawnSync(
    process.execPath,
    [
      join(root, 'api', 'dist', 'cli', 'admin.js'),
      'create',
      '--email',
      email,
      '--first',
      'Bench',
      '--last',
      'Staff',
    ],
    { input: password, env: { ...process.env, DATA_DIR: dataDir, ...databaseEnv, LOG_LEVEL: 'warn' } },
  );
  if (made.status !== 0) throw new Error(`admin create exited ${made.status}: ${made.stderr}`);
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, token: true }),
  });
  const { token } = await login.json();
  if (!token) throw new Error(`staff login answered ${login.status} without a token`);
  return token;
}

/** 50 connections race for a product limited to 50 units, one unit per intent. */
async function scarceRow(url, product, windows) {
  const auth = { authorization: `Bearer ${await staffToken(url)}`, 'content-type': 'application/json' };
  const { stores } = await (await fetch(`${url}/api/staff/stores`, { headers: auth })).json();
  const storeKey = stores.find((s) => s.store_id === 'demo-expo').id;
  const stockUrl = `${url}/api/staff/stores/${storeKey}/stock`;
  const set = await fetch(`${stockUrl}/${product.id}`, {
    method: 'PUT',
    headers: auth,
    body: JSON.stringify({ limit: SCARCE_LIMIT }),
  });
  if (set.status !== 200) throw new Error(`setting the limit answered ${set.status}`);
  const from = micros();
  const result = await run(
    {
      url: `${url}/api/stores/demo-expo/payment-intents`,
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ cart: [{ productId: product.id, count: 1 }] }),
    },
    SECONDS,
  );
  windows.push({ call: `scarce (limit ${SCARCE_LIMIT})`, from, to: micros() });
  // Let requests cut off at the end finish before the counts are read.
  await new Promise((r) => setTimeout(r, 3_000));
  const { rows } = await (await fetch(stockUrl, { headers: auth })).json();
  const row = rows.find((r) => r.productId === product.id);
  const held = result.statusCodeStats?.['201']?.count ?? 0;
  const refused = result.statusCodeStats?.['409']?.count ?? 0;
  const answered = Object.values(result.statusCodeStats ?? {}).reduce((sum, s) => sum + s.count, 0);
  return {
    call: `POST … payment-intents, scarce (limit ${SCARCE_LIMIT})`,
    'req/s': Math.round(result.requests.average),
    'p99 ms': result.latency.p99,
    'mean ms': Number(result.latency.average.toFixed(1)),
    requests: result.requests.total,
    'other status': answered - held - refused,
    errors: result.errors + result.timeouts,
    held,
    oversells: Math.max(0, row.sold + row.held - SCARCE_LIMIT, held - SCARCE_LIMIT),
  };
}

// `npm run bench:store`: the exhibitor store's two hot calls under autocannon, 50 connections each, against
// the real server (SQLite in a throwaway data folder, the built-in test gateway), printed beside the same
// server's GET /api/health as the ceiling: requests per second and p99 latency. A benchmark: it prints
// figures and never fails on them; it is not part of `npm test`.
//
//   GET  /api/stores/demo-expo                     the store page's data (store, products, prices)
//   GET  /api/stores/demo-expo + If-None-Match     a repeat visit: the browser revalidates, 304 with no body
//   POST /api/stores/demo-expo/payment-intents     intent creation: a pending order with its lines
//
// Each row says how many answers had another status than the call's own (200, 304, 201), and its req/s as
// a ratio of health's in the same run.
//
// Environment: BENCH_SECONDS (per call, default 10), BENCH_CONNECTIONS (default 50), BENCH_SERVER_NODE_ARGS
// (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server), BENCH_SKIP_BUILD=1 to
// use api/dist as it is, BENCH_LOG_LEVEL (server log level, default warn: one log line per request would
// measure the logger).
import autocannon from 'autocannon';
import { compileTypeScript } from '../../build/scripts/lib.mjs';
import { startBenchServer } from './server.mjs';

const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 10));
const CONNECTIONS = Math.max(1, Number(process.env.BENCH_CONNECTIONS ?? 50));
const WARM_UP_SECONDS = 2;

function run(options, duration) {
  return autocannon({ connections: CONNECTIONS, duration, ...options });
}

if (!process.env.BENCH_SKIP_BUILD) compileTypeScript();

const { url, stop } = await startBenchServer({
  name: 'store',
  // The built-in test gateway, whatever the environment says.
  env: { STRIPE_SECRET_KEY: '', STRIPE_PUBLISHABLE_KEY: '', STRIPE_WEBHOOK_SECRET: '' },
  stdout: 'ignore',
  nodeArgs: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
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
    { name: 'GET /api/stores/demo-expo', status: 200, options: { url: `${url}/api/stores/demo-expo` } },
    ...(etag
      ? [
          {
            name: 'GET /api/stores/demo-expo, repeat visit',
            status: 304,
            options: { url: `${url}/api/stores/demo-expo`, headers: { 'if-none-match': etag } },
          },
        ]
      : []),
    {
      name: 'POST /api/stores/demo-expo/payment-intents',
      status: 201,
      options: {
        url: `${url}/api/stores/demo-expo/payment-intents`,
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ cart }),
      },
    },
  ];

  console.log(
    `autocannon: ${CONNECTIONS} connections, ${SECONDS} s per call after a ${WARM_UP_SECONDS} s warm-up; ` +
      `SQLite, test gateway, log level ${process.env.BENCH_LOG_LEVEL ?? 'warn'}\n`,
  );
  const rows = [];
  for (const call of calls) {
    await run(call.options, WARM_UP_SECONDS);
    const result = await run(call.options, SECONDS);
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
  const ceiling = rows[0]['req/s'] || 1;
  for (const row of rows) row['× health'] = Number((row['req/s'] / ceiling).toFixed(2));
  console.table(rows);
  if (!etag) console.log('The store answer carried no ETag: no repeat-visit row.');
  // Requests whose client hung up at the end of a run still finish on the server; let them before stopping it.
  await new Promise((r) => setTimeout(r, 3_000));
} finally {
  await stop();
}

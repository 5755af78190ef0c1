// `npm run bench:store`: the exhibitor store's two hot calls under autocannon, 50 connections each, against
// the real server (SQLite in a throwaway data folder, the built-in test gateway), printed beside the same
// server's GET /api/health as the ceiling: requests per second and p99 latency. A benchmark: it prints
// figures and never fails on them; it is not part of `npm test`.
//
//   GET  /api/stores/demo-expo                     the store page's data (store, products, prices)
//   POST /api/stores/demo-expo/payment-intents     intent creation: a pending order with its lines
//
// Environment: BENCH_SECONDS (per call, default 10), BENCH_CONNECTIONS (default 50), BENCH_SKIP_BUILD=1 to
// use api/dist as it is, BENCH_LOG_LEVEL (server log level, default warn: one log line per request would
// measure the logger).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { compileTypeScript, root } from '../../build/scripts/lib.mjs';

const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 10));
const CONNECTIONS = Math.max(1, Number(process.env.BENCH_CONNECTIONS ?? 50));
const WARM_UP_SECONDS = 2;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, child) {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not become healthy within 60 s');
}

function run(options, duration) {
  return autocannon({ connections: CONNECTIONS, duration, ...options });
}

if (!process.env.BENCH_SKIP_BUILD) compileTypeScript();

const dataDir = mkdtempSync(join(tmpdir(), 'avp-bench-store-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [join(root, 'api', 'dist', 'server.js')], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    STRIPE_SECRET_KEY: '',
    STRIPE_PUBLISHABLE_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

try {
  await waitForHealth(url, server);
  const storeRes = await fetch(`${url}/api/stores/demo-expo`);
  const { store } = await storeRes.json();
  const cart = store.products
    .slice(0, 3)
    .map((product, index) => ({ productId: product.id, count: index + 1 }));

  const calls = [
    { name: 'GET /api/health (ceiling)', options: { url: `${url}/api/health` } },
    { name: 'GET /api/stores/demo-expo', options: { url: `${url}/api/stores/demo-expo` } },
    {
      name: 'POST /api/stores/demo-expo/payment-intents',
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
    rows.push({
      call: call.name,
      'req/s': Math.round(result.requests.average),
      'p99 ms': result.latency.p99,
      'mean ms': Number(result.latency.average.toFixed(1)),
      requests: result.requests.total,
      'non-2xx': result.non2xx,
      errors: result.errors + result.timeouts,
    });
  }
  const ceiling = rows[0]['req/s'] || 1;
  for (const row of rows) row['of ceiling'] = `${Math.round((row['req/s'] / ceiling) * 100)}%`;
  console.table(rows);
  // Requests whose client hung up at the end of a run still finish on the server; let them before stopping it.
  await new Promise((r) => setTimeout(r, 3_000));
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
  rmSync(dataDir, { recursive: true, force: true });
}

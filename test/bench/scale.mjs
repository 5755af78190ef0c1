// `npm run bench:scale`: the API on PostgreSQL as one process and then as three, each time behind the
// round-robin proxy of the scale-out test (api/test/helpers/round-robin-proxy.ts, in a process of its
// own), measuring the same three loads on both:
//
//   GET  /api/stores/demo-expo                   the store page's data, autocannon, 50 connections
//   POST /api/stores/demo-expo/payment-intents   intent creation (a pending order with its lines), the same
//   uploads                                      four clients at once, each sending one file with the shared
//                                                upload client (4 parts in flight, sha-256 verified)
//
// Each configuration gets a throwaway schema in the test database, migrated and seeded with the demo
// content by the processes themselves as they start, and dropped at the end. The processes share one
// DATA_DIR with the local storage driver: on one machine that folder is what S3 is to several. It prints
// requests per second, p99 latency and the three/one ratio for each load. A benchmark: it prints figures
// and never fails on them; it is not part of `npm test`.
//
// Environment: TEST_DATABASE_URL (the PostgreSQL database, as for the tests; default
// postgres://postgres@127.0.0.1:5432/test), BENCH_SECONDS (per call, default 10), BENCH_CONNECTIONS
// (default 50), BENCH_SCALE_MIB (each upload's size, default 64), BENCH_SKIP_BUILD=1 to use api/dist as it
// is, BENCH_LOG_LEVEL (server log level, default warn).
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { compileTypeScript, root } from '../../build/scripts/lib.mjs';
import { clientToken, freePort, startBenchServer } from './server.mjs';
import { fetchTransport } from './contestants.mjs';

const DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 10));
const CONNECTIONS = Math.max(1, Number(process.env.BENCH_CONNECTIONS ?? 50));
const MIB = 1024 * 1024;
const UPLOAD_BYTES = Math.max(1, Number(process.env.BENCH_SCALE_MIB ?? 64)) * MIB;
const UPLOAD_CLIENTS = 4;
const WARM_UP_SECONDS = 2;
const PROXY = pathToFileURL(join(root, 'api', 'test', 'helpers', 'round-robin-proxy.ts')).href;

/** Runs SQL on the test database over a connection of its own. */
async function sql(text) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** The proxy in a process of its own, so that it competes with the servers, not with autocannon. */
async function startProxy(ports) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { startRoundRobinProxy } from ${JSON.stringify(PROXY)};
       const ports = JSON.parse(process.env.UPSTREAM_PORTS);
       const proxy = await startRoundRobinProxy(ports.map((port) => ({ host: '127.0.0.1', port })), { record: false });
       process.stdout.write(proxy.url + '\\n');
       process.on('SIGTERM', () => proxy.close().then(() => process.exit(0)));`,
    ],
    { env: { ...process.env, UPSTREAM_PORTS: JSON.stringify(ports) }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  for await (const chunk of child.stdout) {
    output += chunk;
    if (output.includes('\n')) break;
  }
  return { url: output.trim(), child };
}

/** `count` API processes (api/dist/server.js) on a fresh schema, behind the proxy. */
async function startConfiguration(count) {
  const schema = `bench_scale_${count}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), `avp-bench-scale-${count}-`));
  const ports = [];
  while (ports.length < count) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const proxy = await startProxy(ports);
  const secret = randomBytes(36).toString('base64url');
  const servers = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await stopChild(proxy.child);
    rmSync(dataDir, { recursive: true, force: true });
    await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  };
  try {
    const started = await Promise.allSettled(
      ports.map((port, i) =>
        startBenchServer({
          name: `scale ${i + 1} of ${count}`,
          port,
          dataDir,
          stdout: 'ignore',
          env: {
            PUBLIC_URL: proxy.url,
            TRUST_PROXY: '1',
            DATABASE_URL,
            DB_SCHEMA: schema,
            SESSION_SECRET: secret,
            STORAGE_DRIVER: 'local',
            SMTP_URL: '',
            STRIPE_SECRET_KEY: '',
            STRIPE_PUBLISHABLE_KEY: '',
            STRIPE_WEBHOOK_SECRET: '',
          },
        }),
      ),
    );
    for (const outcome of started) if (outcome.status === 'fulfilled') servers.push(outcome.value);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: proxy.url, stop };
}

async function cannon(options) {
  await autocannon({ connections: CONNECTIONS, duration: WARM_UP_SECONDS, ...options });
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  const answered = Object.values(result.statusCodeStats ?? {}).reduce((sum, s) => sum + s.count, 0);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    other:
      answered - (result.statusCodeStats?.[options.expect]?.count ?? 0) + result.errors + result.timeouts,
  };
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Four clients, each with its own account and submission, each sending one file, all at once. */
async function uploads(url, bytes, sha256) {
  const { UploadClient } = await import(pathToFileURL(join(root, 'shared', 'dist', 'index.js')).href);
  const timings = [];
  let other = 0;
  const clients = [];
  for (let i = 0; i < UPLOAD_CLIENTS; i++) {
    const { token } = await clientToken(url, `bench-scale-${i}@example.com`);
    const client = new UploadClient({
      transport: fetchTransport(url, token, (request, status, ms) => {
        if (request.method !== 'PUT') return;
        if (status === 200) timings.push(ms);
        else other++;
      }),
      createHasher: () => {
        const hash = createHash('sha256');
        return { update: (data) => void hash.update(data), digest: () => hash.digest('hex') };
      },
    });
    const submission = await client.createSubmission({ form_type: 'creative', project_name: `Bench ${i}` });
    clients.push({ client, submission });
  }
  const began = performance.now();
  const outcomes = await Promise.all(
    clients.map(({ client, submission }, i) => {
      const upload = client.file(submission.id, {
        name: `scale-${i}.bin`,
        size: bytes.length,
        type: 'application/octet-stream',
        lastModified: Date.now(),
        read: async (start, end) => bytes.subarray(start, end),
      });
      upload.start();
      return upload.settled();
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  for (const outcome of outcomes) {
    if (outcome.state !== 'complete')
      throw new Error(`an upload ${outcome.state}: ${outcome.error?.message}`);
    if (outcome.file.sha256 !== sha256) throw new Error('an upload was stored with another sha-256');
  }
  return {
    rps: timings.length / seconds,
    p99: percentile(timings, 99),
    other,
    mbps: (UPLOAD_CLIENTS * bytes.length) / 1e6 / seconds,
    seconds,
  };
}

async function measure(count) {
  const { url, stop } = await startConfiguration(count);
  try {
    const { store } = await (await fetch(`${url}/api/stores/demo-expo`)).json();
    const cart = store.products
      .slice(0, 3)
      .map((product, index) => ({ productId: product.id, count: index + 1 }));
    const storePage = await cannon({ url: `${url}/api/stores/demo-expo`, expect: 200 });
    const intents = await cannon({
      url: `${url}/api/stores/demo-expo/payment-intents`,
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ cart }),
      expect: 201,
    });
    const sent = await uploads(url, source.bytes, source.sha256);
    // Requests whose client hung up at the end of a run still finish on the server; let them.
    await new Promise((r) => setTimeout(r, 2_000));
    return { storePage, intents, uploads: sent };
  } finally {
    await stop();
  }
}

if (!process.env.BENCH_SKIP_BUILD) compileTypeScript();
const sourceBytes = randomBytes(UPLOAD_BYTES);
const source = { bytes: sourceBytes, sha256: createHash('sha256').update(sourceBytes).digest('hex') };

console.log(
  `PostgreSQL at ${new URL(DATABASE_URL).host}, local storage in one shared folder, built-in test gateway; ` +
    `${availableParallelism()} cores. autocannon: ${CONNECTIONS} connections, ${SECONDS} s per call after a ` +
    `${WARM_UP_SECONDS} s warm-up. Uploads: ${UPLOAD_CLIENTS} clients at once, ${UPLOAD_BYTES / MIB} MiB ` +
    `each, 4 parts in flight each. Every request goes through the round-robin proxy.\n`,
);
const one = await measure(1);
const three = await measure(3);

const row = (name, a, b, unit) => ({
  load: name,
  '1 process req/s': Math.round(a.rps),
  '1 process p99 ms': Math.round(a.p99),
  '3 processes req/s': Math.round(b.rps),
  '3 processes p99 ms': Math.round(b.p99),
  'req/s 3/1': Number((b.rps / (a.rps || 1)).toFixed(2)),
  'p99 3/1': Number((b.p99 / (a.p99 || 1)).toFixed(2)),
  'other status (1, 3)': `${a.other}, ${b.other}`,
  unit,
});
console.table([
  row('GET /api/stores/demo-expo', one.storePage, three.storePage, 'requests'),
  row('POST /api/stores/demo-expo/payment-intents', one.intents, three.intents, 'requests'),
  row(
    `uploads, ${UPLOAD_CLIENTS} clients × ${UPLOAD_BYTES / MIB} MiB`,
    one.uploads,
    three.uploads,
    'part PUTs',
  ),
]);
console.log(
  `Uploads: ${one.uploads.mbps.toFixed(1)} MB/s with one process (${one.uploads.seconds.toFixed(1)} s), ` +
    `${three.uploads.mbps.toFixed(1)} MB/s with three (${three.uploads.seconds.toFixed(1)} s): ` +
    `${(three.uploads.mbps / (one.uploads.mbps || 1)).toFixed(2)} × (sha-256 verified for every file).\n`,
);
console.log(
  `On a ${availableParallelism()}-core machine three processes share ${availableParallelism()} cores with ` +
    'PostgreSQL, the proxy and the load generator, so these ratios show that the work spreads correctly over ' +
    'the processes and that the shared database holds up under it (the other-status column counts answers ' +
    'that were not the expected ones), not the gain a deployment with a core or a machine per process would ' +
    'see. A file whose parts land on ' +
    'several processes is also hashed once more at completion (no single process saw all of it, so its ' +
    'running hash is not trusted), work that one process does not have.',
);

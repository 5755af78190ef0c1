import { randomBytes, randomUUID } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { enqueueMail, startMailWorker } from '../src/modules/mail/index.js';
import { startServer } from '../src/start.js';
import type { RunningServer } from '../src/start.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { startProvidersStandIn } from './helpers/cloud-standins/providers.js';
import { providersEnv } from './helpers/cloud-standins/providers.js';
import { tempDir, TEST_DATABASE_URL, testEnv } from './helpers/env.js';
import { startImportHarness } from './helpers/imports.js';
import { freePort, waitFor } from './helpers/smtp.js';
import { seeded } from './helpers/store.js';
import { interleavedPuts, memorySource, nodeClient, sponsorForm } from './helpers/uploads.js';

/**
 * GET /metrics (issue 35 item 1): off unless METRICS_TOKEN (bearer) or METRICS_PORT (127.0.0.1) is set;
 * each family shows once its traffic happened; route labels are patterns, so the number of series does
 * not grow with the ids and paths clients send.
 */

const TOKEN = 'metrics-token-for-tests-0123456789';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await startTestApp({ env: { METRICS_TOKEN: TOKEN, ...env } });
  cleanups.push(() => t.close());
  return t;
}

async function scrape(url: string, token: string | undefined = TOKEN): Promise<string> {
  const res = await fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample, `name{labels}`, or undefined when the text has no such line. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => have[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/** The sample lines of our own families (Node's own come and go with GC kinds and handle types). */
const ourSeries = (text: string) => text.split('\n').filter((line) => line.startsWith('avp_'));

describe('who can read /metrics', () => {
  it('is off by default: 404, with or without a token', async () => {
    const t = await startTestApp();
    cleanups.push(() => t.close());
    expect((await t.request('/metrics')).status).toBe(404);
    expect((await t.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('with METRICS_TOKEN: 401 without the bearer token or with another one, 200 with it', async () => {
    const t = await app();
    const missing = await t.request('/metrics');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    for (const wrong of [`${TOKEN}x`, TOKEN.slice(0, -1), 'x', '']) {
      const res = await t.request('/metrics', { headers: { authorization: `Bearer ${wrong}` } });
      expect(res.status).toBe(401);
    }
    expect((await t.request('/metrics', { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
    const text = await scrape(`${t.url}/metrics`);
    expect(text).toContain('# TYPE avp_http_requests_total counter');
  });

  it('METRICS_PORT: its own listener on 127.0.0.1 only, no token needed there; the main port stays 404', async () => {
    const data = await tempDir();
    cleanups.push(() => data.remove());
    const config = loadConfig(testEnv(data.dir, 'sqlite', { METRICS_PORT: String(await freePort()) }));
    const running: RunningServer = await startServer(config, { port: 0, logger: createLogger(config) });
    cleanups.push(() => running.close());
    expect(running.metricsServer?.url).toBe(`http://127.0.0.1:${config.METRICS_PORT}/metrics`);
    expect((await fetch(`${running.url}/metrics`)).status).toBe(404);
    await fetch(`${running.url}/api/health`);
    const text = await scrape(running.metricsServer!.url, undefined);
    expect(sample(text, 'avp_http_requests_total', { route: '/api/health', status: '200' })).toBe(1);
    expect((await fetch(`http://127.0.0.1:${config.METRICS_PORT}/other`)).status).toBe(404);
    // Not on any other address of this machine.
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === 'IPv4');
    if (outside) {
      await expect(fetch(`http://${outside.address}:${config.METRICS_PORT}/metrics`)).rejects.toThrow();
    }
  });
});

describe('what /metrics counts', () => {
  it('HTTP requests by route pattern, uploads, claim conflicts, the store cache, and Node’s own figures', async () => {
    const t = await app();
    await seeded(t);
    const browser = new TestBrowser(t.url);
    expect((await browser.post('/api/auth/register', registration())).status).toBe(201);
    const client = nodeClient(t.url, { cookie: browser.cookieHeader()! });
    const submission = await client.createSubmission(sponsorForm);
    const clip = memorySource(100_000);
    const queue = client.queue(submission.id);
    queue.add(clip.source);
    await queue.settled();
    expect(queue.files[0]?.state).toBe('complete');

    // The same part sent twice at once: one write gets the claim, the other is refused.
    const twice = memorySource(512 * 1024, 'twice.mov');
    const registered = await browser.post<{ file: { id: string } }>(
      `/api/uploads/submissions/${submission.id}/files`,
      { name: 'twice.mov', size: twice.bytes.length },
    );
    const answers = await interleavedPuts(
      `${t.url}/api/uploads/files/${registered.body.file.id}/parts/1`,
      { cookie: browser.cookieHeader()!, origin: t.url },
      [twice.bytes, twice.bytes],
    );
    // The refusal is a 409, or a cut connection when it came while its body was still being sent.
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 200)).toEqual([expect.toBeOneOf([409, 0])]);

    expect((await fetch(`${t.url}/api/stores/demo-expo`)).status).toBe(200);
    expect((await fetch(`${t.url}/api/stores/demo-expo`)).status).toBe(200);

    const text = await scrape(`${t.url}/metrics`);
    const partRoute = '/api/uploads/files/:fileId/parts/:partNumber';
    expect(
      sample(text, 'avp_http_requests_total', { method: 'PUT', route: partRoute, status: '200' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'avp_http_request_duration_seconds_count', { method: 'PUT', route: partRoute }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'avp_upload_parts_total')).toBe(2);
    expect(sample(text, 'avp_upload_bytes_total')).toBe(100_000 + 512 * 1024);
    expect(sample(text, 'avp_uploads_active')).toBe(0);
    expect(sample(text, 'avp_upload_claim_conflicts_total', { claim: 'part' })).toBe(1);
    expect(sample(text, 'avp_store_cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(sample(text, 'avp_store_cache_lookups_total', { result: 'hit' })).toBe(1);
    expect(sample(text, 'avp_http_requests_total', { route: '/api/stores/:storeId', status: '200' })).toBe(2);
    // Node's own: memory, event-loop delay, GC.
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    // Ids never reach a label.
    expect(text).not.toContain(registered.body.file.id);
    expect(text).not.toContain(submission.id);
  });

  it('mail: the outbox depth, messages sent, and failed attempts (final or to be retried)', async () => {
    const t = await app();
    await enqueueMail(t.db, { to: 'staff@example.com', subject: 'Sent', text: 'Hello' });
    const before = await scrape(`${t.url}/metrics`);
    expect(sample(before, 'avp_mail_outbox', { status: 'queued' })).toBe(1);
    const worker = startMailWorker({ config: t.config, db: t.db, logger: t.logger, pollMs: 50 });
    cleanups.push(() => worker.stop());
    await waitFor(
      async () => sample(await scrape(`${t.url}/metrics`), 'avp_mail_sent_total') === 1,
      10_000,
      'sent',
    );
    expect(sample(await scrape(`${t.url}/metrics`), 'avp_mail_outbox', { status: 'queued' })).toBe(0);

    // An SMTP server that is not there: with one attempt allowed, the message is given up.
    const smtp = { ...t.config, SMTP_URL: `smtp://127.0.0.1:${await freePort()}` };
    await worker.stop();
    const failing = startMailWorker({ config: smtp, db: t.db, logger: t.logger, pollMs: 50, maxAttempts: 1 });
    cleanups.push(() => failing.stop());
    await enqueueMail(t.db, { to: 'staff@example.com', subject: 'Lost', text: 'Hello' });
    await waitFor(
      async () => sample(await scrape(`${t.url}/metrics`), 'avp_mail_failed_total', { final: 'true' }) === 1,
      10_000,
      'failed',
    );
    expect(sample(await scrape(`${t.url}/metrics`), 'avp_mail_outbox', { status: 'failed' })).toBe(1);
  });

  it('imports: by state and provider with their bytes, and the bytes this process copied', async () => {
    const p = await startProvidersStandIn();
    cleanups.push(() => p.close());
    const h = await startImportHarness({ env: { ...providersEnv(p), METRICS_TOKEN: TOKEN } });
    cleanups.push(() => h.close());
    const data = randomBytes(70_000);
    p.files.set('dbx-m', { id: 'dbx-m', name: 'reel.mov', data });
    const started = await h.start({
      provider: 'dropbox',
      link: `${p.url}/dropbox/direct/dbx-m/reel.mov?t=${Date.now()}`,
      name: 'reel.mov',
    });
    expect(started.status).toBe(201);
    // The import settles after the file completes (once its media facts are read, or the notice wait ends).
    await h.waitFor(started.file.id, (f) => f.status === 'complete' && f.import?.status === 'complete');
    const text = await scrape(`${h.t.url}/metrics`);
    expect(sample(text, 'avp_imports', { state: 'complete', provider: 'dropbox' })).toBe(1);
    expect(sample(text, 'avp_import_bytes', { state: 'complete', provider: 'dropbox' })).toBe(data.length);
    expect(sample(text, 'avp_import_bytes_total')).toBe(data.length);
    // Imported bytes are not counted as client uploads.
    expect(sample(text, 'avp_upload_bytes_total')).toBe(0);
  });

  it.skipIf(!TEST_DATABASE_URL)('the PostgreSQL connection pool: in use, idle, waiting', async () => {
    const t = await startTestApp({ dialect: 'postgres', env: { METRICS_TOKEN: TOKEN } });
    cleanups.push(() => t.close());
    const text = await scrape(`${t.url}/metrics`);
    for (const state of ['in_use', 'idle', 'waiting']) {
      expect(sample(text, 'avp_db_pool_connections', { state })).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, 'avp_db_pool_connections', { state: 'waiting' })).toBe(0);
  });
});

describe('bounded cardinality', () => {
  it('500 requests to distinct ids and missing paths leave the number of series as it was', async () => {
    const t = await app();
    await seeded(t);
    const browser = new TestBrowser(t.url);
    expect((await browser.post('/api/auth/register', registration())).status).toBe(201);
    const cookie = browser.cookieHeader()!;
    const kinds = [
      (_n: number) => fetch(`${t.url}/api/uploads/files/${randomUUID()}`, { headers: { cookie } }),
      (n: number) => fetch(`${t.url}/api/stores/no-such-store-${n}`),
      (n: number) => fetch(`${t.url}/api/no-such-route-${n}/${randomUUID()}`),
      (n: number) => fetch(`${t.url}/no-such-page-${n}`, { method: 'POST' }),
      (n: number) =>
        fetch(`${t.url}/api/uploads/files/${randomUUID()}/parts/${n}`, {
          method: 'PUT',
          headers: { cookie, origin: t.url },
        }),
    ];
    for (const [n, kind] of kinds.entries()) expect((await kind(n)).status).toBeGreaterThanOrEqual(400);
    const before = ourSeries(await scrape(`${t.url}/metrics`)).map((line) => line.replace(/ \S+$/, ''));

    for (let n = 0; n < 500; n += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          kinds[(n + i) % kinds.length]!(1000 + n + i).then((res) => res.arrayBuffer()),
        ),
      );
    }
    const text = await scrape(`${t.url}/metrics`);
    const after = ourSeries(text).map((line) => line.replace(/ \S+$/, ''));
    // The scrape itself is counted the second time: the only new series are /metrics's own.
    expect(after.filter((line) => !line.includes('route="/metrics"'))).toEqual(
      before.filter((line) => !line.includes('route="/metrics"')),
    );
    for (const method of ['GET', 'POST']) {
      expect(sample(text, 'avp_http_requests_total', { method, route: 'unmatched', status: '404' })).toBe(
        101,
      );
    }
    expect(text).not.toMatch(/no-such|[0-9a-f]{8}-[0-9a-f]{4}-/);
  });
  it('a request refused before its route (cross-site) is labelled with the route it was for', async () => {
    const t = await app();
    const browser = new TestBrowser(t.url);
    expect((await browser.post('/api/auth/register', registration())).status).toBe(201);
    const refused = await fetch(`${t.url}/api/uploads/files/${randomUUID()}/parts/1`, {
      method: 'PUT',
      headers: { cookie: browser.cookieHeader()!, origin: 'https://elsewhere.example' },
    });
    expect(refused.status).toBe(403);
    const text = await scrape(`${t.url}/metrics`);
    const route = '/api/uploads/files/:fileId/parts/:partNumber';
    expect(sample(text, 'avp_http_requests_total', { method: 'PUT', route, status: '403' })).toBe(1);
  });
});

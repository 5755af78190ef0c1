/**
 * Offline-first, against the real API (a child process): a job added while the server is down is saved at
 * once, registered when the server answers and completes with the right sha-256; a wall-clock jump (the
 * laptop slept) tries again at once instead of after the backoff; "Retry now" does too; a bounded run gives
 * up with the cause in words; a refused token stops without retrying; paths that cannot be sent are
 * refused when added, with their names and reasons.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransportRequest, UploadTransport } from '@avp/shared';
import {
  AuthClient,
  JsonFileStore,
  MemoryStore,
  PathsRefusedError,
  UploadEngine,
} from '../src/engine/index.js';
import type { EngineEvent, EngineOptions, EngineStore } from '../src/engine/index.js';
import { PASSWORD, registerClient, sha256File, startApi, storedPath, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';
import { startRelay } from './helpers/relay.js';

const MiB = 1024 * 1024;
const sponsor = {
  form_type: 'sponsor' as const,
  event_name: 'Expo 2027',
  sponsor_company: 'Acme AV',
  description: '',
};
const FAST_RETRY = { retries: 2, baseMs: 20, maxMs: 50 };
/** A backoff so long that only what the test does (a clock jump, Retry now) can bring the next try. */
const NEVER = { baseMs: 3_600_000, maxMs: 3_600_000 };

let api: ApiProcess;
let token: string;
let dir: string;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  api = await startApi();
  cleanups.push(() => api.close());
  const work = await tempDir();
  dir = work.dir;
  cleanups.push(work.remove);
  const email = await registerClient(api.url, 'offline@example.com');
  token = (await new AuthClient(api.url).login(email, PASSWORD)).token;
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function makeFile(name: string, size: number): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, randomBytes(size));
  return file;
}

function engine(store: EngineStore, options: Partial<EngineOptions> = {}) {
  const e = new UploadEngine({
    baseUrl: api.url,
    store,
    token: () => token,
    retry: FAST_RETRY,
    backoff: { baseMs: 50, maxMs: 200 },
    ...options,
  });
  cleanups.push(() => e.stop());
  return e;
}

function until(e: UploadEngine, predicate: (event: EngineEvent) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const off = e.on((event) => {
      if (predicate(event)) {
        off();
        resolve();
      }
    });
  });
}

/** Counts the requests the engine makes, by method and path. */
function counter() {
  const calls: string[] = [];
  const wrap =
    (inner: UploadTransport): UploadTransport =>
    (request: TransportRequest) => {
      calls.push(`${request.method} ${request.path}`);
      return inner(request);
    };
  return { calls, wrap };
}

async function storedSha(submissionId: string): Promise<string> {
  const res = await fetch(`${api.url}/api/uploads/submissions/${submissionId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { submission: { files: { id: string }[] } };
  return sha256File(storedPath(api.dataDir, submissionId, body.submission.files[0]!.id));
}

describe('the engine with the server down', () => {
  it('saves a job at once, says it waits for the server, and completes it once the server is started', async () => {
    const file = await makeFile('offline.mov', 7 * MiB);
    await api.kill();
    const store = new JsonFileStore(path.join(dir, 'offline.json'));
    const e = engine(store);
    const connections: EngineEvent[] = [];
    e.on((event) => {
      if (event.type === 'connection' || event.type === 'retry') connections.push(event);
    });
    await e.start();
    const waiting = until(e, (ev) => ev.type === 'connection' && ev.connection.state === 'waiting');
    const job = await e.add(sponsor, [file]);
    expect(job.state).toBe('waiting');
    expect(job.submissionId).toBeNull();
    // On disk before any answer: a crash now loses nothing.
    const saved = JSON.parse(await readFile(store.file, 'utf8')) as {
      jobs: { id: string; state: string; files: { path: string }[] }[];
    };
    expect(saved.jobs.map((j) => [j.id, j.state, j.files[0]!.path])).toEqual([[job.id, 'waiting', file]]);
    await waiting;
    const connection = e.snapshot().connection;
    expect(connection).toMatchObject({
      state: 'waiting',
      server: api.url,
      reason: 'unreachable',
      message: `Nothing answers at ${api.url} (the connection was refused).`,
      queuedFiles: 1,
    });
    expect(JSON.stringify(connections)).not.toMatch(/ECONNREFUSED|ENOENT/);
    expect(connections.some((ev) => ev.type === 'retry' && ev.what === 'register')).toBe(true);

    await api.restart();
    const sent = new Promise<string>((resolve) =>
      e.on((ev) => ev.type === 'submitted' && ev.entry.jobId === job.id && resolve(ev.entry.submissionId)),
    );
    const submissionId = await sent;
    expect(e.snapshot().connection).toEqual({ state: 'online' });
    const entry = e.snapshot().history[0]!;
    expect(entry.files[0]!.sha256).toBe(await sha256File(file));
    expect(await storedSha(submissionId)).toBe(await sha256File(file));
  });

  it('a job saved while offline is continued by the next engine on the same queue', async () => {
    const file = await makeFile('carried.mov', 1 * MiB);
    await api.kill();
    const store = new JsonFileStore(path.join(dir, 'carried.json'));
    const first = engine(store, { backoff: NEVER });
    await first.start();
    const job = await first.add(sponsor, [file]);
    await first.stop();
    await api.restart();
    const second = engine(store);
    const done = until(second, (ev) => ev.type === 'submitted' && ev.entry.jobId === job.id);
    await second.start();
    await done;
    expect(second.snapshot().history[0]!.files[0]!.sha256).toBe(await sha256File(file));
  });

  it('tries at once after a jump of the wall clock against the monotonic one (a sleep), not after the backoff', async () => {
    const file = await makeFile('slept.mov', 1 * MiB);
    await api.kill();
    let offset = 0;
    const e = engine(new MemoryStore(), {
      backoff: NEVER,
      engineClock: { wall: () => Date.now() + offset, monotonic: () => performance.now() },
      watchMs: 10,
    });
    await e.start();
    const waiting = until(e, (ev) => ev.type === 'connection' && ev.connection.state === 'waiting');
    const job = await e.add(sponsor, [file]);
    await waiting;
    const next = e.snapshot().connection;
    expect(next.state === 'waiting' && next.nextTryAt - Date.now()).toBeGreaterThan(60_000);
    await api.restart();
    const done = until(e, (ev) => ev.type === 'submitted' && ev.entry.jobId === job.id);
    // The lid opens: the wall clock is ten minutes on, the monotonic clock is not.
    offset += 10 * 60_000;
    await done;
    expect(e.snapshot().history[0]!.files[0]!.sha256).toBe(await sha256File(file));
  });

  it('after a sleep mid-upload, starts the parts in flight again at once and finishes intact', async () => {
    const file = await makeFile('lid-closed.mov', 13 * MiB);
    let offset = 0;
    const count = counter();
    const e = engine(new MemoryStore(), {
      engineClock: { wall: () => Date.now() + offset, monotonic: () => performance.now() },
      watchMs: 10,
      wrapTransport: count.wrap,
    });
    e.setSettings({ bandwidthBytesPerSecond: 4 * MiB, partConcurrency: 1 });
    await e.start();
    const job = await e.add(sponsor, [file]);
    await until(e, () => e.snapshot().jobs.some((j) => j.files.some((f) => f.progress.sentBytes > 0)));
    const before = count.calls.length;
    const done = until(e, (ev) => ev.type === 'submitted' && ev.entry.jobId === job.id);
    offset += 20 * 60_000;
    await done;
    // Started again: the engine asked the server which parts it holds, then went on from there.
    expect(
      count.calls.slice(before).filter((c) => /^GET \/api\/uploads\/files\/[^/]+$/.test(c)),
    ).toHaveLength(1);
    expect(e.snapshot().history.find((h) => h.jobId === job.id)!.files[0]!.sha256).toBe(
      await sha256File(file),
    );
  });

  it('tries at once when the machine’s network changes (another Wi-Fi)', async () => {
    const file = await makeFile('roamed.mov', 100_000);
    await api.kill();
    let network = 'wlan0/192.168.1.20';
    const e = engine(new MemoryStore(), { backoff: NEVER, network: () => network, watchMs: 10 });
    await e.start();
    const waiting = until(e, (ev) => ev.type === 'connection' && ev.connection.state === 'waiting');
    const job = await e.add(sponsor, [file]);
    await waiting;
    await api.restart();
    const done = until(e, (ev) => ev.type === 'submitted' && ev.entry.jobId === job.id);
    network = 'wlan0/10.0.0.7';
    await done;
  });

  it('"Retry now" tries every waiting call at once', async () => {
    const file = await makeFile('now.mov', 100_000);
    await api.kill();
    const e = engine(new MemoryStore(), { backoff: NEVER });
    await e.start();
    const waiting = until(e, (ev) => ev.type === 'connection' && ev.connection.state === 'waiting');
    const job = await e.add(sponsor, [file]);
    await waiting;
    await api.restart();
    const done = until(e, (ev) => ev.type === 'submitted' && ev.entry.jobId === job.id);
    await e.retryNow();
    await done;
  });

  it('a bounded run gives up with the cause in words, and resumes later', async () => {
    const file = await makeFile('bounded.mov', 100_000);
    await api.kill();
    const e = engine(new MemoryStore(), { backoff: { baseMs: 20, maxMs: 40 } });
    await e.start({ giveUpAfterMs: 200 });
    const failures: string[] = [];
    e.on((ev) => ev.type === 'failed' && failures.push(ev.message));
    const job = await e.add(sponsor, [file]);
    await e.whenIdle();
    const view = e.snapshot().jobs.find((j) => j.id === job.id)!;
    expect(view.state).toBe('failed');
    expect(view.error).toEqual({
      code: 'unreachable',
      message: `Nothing answers at ${api.url} (the connection was refused).`,
    });
    expect(failures).toEqual([view.error!.message]);
    await api.restart();
    const done = until(e, (ev) => ev.type === 'submitted' && ev.entry.jobId === job.id);
    await e.resumeAll();
    await done;
  });
});

describe('a link that stalls', () => {
  it('aborts a part whose bytes stop moving after the idle timeout, says so, and sends it again', async () => {
    // Three parts: the first two go together, one of them on a new connection (the last part follows
    // once they are answered, with the file's sha-256).
    const file = await makeFile('stalled.mov', 13 * MiB);
    const relay = await startRelay(api.url);
    cleanups.push(() => relay.close());
    const e = engine(new MemoryStore(), {
      baseUrl: relay.url,
      timeouts: { idleMs: 1_000 },
      retry: { retries: 20, baseMs: 20, maxMs: 100 },
    });
    await e.start();
    const job = await e.add(sponsor, [file]);
    await until(e, (ev) => ev.type === 'registered' && ev.jobId === job.id);
    // The link goes silent 1 MiB into the next connection: a part's body stops part way.
    relay.stallAfter(1 * MiB);
    const stalled = await new Promise<EngineEvent>((resolve) =>
      e.on((ev) => ev.type === 'retry' && ev.what === 'part' && resolve(ev)),
    );
    expect(stalled).toMatchObject({
      type: 'retry',
      reason: 'unreachable',
      message: `${relay.url} stopped answering (no data for too long).`,
      attempt: 2,
    });
    relay.stallAfter(null);
    const sent = until(e, (ev) => ev.type === 'submitted' && ev.entry.jobId === job.id);
    await sent;
    const entry = e.snapshot().history.find((h) => h.jobId === job.id)!;
    expect(entry.files[0]!.sha256).toBe(await sha256File(file));
    expect(await storedSha(entry.submissionId)).toBe(await sha256File(file));
  });
});

describe('a server that answers 503', () => {
  it('waits with the reason server-error and the server’s own message', async () => {
    const standIn = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' });
      res.end(
        JSON.stringify({ error: { code: 'unavailable', message: 'Down for maintenance until 10:00.' } }),
      );
    });
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => standIn.close(() => resolve(undefined))));
    const url = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    const e = engine(new MemoryStore(), { baseUrl: url, backoff: NEVER });
    await e.start();
    const waiting = until(e, (ev) => ev.type === 'connection' && ev.connection.state === 'waiting');
    const job = await e.add(sponsor, [await makeFile('maintenance.mov', 1000)]);
    await waiting;
    expect(e.snapshot().connection).toMatchObject({
      state: 'waiting',
      server: url,
      reason: 'server-error',
      message: 'The server answered 503: Down for maintenance until 10:00.',
      attempt: 1,
      queuedFiles: 1,
    });
    expect(e.snapshot().jobs.find((j) => j.id === job.id)).toMatchObject({ state: 'waiting', error: null });
  });
});

describe('answers that are not worth waiting for', () => {
  it('a refused token stops the job with code auth, after one request', async () => {
    const file = await makeFile('refused.mov', 100_000);
    const count = counter();
    const e = new UploadEngine({
      baseUrl: api.url,
      store: new MemoryStore(),
      token: () => 'not-a-token',
      retry: FAST_RETRY,
      wrapTransport: count.wrap,
    });
    cleanups.push(() => e.stop());
    let unauthorized = 0;
    e.on((ev) => ev.type === 'unauthorized' && unauthorized++);
    await e.start();
    const job = await e.add(sponsor, [file]);
    await e.whenIdle();
    const view = e.snapshot().jobs.find((j) => j.id === job.id)!;
    expect(view.state).toBe('failed');
    expect(view.error).toEqual({
      code: 'auth',
      message: 'The session has expired, please relogin and try again.',
    });
    expect(count.calls).toEqual(['POST /api/uploads/submissions']);
    expect(unauthorized).toBe(1);
    expect(e.snapshot().connection).toEqual({ state: 'online' });
  });

  it('refuses paths that do not exist, cannot be read or hold nothing, naming each, and queues nothing', async () => {
    const good = await makeFile('fine.mov', 1000);
    const locked = await makeFile('locked.mov', 1000);
    await chmod(locked, 0o000);
    const empty = path.join(dir, 'empty folder');
    await mkdir(empty, { recursive: true });
    const missing = path.join(dir, 'no-such-clip.mov');
    const e = engine(new MemoryStore());
    await e.start();
    const refused = await e.add(sponsor, [good, missing, locked, empty]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PathsRefusedError);
    const reasons = (refused as PathsRefusedError).refused;
    // root reads anything: the locked file is refused only where permissions hold.
    const lockedHolds = process.getuid?.() !== 0;
    expect(reasons).toEqual([
      { path: missing, reason: 'does not exist' },
      ...(lockedHolds ? [{ path: locked, reason: 'cannot be read: permission denied' }] : []),
      { path: empty, reason: 'is an empty folder' },
    ]);
    expect((refused as Error).message).toMatch(
      /^\d of the chosen files cannot be sent: no-such-clip\.mov does not exist; /,
    );
    expect(e.snapshot().jobs).toEqual([]);
  });
});

/**
 * The engine against the real API (a child process): upload and sha-256, the bandwidth limit, the
 * engine stopped and started again from its persisted state, a file changed on disk, and the server
 * killed and restarted mid-upload. Files are a few MB; limits are small so a loaded machine keeps up.
 */
import { randomBytes } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransportRequest, UploadTransport } from '@avp/shared';
import {
  AuthClient,
  FileChangedError,
  JsonFileStore,
  MemoryStore,
  NodeFileSource,
  TokenBucket,
  UploadEngine,
  identify,
} from '../src/engine/index.js';
import type { EngineStore } from '../src/engine/index.js';
import { checkPaths } from '../src/engine/paths.js';
import { registerClient, PASSWORD, sha256File, startApi, storedPath, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';

const MiB = 1024 * 1024;
const sponsor = {
  form_type: 'sponsor' as const,
  event_name: 'Expo 2027',
  sponsor_company: 'Acme AV',
  description: '',
};
const FAST_RETRY = { retries: 40, baseMs: 100, maxMs: 500 };

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
  const email = await registerClient(api.url, 'engine@example.com');
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

/** Records every part PUT the engine makes (path, start and end times) at its transport. */
function recorder() {
  const puts: { path: string; started: number; ended: number; status: number }[] = [];
  const wrap =
    (inner: UploadTransport): UploadTransport =>
    async (request: TransportRequest) => {
      const started = performance.now();
      const res = await inner(request);
      if (request.method === 'PUT')
        puts.push({ path: request.path, started, ended: performance.now(), status: res.status });
      return res;
    };
  return { puts, wrap };
}

function engine(store: EngineStore, wrapTransport?: (t: UploadTransport) => UploadTransport) {
  const e = new UploadEngine({
    baseUrl: api.url,
    store,
    token: () => token,
    retry: FAST_RETRY,
    backoff: { baseMs: 100, maxMs: 500 },
    wrapTransport,
  });
  cleanups.push(() => e.stop());
  return e;
}

function until(e: UploadEngine, predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (predicate()) return resolve();
    const off = e.on(() => {
      if (predicate()) {
        off();
        resolve();
      }
    });
  });
}

describe('the upload engine against the real API', () => {
  it('uploads files, sends the submission and keeps the sha-256 the server computed', async () => {
    const big = await makeFile('keynote.mov', 7 * MiB);
    const small = await makeFile('slides.pdf', 200_000);
    const e = engine(new MemoryStore());
    await e.start();
    const job = await e.add(sponsor, [big, small]);
    expect(job.files.map((f) => f.name)).toEqual(['keynote.mov', 'slides.pdf']);
    await e.whenIdle();
    const snap = e.snapshot();
    expect(snap.jobs).toEqual([]);
    expect(snap.history).toHaveLength(1);
    const entry = snap.history[0]!;
    expect(entry.jobId).toBe(job.id);
    expect(entry.fields).toMatchObject({ event_name: 'Expo 2027', sponsor_company: 'Acme AV' });
    expect(entry.files.map((f) => [f.name, f.sha256])).toEqual([
      ['keynote.mov', await sha256File(big)],
      ['slides.pdf', await sha256File(small)],
    ]);
  });

  // Proven by counting on a clock the test controls, not by timing a shared machine: the bucket's clock
  // moves only when the bucket waits, so the bytes it lets through in that time are exactly measurable.
  it('lets through no more than the limit: every part byte is paid for in the bucket, at the set rate', async () => {
    const size = 7 * MiB;
    const file = await makeFile('limited.mov', size);
    let virtualMs = 0;
    let paid = 0;
    const limit = 2.5 * MiB;
    class CountingBucket extends TokenBucket {
      override take(bytes: number, signal?: AbortSignal) {
        paid += bytes;
        return super.take(bytes, signal);
      }
    }
    const bucket = new CountingBucket(
      0,
      () => virtualMs,
      async (ms) => {
        virtualMs += ms;
        await new Promise((resolve) => setImmediate(resolve));
      },
    );
    const rec = recorder();
    const e = new UploadEngine({
      baseUrl: api.url,
      store: new MemoryStore(),
      token: () => token,
      retry: FAST_RETRY,
      wrapTransport: rec.wrap,
      bucket,
    });
    cleanups.push(() => e.stop());
    e.setSettings({ bandwidthBytesPerSecond: limit, partConcurrency: 4 });
    expect(bucket.bytesPerSecond).toBe(limit);
    await e.start();
    await e.add(sponsor, [file]);
    await e.whenIdle();
    expect(rec.puts.map((p) => p.status)).toEqual([200, 200]);
    expect(paid).toBe(size);
    // Released ≤ rate × time + one bucketful (50 ms of traffic); and no slower than the rate either.
    const atRate = (limit * virtualMs) / 1000;
    expect(size).toBeLessThanOrEqual(atRate + bucket.capacity());
    expect(atRate).toBeLessThanOrEqual(size + bucket.capacity());
    expect(e.snapshot().history[0]!.files[0]!.sha256).toBe(await sha256File(file));
  });

  it('continues from its persisted state after the engine is stopped and started again', async () => {
    const file = await makeFile('restart.mov', 13 * MiB);
    const store = new JsonFileStore(path.join(dir, 'state-restart.json'));
    const first = engine(store);
    first.setSettings({ bandwidthBytesPerSecond: 5 * MiB, partConcurrency: 1 });
    await first.start();
    const job = await first.add(sponsor, [file]);
    await until(first, () => (store.load()?.jobs[0]?.files[0]?.receivedParts.length ?? 0) >= 1);
    await first.stop();

    const persisted = JSON.parse(await readFile(store.file, 'utf8')) as {
      jobs: { files: { receivedParts: number[]; state: string }[] }[];
    };
    expect(persisted.jobs[0]!.files[0]!.receivedParts).toContain(1);
    expect(persisted.jobs[0]!.files[0]!.state).toBe('uploading');

    const rec = recorder();
    const second = engine(store, rec.wrap);
    second.setSettings({ bandwidthBytesPerSecond: 0, partConcurrency: 4 });
    await second.start();
    await second.whenIdle();
    const sentAgain = rec.puts.map((p) => Number(p.path.split('/').pop()));
    expect(sentAgain).not.toContain(1);
    const entry = second.snapshot().history[0]!;
    expect(entry.jobId).toBe(job.id);
    expect(entry.files[0]!.sha256).toBe(await sha256File(file));
  });

  it('stops a file changed on disk since it was queued, with a clear message', async () => {
    const file = await makeFile('edited.mov', 3 * MiB);
    const store = new JsonFileStore(path.join(dir, 'state-changed.json'));
    const first = engine(store);
    await first.start();
    await first.add(sponsor, [file]);
    first.pauseAll();
    await first.stop();
    await appendFile(file, 'more bytes');

    const second = engine(store);
    const failures: string[] = [];
    second.on((event) => {
      if (event.type === 'failed') failures.push(event.message);
    });
    await second.start();
    await second.whenIdle();
    // Paused files are checked when resumed.
    await second.resumeAll();
    await second.whenIdle();
    const job = second.snapshot().jobs[0]!;
    expect(job.state).toBe('failed');
    expect(job.files[0]!.state).toBe('failed');
    expect(job.files[0]!.error?.code).toBe('file_changed');
    expect(job.files[0]!.error?.message).toMatch(/"edited\.mov" changed on disk after it was queued/);
    expect(failures[0]).toBe(job.files[0]!.error?.message);
    expect(second.snapshot().history).toEqual([]);
  });

  it('queues the files as its caller walked them: one edited since that walk is stopped, not sent', async () => {
    // av-upload walks its paths once and hands the files to inspect() and add(), which look no further.
    const file = await makeFile('walked.mov', 3 * MiB);
    const { files } = await checkPaths([file]);
    await appendFile(file, 'more bytes');
    const e = engine(new MemoryStore());
    await e.start();
    const job = await e.add(sponsor, [file], [], undefined, files);
    expect(job.files[0]!.size).toBe(3 * MiB);
    await e.whenIdle();
    const stopped = e.snapshot().jobs[0]!;
    expect(stopped.files[0]!.error?.code).toBe('file_changed');
    expect(e.snapshot().history).toEqual([]);
  });

  it('refuses to read a part of a file edited after it was opened', async () => {
    const file = await makeFile('growing.mov', 1 * MiB);
    const source = new NodeFileSource(await identify(file));
    expect((await source.read(0, 1000)).length).toBe(1000);
    await new Promise((r) => setTimeout(r, 20));
    await appendFile(file, 'x');
    await expect(source.read(1000, 2000)).rejects.toBeInstanceOf(FileChangedError);
    expect(source.changed).toBe(true);
    await source.close();
  });

  it('sends a folder of small files several to a request, each stored whole with the sha-256 of the file on disk', async () => {
    const smalls = await Promise.all(
      Array.from({ length: 20 }, (_, i) => makeFile(`still-${String(i).padStart(2, '0')}.jpg`, 50_000 + i)),
    );
    const large = await makeFile('reel.mov', 4 * MiB);
    const sent: string[] = [];
    const e = engine(new MemoryStore(), (inner) => async (request) => {
      if (request.body)
        sent.push(`${request.method} ${request.path.split('?')[0]!.replace(/[0-9a-f-]{36}/g, ':id')}`);
      return inner(request);
    });
    await e.start();
    await e.add(sponsor, [...smalls, large]);
    await e.whenIdle();
    const entry = e.snapshot().history[0]!;
    for (const [i, file] of [...smalls, large].entries()) {
      expect(entry.files[i]!.sha256).toBe(await sha256File(file));
    }
    // The twenty stills in one bundle; the reel (over half a bundle) alone, its only part completing it.
    expect(sent).toEqual(['POST /api/uploads/bundles', 'PUT /api/uploads/files/:id/parts/1']);
    const listed = (await (
      await fetch(`${api.url}/api/uploads/submissions/${entry.submissionId}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { submission: { files: { id: string; name: string }[] } };
    for (const f of listed.submission.files) {
      const local = [...smalls, large].find((p) => path.basename(p) === f.name)!;
      expect(await sha256File(storedPath(api.dataDir, entry.submissionId, f.id))).toBe(
        await sha256File(local),
      );
    }
  });

  it('resumes after the server is killed and restarted mid-upload; the stored bytes match', async () => {
    const file = await makeFile('crash.mov', 13 * MiB);
    const rec = recorder();
    const e = engine(new MemoryStore(), rec.wrap);
    e.setSettings({ bandwidthBytesPerSecond: 5 * MiB, partConcurrency: 1 });
    await e.start();
    const job = await e.add(sponsor, [file]);
    await until(e, () => rec.puts.some((p) => p.status === 200));
    await api.kill();
    await new Promise((r) => setTimeout(r, 300));
    await api.restart();
    await e.whenIdle();
    const entry = e.snapshot().history[0];
    expect(entry?.jobId).toBe(job.id);
    const local = await sha256File(file);
    expect(entry!.files[0]!.sha256).toBe(local);
    const fileId = (await (
      await fetch(`${api.url}/api/uploads/submissions/${entry!.submissionId}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { submission: { files: { id: string }[] } };
    expect(
      await sha256File(storedPath(api.dataDir, entry!.submissionId, fileId.submission.files[0]!.id)),
    ).toBe(local);
  });
});

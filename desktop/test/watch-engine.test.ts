/**
 * Watch folders with the real engine against the real API (watch.test.ts records the engine's add; this
 * one does not): a file put in the folder is sent once; the app stops mid-upload and starts again on the
 * same queue file, and the file is neither queued again nor lost: the second engine finishes it. The
 * requests both engines make are counted at their transports.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubmissionFields, TransportRequest, UploadTransport } from '@avp/shared';
import { AuthClient, FolderWatcher, JsonFileStore, UploadEngine } from '../src/engine/index.js';
import type { EngineEvent } from '../src/engine/index.js';
import { PASSWORD, registerClient, sha256File, startApi, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';

const MiB = 1024 * 1024;
const sponsor: SubmissionFields = {
  form_type: 'sponsor',
  event_name: 'Expo 2027',
  sponsor_company: 'Acme AV',
  description: '',
};

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
  const email = await registerClient(api.url, 'watcher@example.com');
  token = (await new AuthClient(api.url).login(email, PASSWORD)).token;
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The app: an engine on the queue file with a watcher on its store, on a clock the test moves. */
function app(file: string, calls: string[]) {
  let now = 0;
  const engine = new UploadEngine({
    baseUrl: api.url,
    store: new JsonFileStore(file),
    token: () => token,
    retry: { retries: 5, baseMs: 20, maxMs: 100 },
    wrapTransport:
      (inner: UploadTransport): UploadTransport =>
      (request: TransportRequest) => {
        if (request.method === 'POST') calls.push(request.path.replace(/[0-9a-f-]{36}/g, ':id'));
        return inner(request);
      },
  });
  const watcher = new FolderWatcher(engine, engine.watchStore(), { stableMs: 1_000, now: () => now });
  cleanups.push(async () => {
    await watcher.stop();
    await engine.stop();
  });
  return { engine, watcher, tick: (ms: number) => (now += ms) };
}

function next(engine: UploadEngine, predicate: (event: EngineEvent) => boolean): Promise<EngineEvent> {
  return new Promise((resolve) => {
    const off = engine.on((event) => {
      if (predicate(event)) {
        off();
        resolve(event);
      }
    });
  });
}

describe('watch folders with the real engine', () => {
  it('sends a file once, across a restart of the app mid-upload', async () => {
    const folder = path.join(dir, 'exports');
    const queueFile = path.join(dir, 'queue.json');
    const calls: string[] = [];
    const first = app(queueFile, calls);
    await first.engine.start();
    await mkdir(folder);
    await first.watcher.add(folder, sponsor);
    const clip = path.join(folder, 'keynote.mov');
    await writeFile(clip, randomBytes(13 * MiB));
    first.engine.setSettings({ bandwidthBytesPerSecond: 4 * MiB, partConcurrency: 1 });
    await first.watcher.scan();
    first.tick(1_000);
    // The first part stored: the app quits (the queue on disk says where it was).
    const partStored = next(first.engine, () =>
      first.engine.snapshot().jobs.some((j) => j.files.some((f) => f.progress.sentBytes > 0)),
    );
    await first.watcher.scan();
    await partStored;
    await first.watcher.stop();
    await first.engine.stop();
    expect(calls.filter((c) => c === '/api/uploads/submissions')).toHaveLength(1);

    const second = app(queueFile, calls);
    second.engine.setSettings({ bandwidthBytesPerSecond: 0 });
    const sent = next(second.engine, (e) => e.type === 'submitted');
    await second.engine.start();
    // The new watcher sees the same file, stable: it was sent already, so it is not queued again.
    await second.watcher.scan();
    second.tick(5_000);
    await second.watcher.scan();
    const entry = ((await sent) as Extract<EngineEvent, { type: 'submitted' }>).entry;
    expect(entry.files.map((f) => [f.name, f.sha256])).toEqual([['keynote.mov', await sha256File(clip)]]);
    second.tick(5_000);
    await second.watcher.scan();
    await second.engine.whenIdle();
    expect(calls.filter((c) => c === '/api/uploads/submissions')).toHaveLength(1);
    expect(calls.filter((c) => c.endsWith('/submit'))).toEqual(['/api/uploads/submissions/:id/submit']);
    expect(second.engine.snapshot().jobs).toEqual([]);
    expect(second.engine.snapshot().history).toHaveLength(1);

    // A file that comes later is sent, once, by the app running now.
    await writeFile(path.join(folder, 'closing.mov'), randomBytes(100_000));
    const later = next(second.engine, (e) => e.type === 'submitted');
    await second.watcher.scan();
    second.tick(1_000);
    await second.watcher.scan();
    await later;
    second.tick(5_000);
    await second.watcher.scan();
    await second.engine.whenIdle();
    expect(calls.filter((c) => c === '/api/uploads/submissions')).toHaveLength(2);
    expect(second.engine.snapshot().history.map((h) => h.files.map((f) => f.name))).toEqual([
      ['closing.mov'],
      ['keynote.mov'],
    ]);
  });
});

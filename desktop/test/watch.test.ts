import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SubmissionFields } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { FolderWatcher, MemoryStore, UploadEngine } from '../src/engine/index.js';
import type { WatchStore } from '../src/engine/index.js';
import { tempDir } from './helpers/api.js';

/**
 * Watch folders, against the engine's own persisted state: a file is queued once it has stopped
 * growing for the stable time, once only (across a restart too), and a new version is sent again.
 * The engine's add is recorded here; watch-engine.test.ts runs the real engine against the API across a
 * restart.
 */
const sponsor: SubmissionFields = {
  form_type: 'sponsor',
  event_name: 'Expo',
  sponsor_company: 'Acme',
  description: '',
};
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(store = new MemoryStore()) {
  const engine = new UploadEngine({ baseUrl: 'http://127.0.0.1:9', store, token: () => null });
  const added: string[][] = [];
  let now = 0;
  const recorder = {
    add: async (_fields: SubmissionFields, paths: string[]) =>
      void added.push(paths.map((p) => path.basename(p))),
  };
  const watcher = new FolderWatcher(recorder as never, engine.watchStore(), {
    stableMs: 10_000,
    now: () => now,
  });
  return { store, engine, watcher, added, tick: (ms: number) => (now += ms) };
}

describe('watch folders', () => {
  it('sends a file only once it has stopped growing for the stable time', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const { watcher, added, tick } = setup();
    await watcher.add(work.dir, sponsor);
    const file = path.join(work.dir, 'keynote.mov');
    await writeFile(file, 'frame 1');
    await watcher.scan();
    tick(6_000);
    await appendFile(file, 'frame 2'); // still being written
    await watcher.scan();
    tick(6_000);
    await watcher.scan();
    expect(added).toEqual([]);
    tick(4_000);
    await writeFile(path.join(work.dir, 'export.mov.part'), 'partial download');
    await writeFile(path.join(work.dir, '.DS_Store'), 'hidden');
    await watcher.scan();
    expect(added).toEqual([['keynote.mov']]);
    tick(20_000);
    await watcher.scan();
    await watcher.scan();
    expect(added).toHaveLength(1);
  });

  it('remembers what it sent across a restart, and sends a new version of a file again', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const store = new MemoryStore();
    const first = setup(store);
    await first.watcher.add(work.dir, sponsor);
    await mkdir(path.join(work.dir, 'day 1'));
    await writeFile(path.join(work.dir, 'day 1', 'a.mov'), 'a');
    await writeFile(path.join(work.dir, 'b.mov'), 'b');
    await first.watcher.scan();
    first.tick(10_000);
    await first.watcher.scan();
    expect(first.added).toEqual([['b.mov', 'a.mov']]);

    // The app restarts: a new engine on the same store, a new watcher.
    const second = setup(store);
    expect(second.watcher.list()).toHaveLength(1);
    await second.watcher.scan();
    second.tick(10_000);
    await second.watcher.scan();
    expect(second.added).toEqual([]);

    await writeFile(path.join(work.dir, 'b.mov'), 'b, second cut');
    await second.watcher.scan();
    second.tick(10_000);
    await second.watcher.scan();
    expect(second.added).toEqual([['b.mov']]);
  });

  it('tries a file again when queuing it failed, and refuses a folder that is not one or is already watched', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const engine = new UploadEngine({
      baseUrl: 'http://127.0.0.1:9',
      store: new MemoryStore(),
      token: () => null,
    });
    const store: WatchStore = engine.watchStore();
    let fail = true;
    const calls: string[][] = [];
    let now = 0;
    const watcher = new FolderWatcher(
      {
        add: async (_f: SubmissionFields, paths: string[]) => {
          calls.push(paths);
          if (fail) throw new Error('offline');
        },
      } as never,
      store,
      { stableMs: 1, now: () => now },
    );
    await watcher.add(work.dir, sponsor);
    await expect(watcher.add(work.dir, sponsor)).rejects.toThrow(/already watched/);
    await expect(watcher.add(path.join(work.dir, 'nope'), sponsor)).rejects.toThrow(/not a folder/);
    await writeFile(path.join(work.dir, 'c.mov'), 'c');
    const errors: string[] = [];
    const failing = new FolderWatcher(
      { add: async () => Promise.reject(new Error('offline')) } as never,
      store,
      { stableMs: 1, now: () => now, onError: (_w, e) => errors.push(e.message) },
    );
    await failing.scan();
    now += 5;
    await failing.scan();
    expect(errors).toEqual(['offline']);
    fail = false;
    await watcher.scan();
    now += 5;
    await watcher.scan();
    expect(calls).toHaveLength(1);
    watcher.remove(watcher.list()[0]!.id);
    expect(watcher.list()).toEqual([]);
  });
});

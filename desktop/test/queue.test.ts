/**
 * The job queue on its own: a change is on disk when the call returns (an atomic JSON file), progress is
 * written at most once a second and off the engine's thread, in order with the changes, nothing is written
 * after close, a sent job moves to a bounded history, and
 * the watch folders' memory forgets a folder that is no longer watched.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyState, JsonFileStore } from '../src/engine/index.js';
import type { EngineState, EngineStore, PersistedJob } from '../src/engine/index.js';
import { JobQueue } from '../src/engine/queue.js';
import { tempDir } from './helpers/api.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function job(id: string): PersistedJob {
  return {
    id,
    submissionId: null,
    fields: { form_type: 'creative', project_name: 'Gala', description: '' },
    files: [],
    state: 'waiting',
    createdAt: '2027-01-01T00:00:00.000Z',
    error: null,
  };
}

/** A whole queue of one job, as the store is handed it. */
function state(id: string): EngineState {
  return { ...emptyState(), jobs: [job(id)] };
}

/** Counts the writes that reach the store. */
function counting(inner: EngineStore) {
  let writes = 0;
  return {
    store: {
      load: () => inner.load(),
      save: (state: EngineState) => {
        writes++;
        inner.save(state);
      },
    },
    writes: () => writes,
  };
}

describe('the job queue', () => {
  it('writes a new job before add() returns, and a new queue on the same file has it', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const file = path.join(work.dir, 'queue.json');
    const queue = new JobQueue(new JsonFileStore(file));
    queue.add(job('a'));
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as EngineState;
    expect(onDisk.jobs.map((j) => [j.id, j.state, j.submissionId])).toEqual([['a', 'waiting', null]]);
    expect(new JobQueue(new JsonFileStore(file)).jobs.map((j) => j.id)).toEqual(['a']);
  });

  it('coalesces progress writes, and writes nothing once closed', () => {
    const memory = new Map<string, string>();
    const inner: EngineStore = {
      load: () => (memory.has('s') ? (JSON.parse(memory.get('s')!) as EngineState) : undefined),
      save: (s) => void memory.set('s', JSON.stringify(s)),
    };
    const { store, writes } = counting(inner);
    const queue = new JobQueue(store);
    queue.saveSoon();
    queue.saveSoon();
    queue.saveSoon();
    expect(writes()).toBe(0);
    queue.save();
    expect(writes()).toBe(1);
    queue.close();
    expect(writes()).toBe(2);
    queue.add(job('late'));
    queue.saveSoon();
    expect(writes()).toBe(2);
  });

  it("writes progress off the engine's thread: the file changes after saveSoon's second, and flush() waits for it", async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const file = path.join(work.dir, 'queue.json');
    const queue = new JobQueue(new JsonFileStore(file));
    const sending = job('a');
    queue.add(sending);
    sending.state = 'uploading';

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      queue.saveSoon();
      vi.advanceTimersByTime(1_000);
    } finally {
      vi.useRealTimers();
    }
    // The timer has handed the state over; the file is written by the thread pool, not in that call.
    expect((JSON.parse(readFileSync(file, 'utf8')) as EngineState).jobs.map((j) => j.state)).toEqual([
      'waiting',
    ]);
    await queue.flush();
    expect((JSON.parse(await readFile(file, 'utf8')) as EngineState).jobs.map((j) => j.state)).toEqual([
      'uploading',
    ]);
  });

  it('writes a save() that comes while a background write is under way after it: the latest state wins', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const file = path.join(work.dir, 'queue.json');
    const store = new JsonFileStore(file);
    for (let round = 0; round < 20; round++) {
      store.saveInBackground(state(`older-${round}`));
      store.save(state(`newer-${round}`));
      await store.flush();
      expect(store.load()?.jobs.map((j) => j.id)).toEqual([`newer-${round}`]);
    }
  });

  it('reports a background write that failed at flush(), as save() throws its own', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    // Its folder is a file: neither the folder nor the file can be made.
    await writeFile(path.join(work.dir, 'not-a-folder'), '');
    const store = new JsonFileStore(path.join(work.dir, 'not-a-folder', 'queue.json'));
    const queue = new JobQueue(store);
    expect(() => queue.add(job('a'))).toThrow(/EEXIST|ENOTDIR/);
    store.saveInBackground(state('a'));
    await expect(queue.flush()).rejects.toThrow(/EEXIST|ENOTDIR/);
    await expect(queue.flush()).resolves.toBeUndefined();
  });

  it('moves a finished job into a history kept to its limit, newest first', () => {
    const memory: { state?: EngineState } = {};
    const queue = new JobQueue({ load: () => memory.state, save: (s) => void (memory.state = s) }, 2);
    for (const id of ['a', 'b', 'c']) {
      const j = job(id);
      queue.add(j);
      queue.finish(j, {
        jobId: id,
        submissionId: `s-${id}`,
        formType: 'creative',
        fields: {},
        submittedAt: '2027-01-01T00:00:00.000Z',
        files: [],
      });
    }
    expect(queue.jobs).toEqual([]);
    expect(queue.history.map((h) => h.jobId)).toEqual(['c', 'b']);
  });

  it('forgets what was sent from a folder once it is no longer watched', () => {
    const memory: { state?: EngineState } = {};
    const queue = new JobQueue({ load: () => memory.state, save: (s) => void (memory.state = s) });
    let changes = 0;
    const store = queue.watchStore(() => changes++);
    const watch = {
      id: 'w1',
      folder: '/exports',
      fields: { form_type: 'creative' as const, project_name: 'Gala', description: '' },
      createdAt: '2027-01-01T00:00:00.000Z',
    };
    store.setWatches([watch]);
    store.markSent('w1', ['/exports/a.mov|1|1']);
    expect([...store.sent('w1')]).toEqual(['/exports/a.mov|1|1']);
    store.markSent('w1', ['/exports/a.mov|1|1'], false);
    expect(store.sent('w1').size).toBe(0);
    store.markSent('w1', ['/exports/b.mov|1|1']);
    store.setWatches([]);
    expect(store.sent('w1').size).toBe(0);
    expect(memory.state!.watchSent).toEqual({});
    expect(changes).toBe(2);
  });
});

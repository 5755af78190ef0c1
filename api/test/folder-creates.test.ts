import { mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../src/adapters/storage/index.js';
import { FolderCreates } from '../src/adapters/storage/folder-creates.js';

/**
 * Local storage creates one file at a time in each folder (folder-creates.ts): the kernel lets one create
 * at a time through a folder anyway, and the threads waiting for it spun on its lock.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'avp-folder-creates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A create that stays under way until `finish()`; `started` tells whether it has begun. */
function heldCreate() {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const state = { started: false };
  const done = new Promise<string>((resolve, reject) => {
    finish = () => resolve('made');
    fail = reject;
  });
  return {
    state,
    finish,
    fail,
    create: () => {
      state.started = true;
      return done;
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('folder creates', () => {
  it('runs the creates of one folder one after another, and other folders beside them', async () => {
    const creates = new FolderCreates();
    const [a1, a2, a3, b1] = [heldCreate(), heldCreate(), heldCreate(), heldCreate()];
    const runs = [
      creates.run('/data/uploads/sub-a/one', a1.create),
      creates.run('/data/uploads/sub-a/two', a2.create),
      creates.run('/data/uploads/sub-a/three', a3.create),
      creates.run('/data/uploads/sub-b/one', b1.create),
    ];
    await turn();
    expect([a1.state.started, a2.state.started, a3.state.started, b1.state.started]).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(creates.busyFolders).toBe(2);

    // A create that fails hands the folder on; its caller gets the failure.
    a1.fail(Object.assign(new Error('EACCES'), { code: 'EACCES' }));
    await expect(runs[0]).rejects.toThrow('EACCES');
    await turn();
    expect([a2.state.started, a3.state.started]).toEqual([true, false]);

    a2.finish();
    b1.finish();
    await expect(runs[1]).resolves.toBe('made');
    await turn();
    expect(a3.state.started).toBe(true);
    a3.finish();
    await Promise.all([runs[2], runs[3]]);
    // Nothing is kept for a folder with no create under way.
    expect(creates.busyFolders).toBe(0);
  });

  it('local storage begins many files of one folder at once, each at its size', async () => {
    const storage = new LocalStorage(dir);
    const keys = Array.from({ length: 40 }, (_, i) => ({
      key: `submissions/sub-1/file-${i}`,
      size: 1000 * i,
    }));
    await Promise.all(keys.map(({ key, size }) => storage.begin(key, size)));
    for (const { key, size } of keys) expect((await stat(storage.pathOf(key))).size).toBe(size);
  });
});

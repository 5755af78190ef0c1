/**
 * Paths checked before anything is queued: files as they are, folders walked (hidden entries skipped),
 * duplicates once, and each path that cannot be sent refused by name with the reason in words.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPaths, fsReason, PathsRefusedError } from '../src/engine/index.js';
import { tempDir } from './helpers/api.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('checking paths', () => {
  it('walks folders, skips hidden entries, keeps each file once with its size', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    await mkdir(path.join(work.dir, 'day 1'));
    await writeFile(path.join(work.dir, 'day 1', 'b.mov'), 'bb');
    await writeFile(path.join(work.dir, 'day 1', '.DS_Store'), 'x');
    await writeFile(path.join(work.dir, 'a.mov'), 'a');
    const a = path.join(work.dir, 'a.mov');
    const { files, refused } = await checkPaths([work.dir, a]);
    expect(refused).toEqual([]);
    expect(files.map((f) => [path.relative(work.dir, f.path), f.size])).toEqual([
      ['a.mov', 1],
      [path.join('day 1', 'b.mov'), 2],
    ]);
  });

  it('lists a large folder in name order, however its entries are looked at', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const expected: string[] = [];
    for (const day of ['day 1', 'day 2', 'day 3']) {
      await mkdir(path.join(work.dir, day));
      for (let i = 0; i < 40; i++) {
        const name = `still-${String(i).padStart(3, '0')}.jpg`;
        // Sizes that differ, so a file is known by its size too.
        await writeFile(path.join(work.dir, day, name), 'x'.repeat(i + 1));
        expected.push(path.join(day, name));
      }
    }
    // Hidden entries in the middle are skipped.
    await writeFile(path.join(work.dir, 'day 2', '.still-020.jpg'), 'x');
    const { files, refused } = await checkPaths([work.dir]);
    expect(files.map((f) => path.relative(work.dir, f.path))).toEqual(expected);
    expect(files.map((f) => f.size)).toEqual(expected.map((_, i) => (i % 40) + 1));
    expect(refused).toEqual([]);
  });

  it('refuses a missing path, a link going round in a circle, and an empty folder, in words', async () => {
    const work = await tempDir();
    cleanups.push(work.remove);
    const loop = path.join(work.dir, 'loop.mov');
    await symlink(loop, loop);
    const empty = path.join(work.dir, 'nothing here');
    await mkdir(empty);
    const missing = path.join(work.dir, 'gone.mov');
    const { files, refused } = await checkPaths([missing, loop, empty]);
    expect(files).toEqual([]);
    expect(refused).toEqual([
      { path: missing, reason: 'does not exist' },
      { path: loop, reason: 'cannot be read: its links go round in a circle' },
      { path: empty, reason: 'is an empty folder' },
    ]);
    expect(new PathsRefusedError(refused.slice(0, 1)).message).toBe('gone.mov does not exist.');
  });

  it('names the system’s errors in words, never as codes', () => {
    expect(fsReason({ code: 'EACCES' })).toBe('cannot be read: permission denied');
    expect(fsReason({ code: 'ENOENT' })).toBe('does not exist');
    expect(fsReason({ code: 'EWHATEVER' })).toBe('cannot be read');
  });
});

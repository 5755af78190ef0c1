/**
 * Files on disk read a part at a time (NodeFileSource): each part is exactly the file's bytes, and the
 * memory of a part the client handed back is what the next read fills, for this file or the next one (a
 * folder of a thousand small files sent one after another allocates a few parts' worth, not a thousand).
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identify, NodeFileSource } from '../src/engine/index.js';
import { tempDir } from './helpers/api.js';

const MiB = 1024 * 1024;
let dir: string;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ dir, remove } = await tempDir());
});
afterAll(() => remove());

async function file(name: string, bytes: Buffer): Promise<NodeFileSource> {
  const at = path.join(dir, name);
  await writeFile(at, bytes);
  return new NodeFileSource(await identify(at));
}

describe('NodeFileSource', () => {
  it("reads the next file's part into the memory the last file's part was given back in", async () => {
    const first = randomBytes(MiB);
    const second = randomBytes(MiB - 10);
    const a = await file('a.jpg', first);
    const b = await file('b.jpg', second);

    const partOfA = await a.read(0, MiB);
    expect(Buffer.from(partOfA).equals(first)).toBe(true);
    a.release(partOfA);
    await a.close();

    const partOfB = await b.read(0, MiB - 10);
    // Compared as a yes/no: a failing toBe would print both megabytes.
    expect(partOfB.buffer === partOfA.buffer).toBe(true);
    expect(Buffer.from(partOfB).equals(second)).toBe(true);
    await b.close();
  });

  it('never hands out memory that is still in use', async () => {
    const bytes = randomBytes(2 * MiB);
    const source = await file('c.jpg', bytes);
    const one = await source.read(0, MiB);
    const two = await source.read(MiB, 2 * MiB);
    expect(two.buffer === one.buffer).toBe(false);
    expect(Buffer.from(one).equals(bytes.subarray(0, MiB))).toBe(true);
    expect(Buffer.from(two).equals(bytes.subarray(MiB))).toBe(true);
    source.release(one);
    source.release(two);
    await source.close();
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorage, PartSizeError } from '../src/adapters/storage/index.js';

/**
 * The local driver's part writes, on a real disk: each part lands at its offset whatever the order, a
 * body of the wrong length fails without a byte of it reaching the next part, and a chunk that `observe`
 * holds back and then refuses is never stored.
 */
const PART = 1024 * 1024;
const dir = mkdtempSync(path.join(tmpdir(), 'avp-local-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
async function fileOf(size: number): Promise<{ storage: LocalStorage; key: string }> {
  const storage = new LocalStorage(dir);
  const key = `submissions/test/file-${++n}`;
  await storage.begin(key, size);
  return { storage, key };
}

/** `bytes` in 64 KiB chunks, as a socket delivers them. */
function body(bytes: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 65_536) chunks.push(bytes.subarray(at, at + 65_536));
  return Readable.from(chunks);
}

describe('local storage part writes', () => {
  it('stores parts sent out of order at their offsets', async () => {
    const bytes = randomBytes(3 * PART + 777);
    const { storage, key } = await fileOf(bytes.length);
    for (const part of [3, 1, 4, 2]) {
      const start = (part - 1) * PART;
      const slice = bytes.subarray(start, Math.min(bytes.length, start + PART));
      await storage.writePart({
        key,
        offset: start,
        size: slice.length,
        body: body(slice),
      });
    }
    expect((await readFile(storage.pathOf(key))).equals(bytes)).toBe(true);
  });

  it('a body longer than its part fails, and nothing of it reaches the next part', async () => {
    const { storage, key } = await fileOf(2 * PART);
    const next = randomBytes(PART);
    await storage.writePart({
      key,
      offset: PART,
      size: PART,
      body: body(next),
    });
    const write = storage.writePart({
      key,
      offset: 0,
      size: PART,
      body: body(Buffer.alloc(PART + 65_536 * 3, 9)),
    });
    await expect(write).rejects.toBeInstanceOf(PartSizeError);
    expect((await readFile(storage.pathOf(key))).subarray(PART).equals(next)).toBe(true);
  });

  it('a body shorter than its part fails', async () => {
    const { storage, key } = await fileOf(PART);
    const write = storage.writePart({
      key,
      offset: 0,
      size: PART,
      body: body(Buffer.alloc(PART - 1, 9)),
    });
    await expect(write).rejects.toBeInstanceOf(PartSizeError);
  });

  it('a chunk that observe holds back and then refuses is not stored, nor any after it', async () => {
    const { storage, key } = await fileOf(PART);
    let seen = 0;
    const refused = new Error('claim lost');
    const write = storage.writePart({
      key,
      offset: 0,
      size: PART,
      body: body(Buffer.alloc(PART, 9)),
      observe: (chunk) => {
        seen += chunk.length;
        // The first 256 KiB pass; the chunk after them waits, then is refused.
        if (seen <= 256 * 1024) return undefined;
        return new Promise<void>((_, reject) => setTimeout(() => reject(refused), 20));
      },
    });
    await expect(write).rejects.toBe(refused);
    const stored = await readFile(storage.pathOf(key));
    expect(stored.subarray(256 * 1024).every((byte) => byte === 0)).toBe(true);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  it('a request’s chunks are given back once written (`release`), the bytes stored intact', async () => {
    const bytes = randomBytes(PART + 4321);
    const { storage, key } = await fileOf(bytes.length);
    const seen: Buffer[] = [];
    const server = createServer((req, res) => {
      storage
        .writePart({
          key,
          offset: 0,
          size: bytes.length,
          body: req,
          observe: (chunk) => void seen.push(chunk),
          release: true,
        })
        .then(
          () => res.end('stored'),
          (error: Error) => res.writeHead(500).end(error.message),
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'PUT' }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (s: string) => (text += s));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        body(bytes).pipe(req);
      });
      expect(answer).toBe('stored');
    } finally {
      server.close();
    }
    expect(await readFile(storage.pathOf(key))).toEqual(bytes);
    // Node's HTTP parser copies each body chunk into a buffer of its own: every one was given back.
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((chunk) => chunk.buffer.byteLength === 0)).toBe(true);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { partRange, planUpload, UPLOAD_PART_SIZE } from '@avp/shared';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalStorage } from '../src/adapters/storage/index.js';
import type { UploadStorage } from '../src/adapters/storage/index.js';
import { FEED_SLICE_BYTES, RunningHashes } from '../src/modules/uploads/running-hash.js';

/**
 * The running checksum against real local storage: parts written through the storage driver in the
 * orders and failures an upload meets, the digest compared with the file's real sha-256.
 */
const PART = UPLOAD_PART_SIZE;
const SIZE = PART * 4 + 1234;
const bytes = randomBytes(SIZE);
const expected = createHash('sha256').update(bytes).digest('hex');
const plan = planUpload(SIZE);

const dir = mkdtempSync(path.join(tmpdir(), 'avp-running-hash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let storage: LocalStorage;
let file: { id: string; size: number; key: string };
/** The write behind each stored part, as the database records it (file_parts.write_id). */
let recorded: Map<number, string>;
let n = 0;
beforeEach(async () => {
  storage = new LocalStorage(dir);
  file = { id: `file-${++n}`, size: SIZE, key: `submissions/test/file-${n}` };
  recorded = new Map();
  await storage.begin(file.key, SIZE);
});

const take = (hashes: RunningHashes, id = file.id) => hashes.take(id, recorded);

/** A part's bytes in 64 KiB chunks, as a socket delivers them. */
function chunksOf(part: number): Buffer[] {
  const range = partRange(plan, part);
  const out: Buffer[] = [];
  for (let at = range.start; at < range.end; at += 65_536) {
    out.push(bytes.subarray(at, Math.min(range.end, at + 65_536)));
  }
  return out;
}

/** Streams one part through storage with the tap, then commits it (or aborts on failure). */
async function store(hashes: RunningHashes, part: number, store: UploadStorage = storage): Promise<void> {
  const writeId = `write-${++n}`;
  const tap = hashes.begin(store, file, part, writeId);
  const range = partRange(plan, part);
  try {
    await store.writePart({
      key: file.key,
      uploadId: null,
      partNumber: part,
      offset: range.start,
      size: range.size,
      body: Readable.from(chunksOf(part)),
      observe: tap.observe,
    });
  } catch (error) {
    tap.abort();
    throw error;
  }
  recorded.set(part, writeId);
  tap.commit();
}

/**
 * A part's chunks as a request brings them: each a buffer of its own (Node's HTTP parser copies each out
 * of the socket), so storage may give it back once written (`release`).
 */
function ownChunksOf(part: number): Buffer[] {
  return chunksOf(part).map((chunk) => {
    const own = Buffer.allocUnsafeSlow(chunk.length);
    chunk.copy(own);
    return own;
  });
}

/** As store(), with the part's chunks the write's own to give back; answers them. */
async function storeReleasing(
  hashes: RunningHashes,
  part: number,
  chunks = ownChunksOf(part),
): Promise<Buffer[]> {
  const writeId = `write-${++n}`;
  const tap = hashes.begin(storage, file, part, writeId);
  const range = partRange(plan, part);
  try {
    await storage.writePart({
      key: file.key,
      offset: range.start,
      size: range.size,
      body: Readable.from(chunks),
      observe: tap.observe,
      release: true,
    });
  } catch (error) {
    tap.abort();
    throw error;
  }
  recorded.set(part, writeId);
  tap.commit();
  return chunks;
}

/** Whether a chunk's memory was given back (its ArrayBuffer detached: it reads as empty). */
const given = (chunk: Buffer) => chunk.buffer.byteLength === 0;

/** Starts several parts together and lets their chunks interleave, as parallel requests do. */
async function interleaved(hashes: RunningHashes, parts: number[]): Promise<void> {
  const taps = parts.map((p) => {
    recorded.set(p, `write-${++n}`);
    return { part: p, tap: hashes.begin(storage, file, p, recorded.get(p)!), chunks: chunksOf(p) };
  });
  const longest = Math.max(...taps.map((t) => t.chunks.length));
  for (let i = 0; i < longest; i++) {
    for (const t of taps) if (i < t.chunks.length) t.tap.observe(t.chunks[i]!);
  }
  for (const t of taps) {
    const range = partRange(plan, t.part);
    await storage.writePart({
      key: file.key,
      offset: range.start,
      size: range.size,
      body: Readable.from([bytes.subarray(range.start, range.end)]),
    });
  }
  // Completion order differs from start order: the last part first.
  for (const t of [...taps].reverse()) t.tap.commit();
}

describe('running sha-256 of a file stored part by part', () => {
  it('parts in order: the digest is the file’s sha-256 and nothing is held', async () => {
    const hashes = new RunningHashes();
    for (let p = 1; p <= plan.partCount; p++) await store(hashes, p);
    expect(hashes.heldBytes).toBe(0);
    expect(await take(hashes)).toBe(expected);
  });

  it('parts in reverse order are held, then hashed once the first arrives', async () => {
    const hashes = new RunningHashes();
    for (let p = plan.partCount; p >= 2; p--) await store(hashes, p);
    expect(hashes.heldBytes).toBe(SIZE - PART);
    await store(hashes, 1);
    expect(await take(hashes)).toBe(expected);
    expect(hashes.heldBytes).toBe(0);
  });

  it('what was held is hashed a slice per turn of the event loop, not all in one go', async () => {
    const hashes = new RunningHashes();
    for (let p = plan.partCount; p >= 2; p--) await store(hashes, p);
    await store(hashes, 1);
    // Part 1 went into the hash in stream; of the held parts (three and a bit) at most a slice is in by now.
    expect(SIZE - PART).toBeGreaterThan(FEED_SLICE_BYTES);
    expect(hashes.heldBytes).toBeGreaterThanOrEqual(SIZE - PART - FEED_SLICE_BYTES);
    expect(hashes.heldBytes).toBeGreaterThan(0);
    expect(await take(hashes)).toBe(expected);
    expect(hashes.heldBytes).toBe(0);
  });

  it('four parts streaming at once, completing in any order', async () => {
    const hashes = new RunningHashes();
    await interleaved(hashes, [1, 2, 3, 4]);
    await store(hashes, 5);
    expect(await take(hashes)).toBe(expected);
    expect(hashes.heldBytes).toBe(0);
  });

  it('past the memory budget, parts are read back from storage instead of held', async () => {
    const hashes = new RunningHashes(PART + 1);
    for (const p of [3, 4, 5, 2]) await store(hashes, p);
    expect(hashes.heldBytes).toBeLessThanOrEqual(PART + 1);
    await store(hashes, 1);
    expect(await take(hashes)).toBe(expected);
    expect(hashes.heldBytes).toBe(0);
  });

  it('a part cut off mid-way is taken back out, and its retry counts once', async () => {
    const hashes = new RunningHashes();
    const tap = hashes.begin(storage, file, 1, 'cut-off');
    for (const chunk of chunksOf(1).slice(0, 10)) tap.observe(chunk);
    tap.abort();
    const held = hashes.begin(storage, file, 3, 'cut-off too');
    held.observe(chunksOf(3)[0]!);
    held.abort();
    expect(hashes.heldBytes).toBe(0);
    for (let p = 1; p <= plan.partCount; p++) await store(hashes, p);
    expect(await take(hashes)).toBe(expected);
  });

  it('a part sent again after it was hashed makes completion hash the stored file instead', async () => {
    const hashes = new RunningHashes();
    for (let p = 1; p <= plan.partCount; p++) await store(hashes, p);
    await store(hashes, 2);
    expect(await take(hashes)).toBeUndefined();
  });

  it('a part another process stored since (a write this one never saw) gives no digest', async () => {
    const hashes = new RunningHashes();
    for (let p = 1; p <= plan.partCount; p++) await store(hashes, p);
    recorded.set(2, 'written-elsewhere');
    expect(await take(hashes)).toBeUndefined();
  });

  it('a file missing parts, or unknown to this process, gives no digest', async () => {
    const hashes = new RunningHashes();
    for (const p of [1, 2, 4]) await store(hashes, p);
    expect(await take(hashes)).toBeUndefined();
    expect(await take(hashes, 'never-seen')).toBeUndefined();
  });

  it('forgetting a file releases what it held', async () => {
    const hashes = new RunningHashes();
    await store(hashes, 3);
    expect(hashes.heldBytes).toBe(PART);
    hashes.forget(file.id);
    expect(hashes.heldBytes).toBe(0);
    expect(await take(hashes)).toBeUndefined();
  });

  it('a request’s chunks are given back once written and hashed, and the digest stays right', async () => {
    const hashes = new RunningHashes();
    const sent: Buffer[][] = [];
    for (let p = 1; p <= plan.partCount; p++) sent.push(await storeReleasing(hashes, p));
    expect(await take(hashes)).toBe(expected);
    expect(sent.flat().every(given)).toBe(true);
  });

  it('parts out of order: chunks held for the hash stay readable until hashed, then are given back', async () => {
    const hashes = new RunningHashes();
    const held: Buffer[][] = [];
    for (let p = plan.partCount; p >= 2; p--) held.push(await storeReleasing(hashes, p));
    // Stored, but the hash still needs them: storage must not have given them back.
    expect(held.flat().some(given)).toBe(false);
    await storeReleasing(hashes, 1);
    expect(await take(hashes)).toBe(expected);
    expect(hashes.heldBytes).toBe(0);
    expect(held.flat().every(given)).toBe(true);
  });

  it('a part that catches the hash up mid-write: held chunks hashed before storage is done with them', async () => {
    const hashes = new RunningHashes();
    // Part 2 begins first and holds its first chunks; part 1 then arrives whole, and part 2's rest follows.
    recorded.set(2, `write-${++n}`);
    const tap2 = hashes.begin(storage, file, 2, recorded.get(2)!);
    const part2 = ownChunksOf(2);
    for (const chunk of part2.slice(0, 5)) tap2.observe(chunk);
    const part1 = await storeReleasing(hashes, 1);
    expect(part2.slice(0, 5).some(given)).toBe(false);
    for (const chunk of part2.slice(5)) tap2.observe(chunk);
    const range = partRange(plan, 2);
    await storage.writePart({
      key: file.key,
      offset: range.start,
      size: range.size,
      body: Readable.from(part2),
      release: true,
    });
    tap2.commit();
    for (let p = 3; p <= plan.partCount; p++) await storeReleasing(hashes, p);
    expect(await take(hashes)).toBe(expected);
    expect([...part1, ...part2].every(given)).toBe(true);
  });

  it('a failed part that held chunks is taken back out, and its chunks given back', async () => {
    const hashes = new RunningHashes();
    const chunks = ownChunksOf(3);
    // One byte short: storage writes what came, then refuses the part.
    const short = [...chunks.slice(0, -1), chunks.at(-1)!.subarray(1)];
    await expect(storeReleasing(hashes, 3, short)).rejects.toThrow();
    expect(hashes.heldBytes).toBe(0);
    expect(chunks.slice(0, -1).every(given)).toBe(true);
    for (let p = 1; p <= plan.partCount; p++) await storeReleasing(hashes, p);
    expect(await take(hashes)).toBe(expected);
  });

  it('a caller’s own buffers (no `release`) are never given back, held or not', async () => {
    const hashes = new RunningHashes();
    const sent = [5, 4, 3, 2, 1].map((p) => ({ p, chunks: ownChunksOf(p) }));
    for (const { p, chunks } of sent) {
      const tap = hashes.begin(storage, file, p, `write-${++n}`);
      recorded.set(p, `write-${n}`);
      const range = partRange(plan, p);
      await storage.writePart({
        key: file.key,
        offset: range.start,
        size: range.size,
        body: Readable.from(chunks),
        observe: tap.observe,
      });
      tap.commit();
    }
    expect(await take(hashes)).toBe(expected);
    expect(sent.flatMap((s) => s.chunks).some(given)).toBe(false);
  });

  it('on a store that cannot be read back cheaply (S3), parts past the budget give no digest', async () => {
    const hashes = new RunningHashes(1);
    const s3Like: UploadStorage = Object.assign(Object.create(storage) as LocalStorage, {
      kind: 's3' as const,
    });
    await store(hashes, 2, s3Like);
    await store(hashes, 1, s3Like);
    for (let p = 3; p <= plan.partCount; p++) await store(hashes, p, s3Like);
    expect(await take(hashes)).toBeUndefined();
  });
});

import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { partRange, planUpload } from '@avp/shared';
import type { UploadPlan } from '@avp/shared';
import { holdChunk, releaseChunk } from '../../adapters/storage/index.js';
import type { UploadStorage } from '../../adapters/storage/index.js';

/**
 * Running sha-256 of the files whose parts this process stores: a cache that spares completion a second
 * pass over the whole file, never the truth. SHA-256 is sequential, but parts arrive several at a time
 * and in any order, so each part's bytes reach the hash one of three ways:
 *
 *   - in stream: the part is the next one the hash needs, so its chunks go into the hash as they arrive;
 *   - held: a part ahead of the hash keeps references to the chunks it received (no copy) until the parts
 *     before it are in; a process-wide budget bounds what is held, so many uploads cannot grow memory.
 *     Each held chunk is marked (holdChunk) and let go (releaseChunk) once hashed or dropped, so storage,
 *     which gives a request's chunks back once written, leaves their memory to whichever is done last;
 *   - read back: a part that found the budget spent is read back from storage when the hash reaches it
 *     (local storage only: on S3 that would be a ranged GET, so the file is hashed whole at completion).
 *
 * A part that fails mid-way is taken back out (the hash is restored from a copy taken before it began).
 * Each part is followed with the id of the write that stored it (its claim's token, claims.ts), and a
 * digest is given out only when those are, part for part, the writes the database records now: a part
 * stored again since, by this process or another, means the hash no longer describes the stored bytes.
 * Whenever the running hash cannot be trusted to cover the stored bytes exactly (that, parts stored by
 * another process, a restart) it is dropped and completion streams the assembled file instead.
 */

/** Bytes held for parts ahead of the hash, across all files of this process. */
export const HELD_BUDGET_BYTES = 32 * 1024 * 1024;
/**
 * Held bytes hashed in one turn of the event loop. A part that arrived ahead of the hash can hold up to
 * the whole budget, and sha-256 of 32 MiB in one go kept every other request waiting tens of
 * milliseconds (bench:mixed's loop delay); larger holds are hashed a slice per turn instead.
 */
export const FEED_SLICE_BYTES = 1024 * 1024;
/** Files followed at once; the least recently used is forgotten beyond this. */
const MAX_FILES = 1_000;

interface FileCursor {
  hash: Hash;
  plan: UploadPlan;
  key: string;
  /** The next part the hash needs. */
  next: number;
  /** The part currently fed in stream, with the hash as it was before its first byte. */
  streaming: { part: number; before: Hash } | null;
  /** Stored parts ahead of the hash: their chunks, or null to read them back from storage. */
  ready: Map<number, Buffer[] | null>;
  /** Parts receiving now that hold their chunks. */
  receiving: Map<number, PartTap>;
  /** Read-backs and the held parts queued behind them, in part order. */
  chain: Promise<void>;
  /**
   * Read-backs and sliced feeds not yet in the hash: while any is, nothing may go into the hash in
   * stream.
   */
  reading: number;
  /** The write behind each part in the hash or ready for it. */
  writes: Map<number, string>;
  broken: boolean;
}

/** One part on its way in: observe each chunk, then commit once stored or abort. */
export interface PartTap {
  observe(chunk: Buffer): void;
  commit(): void;
  abort(): void;
}

export class RunningHashes {
  private readonly files = new Map<string, FileCursor>();
  private held = 0;

  constructor(private readonly budget = HELD_BUDGET_BYTES) {}

  /** Bytes held right now (for tests and diagnostics). */
  get heldBytes(): number {
    return this.held;
  }

  /** Whether a part of `bytes` arriving ahead of its file's hash could be held whole right now. */
  canHold(bytes: number): boolean {
    return this.held + bytes <= this.budget;
  }

  private cursor(fileId: string, size: number, key: string): FileCursor {
    let cursor = this.files.get(fileId);
    if (cursor) {
      // Most recently used last, so the first entry is the one to forget.
      this.files.delete(fileId);
      this.files.set(fileId, cursor);
      return cursor;
    }
    if (this.files.size >= MAX_FILES) this.forget(this.files.keys().next().value!);
    cursor = {
      hash: createHash('sha256'),
      plan: planUpload(size),
      key,
      next: 1,
      streaming: null,
      ready: new Map(),
      receiving: new Map(),
      chain: Promise.resolve(),
      reading: 0,
      writes: new Map(),
      broken: false,
    };
    this.files.set(fileId, cursor);
    return cursor;
  }

  /** Starts following one part of a file as it streams in, stored by the write `writeId`. */
  begin(
    storage: UploadStorage,
    file: { id: string; size: number; key: string },
    partNumber: number,
    writeId: string,
  ): PartTap {
    const c = this.cursor(file.id, file.size, file.key);
    const settled = () => {
      if (c.streaming?.part === partNumber) c.streaming = null;
      const tap = c.receiving.get(partNumber);
      if (tap === self) c.receiving.delete(partNumber);
    };
    // A part the hash already covers, or one already on its way: the bytes may differ from what was hashed.
    if (partNumber < c.next || c.ready.has(partNumber) || c.streaming?.part === partNumber) {
      c.broken = true;
    }
    let chunks: Buffer[] | null = [];
    let bytes = 0;
    let done = false;
    /** Lets go of what this part holds (hashed, or no longer wanted). */
    const release = () => {
      this.held -= bytes;
      bytes = 0;
      if (chunks) for (const held of chunks) releaseChunk(held);
      chunks = chunks && [];
    };
    const self: PartTap = {
      observe: (chunk) => {
        if (done || c.broken) return;
        if (c.streaming?.part === partNumber) {
          c.hash.update(chunk);
          return;
        }
        if (partNumber === c.next && c.streaming === null && c.reading === 0 && chunks !== null) {
          // The hash has caught up with this part: what was held goes in first, then the rest in stream.
          c.streaming = { part: partNumber, before: c.hash.copy() };
          for (const held of chunks) c.hash.update(held);
          release();
          c.hash.update(chunk);
          return;
        }
        if (chunks === null) return;
        if (this.held + chunk.length > this.budget) {
          release();
          chunks = null;
          return;
        }
        holdChunk(chunk);
        chunks.push(chunk);
        bytes += chunk.length;
        this.held += chunk.length;
      },
      commit: () => {
        if (done) return;
        done = true;
        const streamed = c.streaming?.part === partNumber;
        settled();
        if (c.broken) {
          release();
          return;
        }
        c.writes.set(partNumber, writeId);
        if (streamed) {
          c.next = partNumber + 1;
        } else {
          // Held bytes stay counted against the budget until the hash takes them.
          c.ready.set(partNumber, chunks);
        }
        this.advance(storage, c);
      },
      abort: () => {
        if (done) return;
        done = true;
        if (c.streaming?.part === partNumber) c.hash = c.streaming.before;
        settled();
        release();
      },
    };
    c.receiving.set(partNumber, self);
    return self;
  }

  /** Feeds the hash every stored part that is next in line. */
  private advance(storage: UploadStorage, c: FileCursor): void {
    while (!c.broken && c.ready.has(c.next)) {
      const chunks = c.ready.get(c.next)!;
      if (chunks === null) {
        if (storage.kind !== 'local') {
          c.broken = true;
          break;
        }
        const part = c.next;
        c.ready.delete(part);
        c.next = part + 1;
        c.reading++;
        // The hash must take this part's bytes before any later ones: later parts wait on the chain.
        c.chain = c.chain
          .then(() => this.readBack(storage, c, part))
          .catch(() => {
            c.broken = true;
          })
          .finally(() => {
            c.reading--;
          });
        continue;
      }
      c.ready.delete(c.next);
      c.next++;
      const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      if (c.reading === 0 && bytes <= FEED_SLICE_BYTES) {
        this.feed(c, chunks);
        continue;
      }
      c.reading++;
      c.chain = c.chain
        .then(() => this.feedInSlices(c, chunks))
        .finally(() => {
          c.reading--;
        });
    }
  }

  private feed(c: FileCursor, chunks: Buffer[]): void {
    for (const chunk of chunks) {
      if (!c.broken) c.hash.update(chunk);
      this.held -= chunk.length;
      releaseChunk(chunk);
    }
  }

  /** Feeds held chunks FEED_SLICE_BYTES at a time, a turn of the event loop between slices. */
  private async feedInSlices(c: FileCursor, chunks: Buffer[]): Promise<void> {
    let slice = 0;
    for (const chunk of chunks) {
      if (slice >= FEED_SLICE_BYTES) {
        slice = 0;
        await nextTurn();
      }
      if (!c.broken) c.hash.update(chunk);
      this.held -= chunk.length;
      releaseChunk(chunk);
      slice += chunk.length;
    }
  }

  private async readBack(storage: UploadStorage, c: FileCursor, part: number): Promise<void> {
    const range = partRange(c.plan, part);
    for await (const chunk of await storage.read(c.key, { start: range.start, end: range.end - 1 })) {
      c.hash.update(chunk as Buffer);
    }
  }

  /**
   * The file's sha-256 when the running hash covers every part exactly, as stored by the writes `stored`
   * names (part number → write id, from the database), else undefined; forgets the file.
   */
  async take(fileId: string, stored: ReadonlyMap<number, string | null>): Promise<string | undefined> {
    const c = this.files.get(fileId);
    if (!c) return undefined;
    await c.chain;
    let covered = !c.broken && c.next === c.plan.partCount + 1 && c.streaming === null;
    for (let part = 1; covered && part <= c.plan.partCount; part++) {
      covered = c.writes.get(part) === (stored.get(part) ?? null);
    }
    const digest = covered ? c.hash.digest('hex') : undefined;
    if (this.files.get(fileId) === c) this.forget(fileId);
    return digest;
  }

  /** Drops a file's running hash and whatever it holds. */
  forget(fileId: string): void {
    const c = this.files.get(fileId);
    if (!c) return;
    this.files.delete(fileId);
    c.broken = true;
    for (const chunks of c.ready.values()) {
      for (const chunk of chunks ?? []) {
        this.held -= chunk.length;
        releaseChunk(chunk);
      }
    }
    c.ready.clear();
    for (const tap of c.receiving.values()) tap.abort();
  }
}

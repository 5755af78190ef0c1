import type { Readable } from 'node:stream';
import { giveBackMemory } from '../buffer-memory.js';

/** Raised by a driver when a part's body does not have the size it announced. */
export class PartSizeError extends Error {
  constructor(
    readonly expected: number,
    readonly received: number,
  ) {
    super(`Expected ${expected} bytes, received ${received}`);
    this.name = 'PartSizeError';
  }
}

/** The disk (or the account's quota on it) has no room left: worth trying again once space is freed. */
export function isStorageFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * The storage service failed in a way that may pass (S3 throttling, a 5xx, a reset or timed-out connection)
 * after the driver's own retries: the caller is told to try again shortly, staff see the cause.
 */
export class StorageUnavailableError extends Error {
  constructor(
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(`Upload storage failed to ${operation}: ${reason}`);
    this.name = 'StorageUnavailableError';
  }
}

export interface PartRef {
  partNumber: number;
  etag: string | null;
}

/**
 * Where uploaded bytes live (DESIGN 'Uploads'). Keys are built by the uploads module from server ids
 * only ('submissions/<submission id>/<file id>'); a user's file name never reaches a driver.
 */
export interface UploadStorage {
  readonly kind: 'local' | 's3';
  /** Prepares a new file of `size` bytes; returns the driver's upload id (S3) or null (local). */
  begin(key: string, size: number, contentType: string): Promise<string | null>;
  /**
   * Stores one part, streamed from `body`, which must yield exactly `size` bytes (else PartSizeError and
   * nothing is recorded). Idempotent: sending a part again replaces it. Returns the part's etag, if any.
   * `observe` is handed each chunk of the body on its way to storage; a promise it returns holds the chunk
   * back until it settles, and a rejection (or a throw) fails the write before the chunk is stored.
   * Callers must not write the same part twice at once (the uploads module's write claims see to it).
   */
  writePart(args: {
    key: string;
    uploadId: string | null;
    partNumber: number;
    offset: number;
    size: number;
    body: Readable;
    observe?: (chunk: Buffer) => void | Promise<void>;
    /**
     * The body's chunks are this write's alone (a request's, each copied out of the socket by Node's
     * HTTP parser): the driver may give each one's memory back once stored (releaseChunk), unless
     * something still holds it (holdChunk). Drivers that keep chunks longer ignore it.
     */
    release?: boolean;
  }): Promise<string | null>;
  /** Joins the parts into the finished file. */
  finish(args: { key: string; uploadId: string | null; parts: PartRef[]; size: number }): Promise<void>;
  /** The size in bytes of the finished file as stored. */
  size(key: string): Promise<number>;
  /** Streams the finished file, or bytes start..end (inclusive) of it. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Rejects unless the storage can take uploads now: local, its folder writable; S3, the bucket answers. */
  check?(): Promise<void>;
  /** Deletes a finished file or abandons an unfinished upload; missing is not an error. */
  remove(key: string, uploadId: string | null): Promise<void>;
  /** Abandons the upload `uploadId` begun at `key` and nothing else: the object at the key, if any, stays. */
  abandon?(key: string, uploadId: string): Promise<void>;
}

/** Extra holders of a chunk beyond the write that owns it (holdChunk). */
const holders = new WeakMap<Buffer, number>();

/**
 * Marks `chunk` as needed after its write has stored it (the running hash keeps a part's chunks until
 * the parts before it are in). Each hold is ended by one releaseChunk.
 */
export function holdChunk(chunk: Buffer): void {
  holders.set(chunk, (holders.get(chunk) ?? 0) + 1);
}

/**
 * One user of `chunk` is done with it: a holder (holdChunk) or the write that owns it (`release` of
 * writePart). The last of them gives the chunk's memory back at once. A request's chunks are buffers
 * outside V8's heap; left to the collector, every ~64 MB of them reached V8's external-memory limit,
 * which starts a full collection of the server's whole heap (~60 MB; giveBackMemory). A chunk whose
 * owner never releases it (an S3 part, a caller's own buffer) keeps its memory whatever its holders do:
 * their count never goes below the owner's reference.
 */
export function releaseChunk(chunk: Buffer): void {
  const held = holders.get(chunk);
  if (held !== undefined) {
    if (held > 1) holders.set(chunk, held - 1);
    else holders.delete(chunk);
    return;
  }
  giveBackMemory(chunk);
}

import type { Readable } from 'node:stream';

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
}

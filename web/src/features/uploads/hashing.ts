/**
 * The file's sha-256, computed off the main thread. The JavaScript `Sha256` (@noble/hashes) costs tens of
 * milliseconds per 6 MiB part; on the main thread, for a file of tens of GB, that is a stall of the page at every
 * part. So the browser's upload client hashes in a module Web Worker (hash.worker.ts):
 *
 * - The page never copies or transfers a part's bytes (the client still sends them). It hands the worker
 *   the File once (structured-cloned: a handle, not the bytes) and then, for each part the client feeds
 *   the hasher, only the range [start, end): the client feeds every part in order from the first
 *   (UploadClientOptions.createHasher), so the range is the running offset plus the part's length.
 * - The worker reads each range from the File itself and hashes the ranges strictly in the order they
 *   were sent, one read at a time (`RangeHasher`): messages between two ends arrive in order, and a
 *   read is not started before the previous range is hashed. Memory stays at one part, however far the
 *   worker falls behind the network; a backlog is a queue of ranges, a few numbers each.
 * - On digest the worker answers the hex and is ended; a round the client gives up (pause, remove, a
 *   failed part) ends it at once through `dispose`, dropping any backlog.
 * - If the worker cannot run (it failed to load or crashed), the page hashes the same ranges itself,
 *   reading them again from the File: slower to the eye, never a wrong checksum. Where Worker does not
 *   exist at all, the client gets the main-thread `Sha256` fed with the bytes it reads.
 *
 * Everything here is plain code, tested without a Worker (jsdom has none); the glue that starts the real
 * worker is transport.ts's `spawnHashWorker`, the worker's entry is hash.worker.ts.
 */
import { Sha256, type Hasher, type UploadSource } from '@avp/shared';

/** The page's messages to the worker, in this order: one `file`, any number of `range`, one `digest`. */
export type HashRequest =
  { type: 'file'; file: Blob } | { type: 'range'; start: number; end: number } | { type: 'digest' };

/** The worker's one answer, to `digest`. */
export type HashReply = { type: 'digest'; hex: string } | { type: 'error'; message: string };

export type ReadRange = (start: number, end: number) => Promise<Uint8Array>;

export function blobReader(blob: Blob): ReadRange {
  return async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer());
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Hashes byte ranges of one file in the order they are added, reading one range at a time. A failed or
 * short read makes the digest fail (and stops further reads).
 */
export class RangeHasher {
  private readonly hasher = new Sha256();
  private tail: Promise<void> = Promise.resolve();
  private failure: Error | null = null;
  private finished = false;

  constructor(private readonly read: ReadRange) {}

  add(start: number, end: number): void {
    if (this.finished) throw new Error('SHA-256: update after digest');
    this.tail = this.tail.then(async () => {
      if (this.failure) return;
      try {
        const bytes = await this.read(start, end);
        if (bytes.length !== end - start) throw new Error('The file changed while it was being sent.');
        this.hasher.update(bytes);
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(messageOf(error));
      }
    });
  }

  async digest(): Promise<string> {
    if (this.finished) throw new Error('SHA-256: digest called twice');
    this.finished = true;
    await this.tail;
    if (this.failure) throw this.failure;
    return this.hasher.digest();
  }
}

/**
 * The worker's side: give it every message the page sends; it answers through `post`. `reader` is for
 * tests (the worker reads the File it was given).
 */
export function hashWorker(
  post: (reply: HashReply) => void,
  reader: (file: Blob) => ReadRange = blobReader,
): (request: HashRequest) => void {
  let hasher: RangeHasher | null = null;
  let misuse: string | null = null;
  return (request) => {
    switch (request.type) {
      case 'file':
        hasher = new RangeHasher(reader(request.file));
        return;
      case 'range':
        if (hasher) hasher.add(request.start, request.end);
        else misuse ??= 'A range came before the file.';
        return;
      case 'digest':
        if (misuse !== null || hasher === null) {
          post({ type: 'error', message: misuse ?? 'No file to hash.' });
          return;
        }
        hasher.digest().then(
          (hex) => post({ type: 'digest', hex }),
          (error: unknown) => post({ type: 'error', message: messageOf(error) }),
        );
    }
  };
}

/** The page's handle on one worker (transport.ts wraps a real Worker in it). */
export interface HashPort {
  post(request: HashRequest): void;
  /** onReply: the worker's answer; onBroken: the worker could not load, or crashed. */
  listen(onReply: (reply: HashReply) => void, onBroken: () => void): void;
  terminate(): void;
}

/**
 * The page's side: a Hasher (the shared interface) whose work is done by a worker reading `file`. Each
 * update stands for the next `data.length` bytes of the file, which is what the upload client feeds.
 */
export class WorkerHasher implements Hasher {
  private offset = 0;
  private port: HashPort | null;
  private fallback: RangeHasher | null = null;
  private waiting: { resolve: (hex: string) => void; reject: (error: Error) => void } | null = null;
  private finished = false;

  constructor(
    private readonly file: Blob,
    port: HashPort,
    private readonly reader: (file: Blob) => ReadRange = blobReader,
  ) {
    this.port = port;
    port.listen(
      (reply) => this.answered(reply),
      () => this.broken(),
    );
    port.post({ type: 'file', file });
  }

  /** Bytes of the file handed on so far. */
  get bytes(): number {
    return this.offset;
  }

  /** True once the worker failed and the page hashes by itself. */
  get onMainThread(): boolean {
    return this.fallback !== null;
  }

  update(data: Uint8Array): void {
    if (this.finished) throw new Error('SHA-256: update after digest');
    const start = this.offset;
    const end = start + data.length;
    this.offset = end;
    if (end === start) return;
    if (this.fallback) this.fallback.add(start, end);
    else this.port?.post({ type: 'range', start, end });
  }

  digest(): Promise<string> {
    if (this.finished) return Promise.reject(new Error('SHA-256: digest called twice'));
    this.finished = true;
    if (this.fallback) return this.fallback.digest();
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.port?.post({ type: 'digest' });
    });
  }

  /** The client gave this round up: the worker ends now, with whatever it had left to hash. */
  dispose(): void {
    this.finished = true;
    this.close();
    this.waiting?.reject(new Error('The hash was given up.'));
    this.waiting = null;
  }

  private answered(reply: HashReply): void {
    const waiting = this.waiting;
    this.waiting = null;
    this.close();
    if (reply.type === 'digest') waiting?.resolve(reply.hex);
    else waiting?.reject(new Error(reply.message));
  }

  /** The worker is gone: hash here what it was given, read again from the file, and go on here. */
  private broken(): void {
    if (this.port === null) return;
    this.close();
    const fallback = new RangeHasher(this.reader(this.file));
    this.fallback = fallback;
    if (this.offset > 0) fallback.add(0, this.offset);
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) fallback.digest().then(waiting.resolve, waiting.reject);
  }

  private close(): void {
    this.port?.terminate();
    this.port = null;
  }
}

/** An upload source that can hand its file to a worker (transport.ts's `fileSource`). */
export interface BlobSource extends UploadSource {
  readonly blob: Blob;
}

function blobOf(source: UploadSource): Blob | null {
  const blob = (source as Partial<BlobSource>).blob;
  return typeof Blob !== 'undefined' && blob instanceof Blob ? blob : null;
}

/**
 * The upload client's `createHasher` for the browser: a worker per round of a file when a worker can be
 * started (`spawn` null when the browser has no Worker) and the source is a Blob; otherwise the
 * main-thread Sha256.
 */
export function browserHasher(spawn: (() => HashPort) | null): (source: UploadSource) => Hasher {
  return (source) => {
    const blob = blobOf(source);
    if (blob && spawn) {
      try {
        return new WorkerHasher(blob, spawn());
      } catch {
        // A Worker that cannot even be constructed (a CSP that forbids it throws in some browsers).
      }
    }
    return new Sha256();
  };
}

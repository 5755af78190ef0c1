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
 * - On digest the worker answers the hex and goes back to a small pool (`hashWorkerPool`), to hash the
 *   next file: starting and ending a worker costs the page's main thread tens of milliseconds, and 2,000
 *   small files once started 2,000 workers (issue #34). A round the client gives up (pause, remove, a
 *   failed part) ends its worker at once through `dispose`, dropping any backlog.
 * - A file the client feeds in one update (a one-part file, read whole to be sent in one request) needs no
 *   worker: its bytes are in hand, and crypto.subtle.digest hashes them off the main thread.
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
        // A pooled worker hashes file after file: each starts afresh.
        hasher = new RangeHasher(reader(request.file));
        misuse = null;
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
  /** The worker answered and is idle: it may hash another file (a pooled port); else it is terminated. */
  release?(): void;
}

/** Idle hash workers kept for the next file; more are started while more files are hashed at once. */
export const IDLE_HASH_WORKERS = 2;

/**
 * Hands out workers, reusing one that answered its last digest (`release`) instead of starting a new
 * one per file. None is ever waited for: a file with no idle worker starts one (a one-part file holds a
 * part slot while it is hashed, so waiting on a worker held by a larger file could wait forever), and at
 * most `keepIdle` are kept once the burst is over.
 */
export function hashWorkerPool(spawn: () => HashPort, keepIdle = IDLE_HASH_WORKERS): () => HashPort {
  const idle: HashPort[] = [];
  return () => {
    const worker = idle.pop() ?? spawn();
    let out = false;
    return {
      post: (request) => worker.post(request),
      listen: (onReply, onBroken) => worker.listen(onReply, onBroken),
      terminate: () => {
        if (out) return;
        out = true;
        worker.terminate();
      },
      release: () => {
        if (out) return;
        out = true;
        if (idle.length < keepIdle) idle.push(worker);
        else worker.terminate();
      },
    };
  };
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
    // Answered, it has nothing left to do: a pooled worker goes on to another file.
    const port = this.port;
    this.port = null;
    if (port?.release) port.release();
    else port?.terminate();
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

type Digester = Pick<SubtleCrypto, 'digest'>;

function hex(digest: ArrayBuffer): string {
  let out = '';
  for (const byte of new Uint8Array(digest)) out += byte.toString(16).padStart(2, '0');
  return out;
}

/**
 * A file's hasher that picks its way at the first update: the whole file at once (its bytes in hand) is
 * hashed by crypto.subtle, off the main thread and with no worker; a file fed part by part gets a pooled
 * worker (or, where none can start, the main-thread Sha256), fed what came before.
 */
export class FileHasher implements Hasher {
  private whole: Uint8Array | null = null;
  private inner: Hasher | null = null;
  private offset = 0;
  private finished = false;

  constructor(
    private readonly file: Blob,
    private readonly worker: (() => HashPort) | null,
    private readonly subtle: Digester | null,
  ) {}

  /** How the file is being hashed: undecided until the first update. */
  get way(): 'subtle' | 'worker' | 'main-thread' | null {
    if (this.whole) return 'subtle';
    if (this.inner instanceof WorkerHasher) return this.inner.onMainThread ? 'main-thread' : 'worker';
    return this.inner ? 'main-thread' : null;
  }

  update(data: Uint8Array): void {
    if (this.finished) throw new Error('SHA-256: update after digest');
    if (data.length === 0) return;
    const first = this.offset === 0;
    this.offset += data.length;
    if (first && this.subtle && data.length === this.file.size) this.whole = data;
    else this.started().update(data);
  }

  async digest(): Promise<string> {
    if (this.finished) throw new Error('SHA-256: digest called twice');
    this.finished = true;
    if (this.subtle && (this.whole || (this.offset === 0 && !this.inner))) {
      const bytes = this.whole ?? new Uint8Array(0);
      this.whole = null;
      return hex(await this.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
    }
    return this.started().digest();
  }

  dispose(): void {
    this.finished = true;
    this.whole = null;
    this.inner?.dispose?.();
  }

  private started(): Hasher {
    if (!this.inner) {
      this.inner = this.start();
      // More came after what looked like the whole file (it grew): the worker takes it all.
      if (this.whole) this.inner.update(this.whole);
      this.whole = null;
    }
    return this.inner;
  }

  private start(): Hasher {
    if (this.worker) {
      try {
        return new WorkerHasher(this.file, this.worker());
      } catch {
        // A Worker that cannot even be constructed (a CSP that forbids it throws in some browsers).
      }
    }
    return new Sha256();
  }
}

/**
 * The upload client's `createHasher` for the browser: a FileHasher for a Blob source, with workers from
 * one pool (`spawn` null when the browser has no Worker) and crypto.subtle where the page has it (a
 * secure context); the main-thread Sha256 for any other source.
 */
export function browserHasher(
  spawn: (() => HashPort) | null,
  subtle: Digester | null = typeof crypto !== 'undefined' ? (crypto.subtle ?? null) : null,
): (source: UploadSource) => Hasher {
  const worker = spawn ? hashWorkerPool(spawn) : null;
  return (source) => {
    const blob = blobOf(source);
    return blob ? new FileHasher(blob, worker, subtle) : new Sha256();
  };
}

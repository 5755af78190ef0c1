import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { MediaReadResult, ReadChunk } from '@avp/shared';

/**
 * A small pool of worker threads that read media facts (media-probe-worker.ts) so that mediainfo.js's
 * WebAssembly, which parses for 0.5–1.7 s per file, never holds the server's event loop, and its memory
 * is not in the server's heap. Workers start on first use, at most `max` at once, one file each at a time,
 * and exit after `idleMs` without work so their memory goes back. The main thread keeps the storage: a
 * worker asks for each range over a MessagePort and gets the bytes transferred.
 *
 * A read that outlives its time terminates its worker (the only way to stop WebAssembly mid-parse); a
 * worker that crashes fails only the file it was reading. Either way the next file gets a fresh worker.
 */

/** The main thread → a worker: one file to read, with the port its ranges and result go over. */
export type ProbeJob = { size: number; timeoutMs: number; port: MessagePort };
/** A worker → the main thread, over the job's port. */
export type ProbeReply =
  | { type: 'range'; seq: number; offset: number; length: number }
  | { type: 'done'; result: MediaReadResult; threadId: number }
  | { type: 'failed'; message: string; threadId: number };
/** The main thread's answer to a range request. */
export type ProbeAnswer = { seq: number; bytes?: Uint8Array; error?: string };

export class ProbeTimedOut extends Error {
  constructor(ms: number) {
    super(`no answer in ${ms} ms`);
    this.name = 'ProbeTimedOut';
  }
}

/** What a pooled read answers: the facts, and which thread parsed them. */
export type PooledReadResult = MediaReadResult & { threadId: number };

export type ProbeWorkerPoolOptions = {
  max: number;
  /** How long a worker with nothing to do stays (its WebAssembly instance kept warm). */
  idleMs?: number;
  /** Starts a worker; tests pass their own entry (e.g. one that never answers). */
  spawn?: () => Worker;
};

export const PROBE_WORKER_IDLE_MS = 30_000;

/**
 * The worker's entry: the compiled media-probe-worker.js beside this module in the built server; in the
 * TypeScript sources (vitest, tsx) the .ts entry, loaded through tsx with the `source` condition so
 * '@avp/shared/media-reader' resolves to shared's sources as it does here.
 */
export function spawnProbeWorker(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  // No inherited node flags: a preload given to the server (`--import` of an agent, a bench's probe with its
  // own listener) must not run again in each worker.
  if (!fromSource) return new Worker(new URL('./media-probe-worker.js', import.meta.url), { execArgv: [] });
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return new Worker(new URL('./media-probe-worker.ts', import.meta.url), {
    execArgv: ['--import', tsx, '--conditions=source'],
  });
}

/** A read-only copy when `bytes` is a view into a larger buffer (Node's Buffer pool cannot be moved). */
function transferable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole =
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  return whole ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

export class ProbeWorkerPool {
  max: number;
  readonly #idleMs: number;
  readonly #spawn: () => Worker;
  readonly #idle: Array<{ worker: Worker; timer: NodeJS.Timeout }> = [];
  readonly #live = new Set<Worker>();
  readonly #waiting: Array<() => void> = [];

  constructor(options: ProbeWorkerPoolOptions) {
    this.max = Math.max(1, options.max);
    this.#idleMs = options.idleMs ?? PROBE_WORKER_IDLE_MS;
    this.#spawn = options.spawn ?? spawnProbeWorker;
  }

  /** Worker threads alive now, busy or idle. */
  get size(): number {
    return this.#live.size;
  }

  async #take(): Promise<Worker> {
    for (;;) {
      const idle = this.#idle.pop();
      if (idle) {
        clearTimeout(idle.timer);
        return idle.worker;
      }
      if (this.#live.size < this.max) {
        const worker = this.#spawn();
        // Never what keeps the process alive: a read in progress is held by its timer and its caller.
        worker.unref();
        this.#live.add(worker);
        worker.once('exit', () => this.#forget(worker));
        // A crash is reported to the read in progress (if any) by read()'s own listener.
        worker.on('error', () => undefined);
        return worker;
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
  }

  #forget(worker: Worker): void {
    if (!this.#live.delete(worker)) return;
    const at = this.#idle.findIndex((i) => i.worker === worker);
    if (at >= 0) clearTimeout(this.#idle.splice(at, 1)[0]!.timer);
    this.#waiting.shift()?.();
  }

  #giveBack(worker: Worker): void {
    if (!this.#live.has(worker)) return;
    const next = this.#waiting.shift();
    const timer = setTimeout(() => {
      const at = this.#idle.findIndex((i) => i.worker === worker);
      if (at >= 0) this.#idle.splice(at, 1);
      this.#live.delete(worker);
      void worker.terminate();
    }, this.#idleMs);
    timer.unref();
    this.#idle.push({ worker, timer });
    next?.();
  }

  #discard(worker: Worker): void {
    void worker.terminate();
    this.#forget(worker);
  }

  /**
   * Reads one file's facts in a worker, its ranges from `readChunk` (run here, in the calling thread).
   * Rejects with ProbeTimedOut after `timeoutMs` (the worker terminated), or when the worker fails.
   */
  async read(input: { size: number; readChunk: ReadChunk; timeoutMs: number }): Promise<PooledReadResult> {
    const worker = await this.#take();
    const { port1, port2 } = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    let healthy = false;
    let onError: (error: Error) => void = () => undefined;
    let onExit: (code: number) => void = () => undefined;
    try {
      const result = await new Promise<PooledReadResult>((resolve, reject) => {
        onError = (error) => reject(error);
        onExit = (code) => reject(new Error(`the media probe worker exited (${code})`));
        worker.on('error', onError);
        worker.on('exit', onExit);
        timer = setTimeout(() => reject(new ProbeTimedOut(input.timeoutMs)), input.timeoutMs);
        port1.on('message', (reply: ProbeReply) => {
          if (reply.type === 'done') {
            healthy = true;
            resolve({ ...reply.result, threadId: reply.threadId });
          } else if (reply.type === 'failed') {
            healthy = true;
            reject(new Error(reply.message));
          } else {
            input.readChunk(reply.offset, reply.length).then(
              (read) => {
                const bytes = transferable(read);
                port1.postMessage({ seq: reply.seq, bytes } satisfies ProbeAnswer, [bytes.buffer]);
              },
              (error: unknown) =>
                port1.postMessage({ seq: reply.seq, error: String(error) } satisfies ProbeAnswer),
            );
          }
        });
        worker.postMessage({ size: input.size, timeoutMs: input.timeoutMs, port: port2 } satisfies ProbeJob, [
          port2,
        ]);
      });
      return result;
    } finally {
      clearTimeout(timer);
      worker.off('error', onError);
      worker.off('exit', onExit);
      port1.close();
      if (healthy) this.#giveBack(worker);
      else this.#discard(worker);
    }
  }

  /** Ends every worker now (shutdown, tests). */
  async close(): Promise<void> {
    await Promise.all([...this.#live].map((w) => w.terminate()));
  }
}

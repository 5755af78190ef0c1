import type { Readable } from 'node:stream';
import { CloudTransientError } from '../../adapters/cloud/index.js';

/**
 * A watchdog on one byte range from a provider: when no byte arrives for `idleMs` (waiting for the answer
 * or part-way through its body), the request is aborted and the body ends in a CloudTransientError, so the
 * part fails, its claim is released and the import's attempt is counted like any other dropped
 * connection. Without it, a provider that keeps the socket open and silent holds the import, its lease
 * and an IMPORT_CONCURRENCY slot forever (issue 28).
 */
export class IdleWatch {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  /** Aborts the request when the import's own signal does, or when the provider went silent. */
  readonly signal: AbortSignal;
  private stalled: CloudTransientError | undefined;
  private body: Readable | undefined;
  private ended = false;
  private waiting = false;

  constructor(
    parent: AbortSignal,
    private readonly idleMs: number,
  ) {
    this.signal = AbortSignal.any([parent, this.controller.signal]);
    this.timer = setTimeout(() => this.fire(), idleMs);
    this.timer.unref();
  }

  /** The error the watch ended the range with, once it has. */
  get timedOut(): CloudTransientError | undefined {
    return this.stalled;
  }

  private fire(): void {
    if (this.ended) return;
    if (this.waiting) {
      // (Not cleared while it waits: refresh() does not arm a cleared timer again.)
      this.timer.refresh();
      return;
    }
    const seconds = Math.round(this.idleMs / 1000);
    this.stalled = new CloudTransientError(
      `The cloud provider sent nothing for ${seconds} s; the part will be asked for again.`,
    );
    this.controller.abort(this.stalled);
    this.body?.destroy(this.stalled);
  }

  /**
   * The body itself, watched: each chunk puts the deadline back by idleMs. It is paused first, so the
   * listener does not set it flowing before the storage driver pipes it (the pipe resumes it); no stream
   * in between, which cost a hop per chunk on the import's path.
   */
  watch(body: Readable): Readable {
    this.body = body;
    body.pause();
    // (A cleared timer would be armed again by refresh(): hence the flag.)
    body.on('data', () => {
      if (!this.ended) this.timer.refresh();
    });
    // Until the storage driver listens, a failed body must not be an unhandled 'error' event; the driver
    // finds it destroyed (write-slots.ts) or hears of it itself.
    body.on('error', () => undefined);
    if (this.stalled) body.destroy(this.stalled);
    else this.timer.refresh();
    return body;
  }

  /**
   * Stops the clock until `turn` settles: the answer has begun and waits, unread, for the part before it
   * to be stored (its bytes wait in the socket's buffers). Silence then is ours, not the provider's.
   */
  async waitFor<T>(turn: Promise<T>): Promise<T> {
    this.waiting = true;
    try {
      return await turn;
    } finally {
      this.waiting = false;
      if (!this.ended && !this.stalled) this.timer.refresh();
    }
  }

  /** Stops the watch (the part is stored, or failed on its own). */
  done(): void {
    this.ended = true;
    clearTimeout(this.timer);
  }
}

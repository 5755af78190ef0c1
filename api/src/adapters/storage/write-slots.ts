import type { Readable } from 'node:stream';

/**
 * The part writes one API process stores at once (UPLOAD_PART_CONCURRENCY): the rest wait their turn,
 * first come first served, with their bodies unread, so TCP holds the bytes back on the client's side.
 * Every chunk of a part write costs the event loop (a socket read, sha-256, a file or S3 write): 8 clients
 * with 4 parts in flight each were 32 writes taking turns on the loop, and every other request (the
 * store, checkout, sign-in) waited behind a full round of them at each step (bench:mixed). Fewer at once
 * keep each round short; the bytes per second of the whole process stay what its processor allows.
 */
export class WriteSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error(`WriteSlots needs at least one slot (got ${limit})`);
  }

  /** Writes holding a slot now, and waiting for one (for tests and diagnostics). */
  get counts(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /**
   * Runs `write` once a slot is free. A body that closed while it waited (the client went away) is not
   * written at all: the write fails at once as cut off, instead of waiting on a stream that never ends.
   */
  async run<T>(body: Readable, write: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) {
      this.active++;
    } else {
      // The slot is handed over by the write that ends (release below), so `active` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      if (body.destroyed) throw cutOffWhileWaiting();
      return await write();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

function cutOffWhileWaiting(): Error {
  return Object.assign(new Error('The body was closed before its write began'), {
    code: 'ERR_STREAM_PREMATURE_CLOSE',
  });
}

const perConfig = new WeakMap<object, WriteSlots>();

/**
 * The slots of one process, shared by every storage made from the same settings (the routes' and the
 * import worker's): one limit for all the part writes a process runs.
 */
export function writeSlotsFor(config: { UPLOAD_PART_CONCURRENCY?: number }): WriteSlots | undefined {
  const limit = config.UPLOAD_PART_CONCURRENCY;
  if (limit === undefined) return undefined;
  let slots = perConfig.get(config);
  if (!slots || slots.limit !== limit) {
    slots = new WriteSlots(limit);
    perConfig.set(config, slots);
  }
  return slots;
}

import type { Readable } from 'node:stream';
import { Turns } from '@avp/shared';
import { turnsFor } from '../../process-turns.js';

/**
 * The part writes one API process stores at once (UPLOAD_PART_CONCURRENCY): the rest wait their turn,
 * first come first served, with their bodies unread, so TCP holds the bytes back on the client's side.
 * Every chunk of a part write costs the event loop (a socket read, sha-256, a file or S3 write): 8 clients
 * with 4 parts in flight each were 32 writes taking turns on the loop, and every other request (the
 * store, checkout, sign-in) waited behind a full round of them at each step (bench:mixed). Fewer at once
 * keep each round short; the bytes per second of the whole process stay what its processor allows.
 */
export class WriteSlots {
  private readonly turns: Turns;

  constructor(readonly limit: number) {
    this.turns = new Turns(limit, 'WriteSlots');
  }

  /** Writes holding a slot now, and waiting for one (for tests and diagnostics). */
  get counts(): { active: number; waiting: number } {
    const { active, waiting } = this.turns.counts;
    return { active, waiting };
  }

  /**
   * Runs `write` once a slot is free. A body that closed while it waited (the client went away) is not
   * written at all: the write fails at once as cut off, instead of waiting on a stream that never ends.
   */
  run<T>(body: Readable, write: () => Promise<T>): Promise<T> {
    return this.turns.run(() => {
      if (body.destroyed) throw cutOffWhileWaiting();
      return write();
    });
  }
}

function cutOffWhileWaiting(): Error {
  return Object.assign(new Error('The body was closed before its write began'), {
    code: 'ERR_STREAM_PREMATURE_CLOSE',
  });
}

/**
 * The slots of one process, shared by every storage made from the same settings (the routes' and the
 * import worker's): one limit for all the part writes a process runs.
 */
export function writeSlotsFor(config: { UPLOAD_PART_CONCURRENCY?: number }): WriteSlots | undefined {
  return turnsFor(config, config.UPLOAD_PART_CONCURRENCY, 'write-slots', (limit) => new WriteSlots(limit));
}

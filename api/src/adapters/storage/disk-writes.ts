import { Turns } from '@avp/shared';
import { turnsFor } from '../../process-turns.js';

/**
 * The file writes local storage hands to libuv's thread pool at once in one process (UPLOAD_DISK_WRITES):
 * the rest wait their turn, first come first served, their chunks held in their part's stream (which
 * stops reading its socket when full, so TCP holds the bytes back on the client's side).
 *
 * The pool has four threads, and the process's other work takes turns on them too: argon2 for sign-in,
 * file reads and, on SQLite, every statement. With a write from each part being received in flight, the store
 * page's and checkout's statements queued behind them (bench:mixed: a trivial job waited 16-24 ms at p99,
 * 9-15 ms with two writes at a time), each write woke a pool thread that took the processor from the
 * event loop (perf: most of the loop's context switches were such wake-ups), and a disk slow to take
 * dirty pages could hold every thread. Two at a time keep two threads for the rest; a write copies
 * 256 KiB into the page cache, so two threads still carry far more than the loop can receive and hash.
 */
export class DiskWrites extends Turns {
  constructor(limit: number) {
    super(limit, 'DiskWrites');
  }
}

/** The turns of one process, shared by every storage made from the same settings. */
export function diskWritesFor(config: { UPLOAD_DISK_WRITES?: number }): DiskWrites | undefined {
  return turnsFor(config, config.UPLOAD_DISK_WRITES, 'disk-writes', (limit) => new DiskWrites(limit));
}

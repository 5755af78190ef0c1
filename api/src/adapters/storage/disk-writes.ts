import { Turns } from '@avp/shared';
import { turnsFor } from '../../process-turns.js';
import { WRITE_BATCH_BYTES } from './write-batch.js';

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
 * dirty pages could hold every thread. Two at a time (one with 1 MiB writes) keep threads for the rest,
 * and still carry far more than the loop can receive and hash.
 */
export class DiskWrites extends Turns {
  constructor(limit: number) {
    super(limit, 'DiskWrites');
  }
}

/**
 * Writes at once when UPLOAD_DISK_WRITES is not set: one where each write carries 1 MiB (write-batch.ts),
 * else two. bench:mixed with 1 MiB writes, the worst call's p99: 2.06-4.68x idle at two (sign-in waited
 * behind the writes for the pool's threads), 1.17-1.78x at one, the uploads faster still (405-435 MB/s
 * against 358-395); with 256 KiB writes one was slower than two (bench:upload 0.95-1.01 of (d) against
 * 1.09-1.12).
 */
export function defaultDiskWrites(batchBytes: number = WRITE_BATCH_BYTES): number {
  return batchBytes >= 1024 * 1024 ? 1 : 2;
}

/** The turns of one process, shared by every storage made from the same settings. */
export function diskWritesFor(config: { UPLOAD_DISK_WRITES?: number }): DiskWrites {
  const limit = config.UPLOAD_DISK_WRITES ?? defaultDiskWrites();
  return turnsFor(config, limit, 'disk-writes', (n) => new DiskWrites(n))!;
}

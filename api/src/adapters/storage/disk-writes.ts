/**
 * The file writes local storage hands to libuv's thread pool at once in one process (UPLOAD_DISK_WRITES):
 * the rest wait their turn, first come first served, their chunks held in their part's stream (which
 * stops reading its socket when full, so TCP holds the bytes back on the client's side).
 *
 * The pool has four threads, and the process's other work takes turns on them too: every SQLite
 * statement, argon2 for sign-in, reads. With a write from each part being received in flight, the store
 * page's and checkout's statements queued behind them (bench:mixed: a trivial job waited 17-23 ms at p99),
 * each write woke a pool thread that took the processor from the event loop (perf: most of the loop's
 * context switches were such wake-ups), and a disk slow to take dirty pages could hold every thread.
 * Two at a time keep two threads for the rest; a write copies 256 KiB into the page cache, so two
 * threads still carry far more than the loop can receive and hash.
 */
export class DiskWrites {
  private active = 0;
  private most = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error(`DiskWrites needs at least one turn (got ${limit})`);
  }

  /** Writes running now, waiting for a turn, and the most ever run at once (tests and diagnostics). */
  get counts(): { active: number; waiting: number; most: number } {
    return { active: this.active, waiting: this.waiting.length, most: this.most };
  }

  /** Runs `write` once fewer than `limit` others run; its turn passes on however it ends. */
  async run<T>(write: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) {
      this.active++;
      this.most = Math.max(this.most, this.active);
    } else {
      // The turn is handed over by the write that ends (below), so `active` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await write();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

const perConfig = new WeakMap<object, DiskWrites>();

/** The turns of one process, shared by every storage made from the same settings (as writeSlotsFor). */
export function diskWritesFor(config: { UPLOAD_DISK_WRITES?: number }): DiskWrites | undefined {
  const limit = config.UPLOAD_DISK_WRITES;
  if (limit === undefined) return undefined;
  let turns = perConfig.get(config);
  if (!turns || turns.limit !== limit) {
    turns = new DiskWrites(limit);
    perConfig.set(config, turns);
  }
  return turns;
}

/**
 * At most `limit` pieces of work at once, the rest waiting first come first served: the shape of every
 * limit a process puts on its own work (the API's part writes and file writes in write-slots.ts and
 * disk-writes.ts, its readings of media facts, its posters).
 */
export class Turns {
  private active = 0;
  private most = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly limit: number,
    what = 'Turns',
  ) {
    if (!(limit >= 1)) throw new Error(`${what} needs at least one turn (got ${limit})`);
  }

  /** Work running now, waiting for a turn, and the most ever run at once (tests and diagnostics). */
  get counts(): { active: number; waiting: number; most: number } {
    return { active: this.active, waiting: this.waiting.length, most: this.most };
  }

  /** Runs `work` once fewer than `limit` others run; its turn passes on however it ends. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) {
      this.active++;
      this.most = Math.max(this.most, this.active);
    } else {
      // The turn is handed over by the work that ends (below), so `active` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

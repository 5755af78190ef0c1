/**
 * At most `limit` pieces of work at once, the rest waiting first come first served: the shape of the
 * process's limits on storage work (write-slots.ts for part writes, disk-writes.ts for file writes).
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

const perConfig = new WeakMap<object, Map<string, { readonly limit: number }>>();

/**
 * The turns a setting gives one process: the same for every storage made from the same settings (the
 * routes' and the import worker's), so one limit holds for all of them. Undefined when it is not set.
 */
export function turnsFor<T extends { readonly limit: number }>(
  config: object,
  limit: number | undefined,
  name: string,
  make: (limit: number) => T,
): T | undefined {
  if (limit === undefined) return undefined;
  let byName = perConfig.get(config);
  if (!byName) perConfig.set(config, (byName = new Map()));
  const turns = byName.get(name);
  if (turns && turns.limit === limit) return turns as T;
  const made = make(limit);
  byName.set(name, made);
  return made;
}

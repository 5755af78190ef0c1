/**
 * Group commit for the small statements of background work (a completed file's facts row, its poster mark,
 * its facts looked up): the first goes at once, alone; those asked for while it is on its way wait for it
 * and then go together, in one statement. A folder of small files completes dozens of files at a time,
 * and on SQLite each write waits for the one writer's turn (sqlite-write-turns.ts) and each statement
 * costs its round through Sequelize: one statement for a group instead of one per file (#34). Nothing
 * waits on a timer, so a lone statement is as quick as before.
 *
 * When the statement of a group fails (one row against a unique key, a file removed meanwhile), each of
 * its items is done again alone, so every caller gets the answer its own statement would have had.
 */
export interface StatementPair<T, R> {
  /** Does `items` in one statement, the results in the same order. */
  many(items: T[]): Promise<R[]>;
  /** Does one item alone. */
  one(item: T): Promise<R>;
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export class GroupedStatements<T, R> {
  readonly #waiting: Waiting<T, R>[] = [];
  #busy = false;

  constructor(
    private readonly statements: StatementPair<T, R>,
    /** Items in one statement at most (the statement's size stays bounded). */
    private readonly max = 64,
  ) {}

  run(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (!this.#busy) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#busy = true;
    try {
      while (this.#waiting.length > 0) {
        const group = this.#waiting.splice(0, this.max);
        await this.#writeGroup(group);
      }
    } finally {
      this.#busy = false;
    }
  }

  async #writeGroup(group: Waiting<T, R>[]): Promise<void> {
    if (group.length > 1) {
      let results: R[] | undefined;
      try {
        results = await this.statements.many(group.map((w) => w.item));
      } catch {
        // Nothing of the group was written (one statement): each alone below, for its own answer.
      }
      if (results) {
        group.forEach((w, i) => w.resolve(results[i]!));
        return;
      }
    }
    await Promise.all(group.map((w) => this.statements.one(w.item).then(w.resolve, w.reject)));
  }
}

/** One GroupedStatements per key (a database), made on first use and let go with the key. */
export function groupedPer<K extends object, T, R>(
  make: (key: K) => GroupedStatements<T, R>,
): (key: K) => GroupedStatements<T, R> {
  const made = new WeakMap<K, GroupedStatements<T, R>>();
  return (key) => {
    let groups = made.get(key);
    if (!groups) {
      groups = make(key);
      made.set(key, groups);
    }
    return groups;
  };
}

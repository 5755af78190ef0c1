import type { Sequelize, Transaction } from 'sequelize';

/**
 * Why writes take turns in memory: SQLite has one writer at a time, and node-sqlite3 runs statements on
 * libuv's small thread pool (4 threads). With several transactions each waiting for BEGIN IMMEDIATE
 * inside that pool, the transaction holding the lock finds no thread for its next statement and everyone
 * waits out the busy timeout (20 concurrent checkouts stalled for 10 s). So the writers of this process
 * queue here and only ever wait for another process inside SQLite.
 */

/** How long a writer waits for its turn before giving up, like the busy timeout does between processes. */
export const SQLITE_TURN_TIMEOUT_MS = 30_000;

/** Gives the turn to the next writer. */
export type ReleaseTurn = () => void;

/** One writer at a time, first come first served. */
export class WriteTurns {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly timeoutMs: number = SQLITE_TURN_TIMEOUT_MS) {}

  /**
   * Resolves once every earlier turn is released; rejects after the timeout. A writer that gave up still
   * holds its place, which passes on as soon as the turn before it ends, so the queue is never stuck.
   */
  async take(): Promise<ReleaseTurn> {
    let release!: ReleaseTurn;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const before = this.tail;
    this.tail = before.then(() => mine);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`SQLite: no turn to write within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      await Promise.race([before, timeout]);
    } catch (error) {
      void before.then(release);
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return release;
  }
}

type AnyFn = (...args: unknown[]) => Promise<unknown>;

/**
 * Wraps `sequelize.transaction` so that each transaction of this process waits for its turn before
 * BEGIN and gives it up after COMMIT or ROLLBACK: a managed transaction (with a callback) when the callback
 * settles, an unmanaged one when its `commit()` or `rollback()` does. A savepoint (a transaction inside a
 * given parent) runs on its parent's turn.
 */
export function transactionsTakeTurns(sequelize: Sequelize, turns: WriteTurns): void {
  const original = sequelize.transaction.bind(sequelize) as AnyFn;

  const transaction = async (first?: unknown, second?: unknown): Promise<unknown> => {
    const callback = typeof first === 'function' ? first : second;
    const options = (typeof first === 'function' ? undefined : first) as
      { transaction?: unknown } | undefined;
    if (options?.transaction) return original(first, second);
    const release = await turns.take();
    if (typeof callback === 'function') {
      try {
        return await original(options ?? {}, callback);
      } finally {
        release();
      }
    }
    let t: Transaction;
    try {
      t = (await original(options)) as Transaction;
    } catch (error) {
      release();
      throw error;
    }
    releaseWhenDone(t, release);
    return t;
  };
  sequelize.transaction = transaction as unknown as Sequelize['transaction'];
}

/** An unmanaged transaction ends with its own commit() or rollback(); either releases the turn, once. */
function releaseWhenDone(t: Transaction, release: ReleaseTurn): void {
  let released = false;
  const done = () => {
    if (!released) {
      released = true;
      release();
    }
  };
  const commit = t.commit.bind(t);
  const rollback = t.rollback.bind(t);
  t.commit = async () => {
    try {
      await commit();
    } finally {
      done();
    }
  };
  t.rollback = async () => {
    try {
      await rollback();
    } finally {
      done();
    }
  };
}

/**
 * Wraps `sequelize.query` so that a write outside any transaction takes a turn too. Such statements share
 * one connection and run there one at a time, so a write waiting for the lock inside SQLite would hold up
 * every statement behind it, reads included, and a pool thread with them. Reads, and statements of a
 * transaction (which holds the turn), go straight through.
 */
export function writesTakeTurns(sequelize: Sequelize, turns: WriteTurns): void {
  const query = sequelize.query.bind(sequelize) as AnyFn;
  const queryInTurn = async (sql: unknown, options?: { transaction?: unknown }): Promise<unknown> => {
    if (options?.transaction || isReadOnlySql(sql)) return query(sql, options);
    const release = await turns.take();
    try {
      return await query(sql, options);
    } finally {
      release();
    }
  };
  sequelize.query = queryInTurn as unknown as Sequelize['query'];
}

/** SELECTs and PRAGMAs never wait for the write lock in WAL mode. */
export function isReadOnlySql(sql: unknown): boolean {
  const text = typeof sql === 'string' ? sql : (sql as { query?: unknown } | null)?.query;
  return typeof text === 'string' && /^\s*(SELECT|PRAGMA)\b/i.test(text);
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { TimeoutError } from 'sequelize';
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

/**
 * Whose writes go first. Upload bookkeeping (part claims and records, registrations, completions) arrives
 * in dozens at a time from a few clients; an intent or a sign-in that queued behind all of them waited
 * out every one (bench:mixed: intents 4.4x their idle p99 with 8 uploaders). So a writer is interactive
 * unless it runs inside `asBulkWriter`, and an interactive writer passes the bulk ones queued before it.
 */
export type WriteLane = 'interactive' | 'bulk';

/** How long bulk writers may be passed over, so a stream of interactive writes never starves them. */
export interface BulkFairness {
  /** The first bulk writer in line goes next once this many interactive turns were given ahead of it. */
  maxPassedTurns: number;
  /** ... or once it has been passed over for this long. */
  maxPassedMs: number;
}

export const BULK_FAIRNESS: BulkFairness = { maxPassedTurns: 8, maxPassedMs: 100 };

const lanes = new AsyncLocalStorage<WriteLane>();

/** Runs `work` (and everything it starts) with its SQLite writes in the bulk lane. */
export function asBulkWriter<T>(work: () => T): T {
  return lanes.run('bulk', work);
}

/** The lane of the writes made from here: bulk inside `asBulkWriter`, else interactive. */
export function currentWriteLane(): WriteLane {
  return lanes.getStore() ?? 'interactive';
}

/** Gives the turn to the next writer. */
export type ReleaseTurn = () => void;

interface Waiter {
  lane: WriteLane;
  give: () => void;
}

/**
 * One writer at a time: interactive writers first come first served, then bulk writers first come first
 * served, except that the first bulk writer in line goes ahead once it was passed over `maxPassedTurns`
 * times or for `maxPassedMs` (BulkFairness).
 */
export class WriteTurns {
  private held = false;
  private readonly queues: Record<WriteLane, Waiter[]> = { interactive: [], bulk: [] };
  /** Interactive turns given since a bulk writer last had one while bulk writers waited, and since when. */
  private passedTurns = 0;
  private passedSince: number | undefined;
  /** Turns given per lane, for tests and diagnostics. */
  private readonly given: Record<WriteLane, number> = { interactive: 0, bulk: 0 };

  constructor(
    private readonly timeoutMs: number = SQLITE_TURN_TIMEOUT_MS,
    private readonly fairness: BulkFairness = BULK_FAIRNESS,
  ) {}

  /** Writers waiting per lane, and turns given per lane so far. */
  get counts(): { waiting: Record<WriteLane, number>; given: Record<WriteLane, number> } {
    return {
      waiting: { interactive: this.queues.interactive.length, bulk: this.queues.bulk.length },
      given: { ...this.given },
    };
  }

  /** Turns given so far in both lanes: a count that grows with every write of this process. */
  get turnsGiven(): number {
    return this.given.interactive + this.given.bulk;
  }

  /**
   * Resolves with the turn once it is this writer's (the lane is the caller's: `currentWriteLane`);
   * rejects after the timeout. A writer that gave up leaves the line, so nobody waits for it.
   */
  take(lane: WriteLane = currentWriteLane()): Promise<ReleaseTurn> {
    if (!this.held && this.queues.interactive.length === 0 && this.queues.bulk.length === 0) {
      this.held = true;
      this.given[lane]++;
      return Promise.resolve(this.releaser());
    }
    return new Promise<ReleaseTurn>((resolve, reject) => {
      const queue = this.queues[lane];
      const timer = setTimeout(() => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        if (this.queues.bulk.length === 0) this.bulkServed();
        // As SQLite's busy timeout between processes does: the database busy, not the request wrong (503).
        const waited = Object.assign(new Error(`SQLite: no turn to write within ${this.timeoutMs} ms`), {
          sql: '',
        });
        reject(new TimeoutError(waited));
      }, this.timeoutMs);
      const waiter: Waiter = {
        lane,
        give: () => {
          clearTimeout(timer);
          resolve(this.releaser());
        },
      };
      queue.push(waiter);
    });
  }

  /** A release that counts once however often it is called. */
  private releaser(): ReleaseTurn {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held = false;
      this.next();
    };
  }

  private bulkServed(): void {
    this.passedTurns = 0;
    this.passedSince = undefined;
  }

  private next(): void {
    const { interactive, bulk } = this.queues;
    if (interactive.length === 0 && bulk.length === 0) return;
    const now = performance.now();
    const bulkDue =
      bulk.length > 0 &&
      (interactive.length === 0 ||
        this.passedTurns >= this.fairness.maxPassedTurns ||
        (this.passedSince !== undefined && now - this.passedSince >= this.fairness.maxPassedMs));
    const waiter = bulkDue ? bulk.shift()! : interactive.shift()!;
    if (bulkDue) this.bulkServed();
    else if (bulk.length > 0) {
      this.passedTurns++;
      this.passedSince ??= now;
    }
    this.held = true;
    this.given[waiter.lane]++;
    waiter.give();
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

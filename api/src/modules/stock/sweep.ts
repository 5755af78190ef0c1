import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { Logger } from '../../logger.js';
import { releaseExpired } from './holds.js';

/**
 * Expired holds go back on the shelf. Every API process ticks every STOCK_SWEEP_SECONDS, but a sweep runs
 * once across them: the one row of stock_sweeps says when the next is due, and `UPDATE … SET next_at = …
 * WHERE next_at <= now` moves it for exactly one process (the mail worker claims its rows the same way).
 * Each hold is then released by its own conditional update (holds.ts), so even two sweeps at once, or a
 * sweep racing a payment, release a hold at most once.
 */

/** Holds released per sweep at most; the rest wait for the next one. */
const SWEEP_BATCH = 500;

export interface SweepDeps {
  db: Database;
  logger: Logger;
}

/** Releases the holds that ran out by `now` (ms); answers how many this call released. */
export async function releaseExpiredHolds(
  { db, logger }: SweepDeps,
  now: number = Date.now(),
): Promise<number> {
  const due = await db.sequelize.query<{ order_id: string }>(
    `SELECT order_id FROM stock_holds WHERE state = 'held' AND expires_at <= :now
      ORDER BY expires_at LIMIT ${SWEEP_BATCH}`,
    { replacements: { now }, type: QueryTypes.SELECT },
  );
  let released = 0;
  for (const { order_id: orderId } of due) {
    try {
      const done = await db.sequelize.transaction((transaction) =>
        releaseExpired(db, orderId, now, transaction),
      );
      if (done) released++;
    } catch (error) {
      logger.warn(
        { err: error, orderId },
        'could not release an expired stock hold; the next sweep tries again',
      );
    }
  }
  if (released > 0) logger.info({ released }, `released ${released} expired stock holds`);
  return released;
}

/** Claims the next sweep for this process: true for exactly one of the processes asking when one is due. */
export async function claimSweep(
  db: Database,
  by: string,
  intervalMs: number,
  now: number,
): Promise<boolean> {
  const rows = await db.sequelize.query(
    `UPDATE stock_sweeps SET next_at = :next, swept_by = :by WHERE id = 1 AND next_at <= :now RETURNING id`,
    { replacements: { next: now + intervalMs, by, now }, type: QueryTypes.SELECT },
  );
  return rows.length > 0;
}

export interface StockSweep {
  /** One tick now (claim, then sweep if claimed); answers how many holds it released. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

export function startStockSweep(
  deps: SweepDeps & { config: Pick<Config, 'STOCK_SWEEP_SECONDS'> },
): StockSweep {
  const intervalMs = deps.config.STOCK_SWEEP_SECONDS * 1000;
  const me = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`.slice(0, 128);
  let running: Promise<number> | undefined;
  let stopped = false;

  const tick = (): Promise<number> =>
    (running ??= (async () => {
      const now = Date.now();
      // A little under the interval, so the process whose timer fires first each round takes it.
      if (!(await claimSweep(deps.db, me, intervalMs - 100, now))) return 0;
      return releaseExpiredHolds(deps, now);
    })()
      .catch((error: unknown) => {
        deps.logger.warn({ err: error }, 'stock sweep failed; the next tick tries again');
        return 0;
      })
      .finally(() => {
        running = undefined;
      }));

  const timer = setInterval(() => {
    if (!stopped) void tick();
  }, intervalMs);
  timer.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

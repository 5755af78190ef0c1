import { statSync } from 'node:fs';
import sqlite3 from 'sqlite3';
import type { Logger } from '../logger.js';

/**
 * SQLite's WAL checkpoints, run by a connection of their own when the process's writes pause, instead of
 * by whichever request's commit crossed the WAL's size (SQLite's automatic checkpoint, every 1,000 pages).
 *
 * A checkpoint copies the WAL into the database file and syncs both, and the first commit after it syncs
 * the WAL's new header. While uploads stream gigabytes to the same disk, a sync waits for the file
 * system's journal, which waits for their data: in bench:many (#34), with 200 files of 20 MiB, syncs took
 * 0.4-1.6 s and for that long the whole process stood still (no statement, no part written; the same
 * whether the sync ran in a request's commit or on this connection). So checkpoints wait for a pause in
 * the writes (a second without one: an upload records a part every few tens of milliseconds), and run
 * during a long stretch of writes only once the WAL has grown past `walBytes` or `maxMs` has passed.
 *
 * A checkpoint here holds none of the locks writers and readers take (PASSIVE), and the WAL stops growing
 * once one has copied all of it: the next writer starts it again from its beginning, cut back to
 * `JOURNAL_SIZE_LIMIT`. With synchronous=NORMAL a commit is synced by the next checkpoint, so these bounds
 * are also what a power loss can take back: at most `maxMs` of commits, a second or two once writes pause.
 */

export interface CheckpointPolicy {
  /** How often the writes are looked at. */
  intervalMs: number;
  /** The WAL file's size past which writes are not waited for. */
  walBytes: number;
  /** The longest a commit waits for a checkpoint while writes go on. */
  maxMs: number;
}

export const CHECKPOINT_POLICY: CheckpointPolicy = {
  intervalMs: 1_000,
  walBytes: 64 * 1024 * 1024,
  maxMs: 60_000,
};

/** The size the WAL file is cut back to when it starts again, so that its size says how much it holds. */
export const JOURNAL_SIZE_LIMIT = 8 * 1024 * 1024;

/** What every request connection gets alongside the background checkpoints: none of its own. */
export const BACKGROUND_CHECKPOINT_PRAGMAS = [
  'PRAGMA wal_autocheckpoint=0',
  `PRAGMA journal_size_limit=${JOURNAL_SIZE_LIMIT}`,
];

/** What one checkpoint did, in pages (frames) of the WAL: `PRAGMA wal_checkpoint`'s own answer. */
export interface CheckpointResult {
  /** 1 when another connection's checkpoint (another process's) was running, so this one did nothing. */
  busy: number;
  /** Frames in the WAL. */
  log: number;
  /** Frames of it now copied into the database file. */
  checkpointed: number;
}

export interface BackgroundCheckpoints {
  /** One checkpoint now, after any running: what it did. */
  run(): Promise<CheckpointResult>;
  /** Stops the timer, waits for a running checkpoint and closes the connection; idempotent. */
  stop(): Promise<void>;
}

export function checkpointInBackground(
  file: string,
  logger: Logger,
  /** The process's writes so far, a count that grows with each (sqlite-write-turns.ts's turns given). */
  writes: () => number,
  policy: CheckpointPolicy = CHECKPOINT_POLICY,
): BackgroundCheckpoints {
  let connection: Promise<sqlite3.Database> | undefined;
  let running: Promise<CheckpointResult> | undefined;
  let stopping: Promise<void> | undefined;
  let failures = 0;
  /** The writes as the last look and the last checkpoint found them, and when that checkpoint began. */
  let lookedAt = writes();
  let checkpointedAt = lookedAt;
  let checkpointStarted = Date.now();

  const open = () =>
    (connection ??= new Promise((resolve, reject) => {
      const failed = (error: Error) => {
        // Tried again at the next checkpoint (a file restored meanwhile, say).
        connection = undefined;
        reject(error);
      };
      const db: sqlite3.Database = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (error) => {
        if (error) return failed(error);
        // A connection learns that the file is in WAL mode only from a read; until then its checkpoints
        // do nothing, and one opened before the switch to WAL would never read. The mode is the file's,
        // set by connection.ts already: this only makes sure this connection knows it.
        db.exec(`PRAGMA journal_mode=WAL; PRAGMA journal_size_limit=${JOURNAL_SIZE_LIMIT}`, (pragmaError) =>
          pragmaError ? failed(pragmaError) : resolve(db),
        );
      });
    }));

  const checkpoint = async (): Promise<CheckpointResult> => {
    const db = await open();
    // PASSIVE: copies what no reader still needs, without waiting for anyone or making anyone wait.
    return new Promise((resolve, reject) =>
      db.get('PRAGMA wal_checkpoint(PASSIVE)', (error, row) =>
        error ? reject(error) : resolve(row as CheckpointResult),
      ),
    );
  };

  const run = (): Promise<CheckpointResult> => {
    const next = (running ?? Promise.resolve())
      .catch(() => undefined)
      .then(checkpoint)
      .finally(() => {
        if (running === next) running = undefined;
      });
    running = next;
    return next;
  };

  const walSize = (): number => {
    try {
      return statSync(`${file}-wal`).size;
    } catch {
      return 0;
    }
  };

  const due = (): boolean => {
    const now = writes();
    const quiet = now === lookedAt;
    lookedAt = now;
    if (now === checkpointedAt) return false;
    return quiet || walSize() >= policy.walBytes || Date.now() - checkpointStarted >= policy.maxMs;
  };

  const tick = () => {
    // One at a time: a checkpoint slower than the interval (a long sync) is not queued behind again.
    if (running || stopping || !due()) return;
    // What commits after this moment may not be in this checkpoint: it is due again once they pause.
    checkpointedAt = lookedAt;
    checkpointStarted = Date.now();
    run().then(
      (result) => {
        failures = 0;
        logger.debug({ ...result, ms: Date.now() - checkpointStarted }, 'sqlite checkpoint');
      },
      (error: unknown) => {
        // Due again at the next look; logged once per streak (a file gone would say it every second).
        checkpointedAt = Number.NaN;
        if (failures++ === 0) logger.warn({ err: error, file }, 'sqlite checkpoint failed');
      },
    );
  };
  const timer = setInterval(tick, policy.intervalMs);
  // The checkpoints serve the process's own writes; they never keep it alive.
  timer.unref();

  return {
    run,
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(timer);
        await running?.catch(() => undefined);
        const db = await connection?.catch(() => undefined);
        if (db) await new Promise<void>((resolve) => db.close(() => resolve()));
      })()),
  };
}

import type { UploadStorage } from '../../adapters/storage/index.js';
import { createUploadStorage } from '../../adapters/storage/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { Logger } from '../../logger.js';
import { destroyFile, STALE_WHERE, staleBefore } from './removal.js';

export interface UploadCleanupOptions {
  config: Config;
  db: Database;
  logger: Logger;
  storage?: UploadStorage;
  /** How often to look for stale uploads; hourly by default. */
  everyMs?: number;
  batchSize?: number;
}

export interface UploadCleanup {
  /** Removes every stale unfinished submission now; resolves with how many. */
  runOnce(now?: Date): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Deletes unfinished submissions (and their bytes) untouched for UPLOAD_RETENTION_DAYS (DESIGN 'Running
 * on more than one machine'). Every process runs one; a submission is cleaned by whichever claims it:
 * on PostgreSQL the rows are locked `FOR UPDATE SKIP LOCKED` for the transaction that deletes them, so
 * concurrent jobs take disjoint rows; on SQLite (one writer at a time) the claim is the conditional
 * `UPDATE … SET status='open' WHERE id=? AND status='open' AND updated_at < cutoff` that touches the row:
 * exactly one job's update changes it, and the touched row is no longer stale for the others.
 */
export function startUploadCleanup(options: UploadCleanupOptions): UploadCleanup {
  const { config, db } = options;
  const storage = options.storage ?? createUploadStorage(config);
  const logger = options.logger.child({ component: 'upload-cleanup' });
  const batchSize = options.batchSize ?? 20;
  const { Submission, SubmissionFile } = db.models;
  let stopped = false;
  let running: Promise<number> | undefined;

  async function clean(submissionId: string): Promise<void> {
    const files = await SubmissionFile.findAll({ where: { submissionId } });
    for (const file of files) await destroyFile({ db, storage }, file);
    await Submission.destroy({ where: { id: submissionId } });
  }

  async function runOnce(now: Date = new Date()): Promise<number> {
    const cutoff = staleBefore(config, now);
    let cleaned = 0;
    for (;;) {
      let batch = 0;
      if (db.dialect === 'postgres') {
        batch = await db.sequelize.transaction(async (transaction) => {
          const rows = await Submission.findAll({
            attributes: ['id'],
            where: STALE_WHERE(cutoff),
            limit: batchSize,
            lock: transaction.LOCK.UPDATE,
            skipLocked: true,
            transaction,
          });
          for (const row of rows) {
            const files = await SubmissionFile.findAll({ where: { submissionId: row.id }, transaction });
            for (const file of files) {
              await storage.remove(file.storageKey, file.status === 'complete' ? null : file.storageUploadId);
            }
            await db.models.FilePart.destroy({ where: { fileId: files.map((f) => f.id) }, transaction });
            await SubmissionFile.destroy({ where: { submissionId: row.id }, transaction });
            await Submission.destroy({ where: { id: row.id }, transaction });
          }
          return rows.length;
        });
      } else {
        const candidates = await Submission.findAll({
          attributes: ['id'],
          where: STALE_WHERE(cutoff),
          limit: batchSize,
        });
        for (const candidate of candidates) {
          const [claimed] = await Submission.update(
            { status: 'open' },
            { where: { id: candidate.id, ...STALE_WHERE(cutoff) } },
          );
          if (claimed !== 1) continue;
          await clean(candidate.id);
          batch++;
        }
        if (candidates.length < batchSize) {
          cleaned += batch;
          break;
        }
      }
      cleaned += batch;
      if (batch < batchSize || stopped) break;
    }
    if (cleaned > 0) logger.info({ cleaned }, 'stale unfinished uploads removed');
    return cleaned;
  }

  function tick(): void {
    if (stopped || running) return;
    running = runOnce()
      .catch((error: unknown) => {
        logger.error({ err: error }, 'upload clean-up failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
  }

  const timer = setInterval(tick, options.everyMs ?? 3_600_000);
  timer.unref();
  const first = setTimeout(tick, 5_000);
  first.unref();

  return {
    runOnce: async (now) => {
      while (running) await running;
      return runOnce(now);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      if (running) await running;
    },
  };
}

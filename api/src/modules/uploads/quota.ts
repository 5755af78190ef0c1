import { formatBytes } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';

/**
 * The per-client quota of bytes in unfinished uploads (UPLOAD_QUOTA_BYTES): registering a file reserves
 * its declared size until it is complete or removed, so a client cannot claim storage for files it never
 * sends. Unfinished files of every submission of theirs count; stale ones are freed by the clean-up job.
 */

/** The declared sizes of the client's files not yet complete, across all their submissions. */
export async function unfinishedBytes(
  db: Database,
  userId: number,
  transaction: Transaction,
): Promise<number> {
  const [row] = await db.sequelize.query<{ total: number | string | null }>(
    `SELECT SUM(f.size) AS total FROM submission_files f JOIN submissions s ON s.id = f.submission_id
     WHERE s.user_id = :userId AND f.status <> 'complete'`,
    { replacements: { userId }, type: QueryTypes.SELECT, transaction },
  );
  return Number(row?.total ?? 0);
}

/** 413 for a file that would take the client past the quota, the limit named in human units. */
export function quotaExceeded(limit: number, pending: number, size: number): AppError {
  const message =
    pending === 0
      ? `This file (${formatBytes(size)}) is larger than the ${formatBytes(limit)} limit for unfinished uploads.`
      : `Your unfinished uploads would exceed the ${formatBytes(limit)} limit (${formatBytes(pending)} ` +
        `already in progress, and this file is ${formatBytes(size)}). Finish or remove some before adding more.`;
  return new AppError(413, 'upload_quota_exceeded', message);
}

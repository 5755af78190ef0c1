import { Op } from 'sequelize';
import type { WhereOptions } from 'sequelize';
import type { Config } from '../../config.js';
import type { SubmissionAttributes, SubmissionFileInstance } from '../../db/models/index.js';
import type { SessionUser } from '../accounts/index.js';
import { assertOpen, ownFile } from './common.js';
import type { UploadsDeps } from './common.js';
import type { RunningHashes } from './running-hash.js';

/** Removal: a file's bytes and rows deleted (the remove button, a dropped file, the clean-up job). */

/** Deletes a file's bytes and rows. */
export async function destroyFile(
  deps: Pick<UploadsDeps, 'db' | 'storage'> & { hashes?: RunningHashes },
  file: SubmissionFileInstance,
) {
  deps.hashes?.forget(file.id);
  await deps.storage.remove(file.storageKey, file.status === 'complete' ? null : file.storageUploadId);
  if (file.posterKey) await deps.storage.remove(file.posterKey, null);
  await deps.db.models.FilePart.destroy({ where: { fileId: file.id } });
  await file.destroy();
}

/** Removes a file from an open submission (the remove button). */
export async function removeFile(deps: UploadsDeps, user: SessionUser, fileId: string): Promise<void> {
  const { file, submission } = await ownFile(deps.db, user, fileId);
  assertOpen(submission);
  await destroyFile(deps, file);
}

/** Unfinished submissions untouched for longer than this are stale. */
export function staleBefore(config: Pick<Config, 'UPLOAD_RETENTION_DAYS'>, now: Date): Date {
  return new Date(now.getTime() - config.UPLOAD_RETENTION_DAYS * 86_400_000);
}

export function STALE_WHERE(cutoff: Date): WhereOptions<SubmissionAttributes> {
  return { status: 'open', updatedAt: { [Op.lt]: cutoff } };
}

import { formatBytes, planUpload, UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import { quotaExceeded, unfinishedBytes } from './quota.js';
import { assertOpen, ownFile, receivedParts, toFileInfo, touch } from './common.js';
import type { UploadsDeps } from './common.js';

export const PARTS_IN_ORDER =
  'Parts of a file whose size was not declared come in order: send the next part after the last one.';

/**
 * A file whose size its sender does not know up front (the original protocol's pages send parts until
 * the file ends and may never state a size): registered with its first part's size, it grows by one part
 * at a time while every part so far has arrived and the last one was full (6 MiB). A shorter part is
 * the last, so the size is known when the sender finishes. Local storage writes each part at its offset
 * (the file grows with it) and an S3 multipart upload takes parts without a total, so only the row
 * changes: its size and part count, with the client's quota of unfinished bytes checked for the part
 * added, under the lock registrations take. This process's running hash of the file is dropped, since it
 * was planned for the old size; completion then hashes the stored file.
 */
export async function extendFile(
  deps: UploadsDeps,
  user: SessionUser,
  fileId: string,
  partBytes: number,
): Promise<UploadFileInfo> {
  const { file, submission } = await ownFile(deps.db, user, fileId);
  assertOpen(submission);
  const size = Number(file.size);
  const have = await receivedParts(deps.db, file.id);
  if (file.status === 'complete' || size % UPLOAD_PART_SIZE !== 0 || have.length !== file.partCount) {
    throw new AppError(409, 'parts_in_order', PARTS_IN_ORDER);
  }
  const grown = size + partBytes;
  if (grown > deps.config.UPLOAD_MAX_BYTES) {
    throw new AppError(
      413,
      'file_too_large',
      `Files may be at most ${formatBytes(deps.config.UPLOAD_MAX_BYTES)}.`,
    );
  }
  const plan = planUpload(grown);
  if (plan.partSize !== UPLOAD_PART_SIZE) {
    throw new AppError(413, 'file_too_large', `Files of unknown size may be at most ${formatBytes(size)}.`);
  }
  const { SubmissionFile, User } = deps.db.models;
  const updated = await deps.db.sequelize.transaction(async (transaction) => {
    await User.findByPk(user.id, { attributes: ['id'], lock: transaction.LOCK.UPDATE, transaction });
    const pending = await unfinishedBytes(deps.db, user.id, transaction);
    if (pending + partBytes > deps.config.UPLOAD_QUOTA_BYTES) {
      throw quotaExceeded(deps.config.UPLOAD_QUOTA_BYTES, pending, grown);
    }
    // Only from the size read above: two parts racing to grow the file grow it once.
    const [count] = await SubmissionFile.update(
      { size: grown, partCount: plan.partCount },
      { where: { id: file.id, size, status: 'uploading' }, transaction },
    );
    return count;
  });
  if (updated === 0) throw new AppError(409, 'parts_in_order', PARTS_IN_ORDER);
  deps.hashes.forget(file.id);
  await touch(deps.db, submission.id);
  return toFileInfo(await file.reload(), have);
}

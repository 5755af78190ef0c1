import { QueryTypes } from 'sequelize';
import { AppError } from '../../http/errors.js';
import { FILE_COMPLETE, FILE_NOT_FOUND } from './common.js';
import type { UploadsDeps } from './common.js';

/**
 * A file's upload in storage (S3's multipart upload id, kept on its row), begun after the row is in so
 * that no transaction waits on S3. Between the two a registration can fail: PostgreSQL cut after S3 began
 * the upload (the id not recorded, and the row's removal refused too), or the process killed. The row is
 * then found again by the client's retry, with no upload to send parts to: S3 took each part as a whole
 * object at the file's key, each replacing the last, and the completion failed on every try (the soak,
 * #34). So a part write begins the upload the row lacks, and every recording of a begun upload yields to
 * one recorded first: two processes that both began one keep the same.
 */

interface FileToStore {
  id: string;
  size: number;
  type: string;
  storageKey: string;
  storageUploadId: string | null;
}

/** The upload a part of `file` is written to: its row's, or one begun now when the row has none. */
export async function uploadIdForPart(deps: UploadsDeps, file: FileToStore): Promise<string | null> {
  // Local storage has no upload id (begin made the file), and an empty file has no parts.
  if (file.storageUploadId !== null || deps.storage.kind !== 's3' || file.size === 0) {
    return file.storageUploadId;
  }
  deps.logger.warn({ fileId: file.id }, 'a file had no upload in storage; beginning one');
  const begun = await deps.storage.begin(file.storageKey, file.size, file.type);
  return recordStorageUpload(deps, file.id, file.storageKey, begun);
}

/**
 * Records `begun` as the file's upload unless the row already has one (or the file is complete); then
 * `begun` is abandoned and the recorded one answered. Null for local storage's null.
 */
export async function recordStorageUpload(
  deps: UploadsDeps,
  fileId: string,
  key: string,
  begun: string | null,
): Promise<string | null> {
  if (begun === null) return null;
  const recorded = await deps.db.sequelize.query<{ id: string }>(
    `UPDATE submission_files SET storage_upload_id = :begun
      WHERE id = :fileId AND storage_upload_id IS NULL AND status <> 'complete' RETURNING id`,
    { replacements: { begun, fileId }, type: QueryTypes.SELECT },
  );
  if (recorded.length > 0) return begun;
  await deps.storage.abandon?.(key, begun).catch((error: unknown) => {
    // Left for the bucket's AbortIncompleteMultipartUpload rule (README).
    deps.logger.warn({ err: error, fileId }, 'could not abandon a storage upload begun twice');
  });
  const [row] = await deps.db.sequelize.query<{ status: string; storage_upload_id: string | null }>(
    'SELECT status, storage_upload_id FROM submission_files WHERE id = :fileId',
    { replacements: { fileId }, type: QueryTypes.SELECT },
  );
  if (!row) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  if (row.status === 'complete' || row.storage_upload_id === null) throw FILE_COMPLETE();
  return row.storage_upload_id;
}

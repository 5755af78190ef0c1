import { randomUUID } from 'node:crypto';
import {
  checkMediaFacts,
  formatBytes,
  mediaFactsSchema,
  planUpload,
  uploadFileRegistrationSchema,
} from '@avp/shared';
import type { MediaCheck, MediaFacts, UploadFileInfo } from '@avp/shared';
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import type { SubmissionFileInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import { assertTakesNewFiles, specForSubmission } from '../upload-events/index.js';
import { clientFactsRow, mediaBlocked } from './media-probe.js';
import { quotaExceeded, unfinishedBytes } from './quota.js';
import { assertOpen, ownSubmission, receivedParts, storageKey, toFileInfo, touch } from './common.js';
import type { UploadsDeps } from './common.js';
import { recordStorageUpload } from './storage-upload.js';

/** Registration: a file added to a submission (or found again there, to resume), within the quota. */

export const registrationSchema = uploadFileRegistrationSchema.extend({
  lastModified: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  /** The client's own reading of the file (#30); null: its reader could not read it. */
  facts: mediaFactsSchema.nullable().optional(),
});

/**
 * Registers a file and answers its part size and the parts already received. The same name, size and
 * last-modified time in the same open submission is the same file: its upload resumes. A new file must
 * fit the client's quota of unfinished bytes (quota.ts), checked in the transaction that inserts it with
 * the client's row locked, so concurrent registrations are counted one after the other.
 */
export async function registerFile(
  deps: UploadsDeps,
  user: SessionUser,
  submissionId: string,
  input: unknown,
): Promise<{ created: boolean; file: UploadFileInfo }> {
  const submission = await ownSubmission(deps.db, user, submissionId);
  assertOpen(submission);
  const body = registrationSchema.parse(input);
  const lastModified = body.lastModified ?? null;
  // The server decides the check from the client's facts and the event's spec: a block is refused here.
  const check =
    body.facts === undefined
      ? undefined
      : checkMediaFacts(await specForSubmission(deps.db, submission), body.facts);
  if (check?.verdict === 'block') throw mediaBlocked(check);
  if (lastModified === null || !(await sameFile(deps.db, submissionId, body.name, body.size, lastModified))) {
    await assertTakesNewFiles(deps.db, submission);
  }
  return addFile(deps, user, submissionId, {
    ...(check ? { check, clientFacts: body.facts ?? null } : {}),
    name: body.name,
    size: body.size,
    type: body.type,
    lastModified,
    sha256: body.sha256 ?? null,
    findSame:
      lastModified === null
        ? undefined
        : (transaction) =>
            deps.db.models.SubmissionFile.findOne({
              where: { submissionId, name: body.name, size: body.size, lastModified },
              transaction,
            }),
  });
}

/** The file a registration resumes, if it names one already in the submission. */
function sameFile(db: Database, submissionId: string, name: string, size: number, lastModified: number) {
  return db.models.SubmissionFile.findOne({ where: { submissionId, name, size, lastModified } });
}

/** A new file of a submission, as registerFile and the cloud imports add them. */
export interface NewFile {
  name: string;
  size: number;
  type: string;
  lastModified: number | null;
  sha256: string | null;
  /** The same file already in the submission, if any: it is answered instead of a new one. */
  findSame?: (transaction: Transaction) => Promise<SubmissionFileInstance | null>;
  /** Rows that belong with the new file (a cloud import), inserted in its transaction. */
  alsoInsert?: (file: SubmissionFileInstance, transaction: Transaction) => Promise<void>;
  /** The check of the client's reported facts (#30), recorded with the file and its 'client' facts row. */
  check?: MediaCheck;
  clientFacts?: MediaFacts | null;
  /** A new version (#31): the file it replaces and its number. */
  replaces?: { fileId: string; version: number };
}

/**
 * Adds a file to an open submission: it must fit the client's quota of unfinished bytes (quota.ts),
 * checked in the transaction that inserts it with the client's row locked, so concurrent registrations
 * are counted one after the other; then its storage is prepared.
 */
export async function addFile(
  deps: UploadsDeps,
  user: SessionUser,
  submissionId: string,
  spec: NewFile,
): Promise<{ created: boolean; file: UploadFileInfo; row: SubmissionFileInstance }> {
  if (spec.size > deps.config.UPLOAD_MAX_BYTES) {
    throw new AppError(
      413,
      'file_too_large',
      `Files may be at most ${formatBytes(deps.config.UPLOAD_MAX_BYTES)}.`,
    );
  }
  const { SubmissionFile, User } = deps.db.models;
  const id = randomUUID();
  const key = storageKey(submissionId, id);
  const plan = planUpload(spec.size);
  const { created, file } = await deps.db.sequelize.transaction(async (transaction) => {
    // The client's row is the lock: their registrations wait here for each other, so each sum below
    // includes the files of the one before (PostgreSQL; SQLite runs one write transaction at a time).
    await User.findByPk(user.id, { attributes: ['id'], lock: transaction.LOCK.UPDATE, transaction });
    const same = spec.findSame ? await spec.findSame(transaction) : null;
    if (same) return { created: false, file: same };
    const pending = await unfinishedBytes(deps.db, user.id, transaction);
    if (pending + spec.size > deps.config.UPLOAD_QUOTA_BYTES) {
      throw quotaExceeded(deps.config.UPLOAD_QUOTA_BYTES, pending, spec.size);
    }
    const inserted = await SubmissionFile.create(
      {
        id,
        submissionId,
        name: spec.name,
        size: spec.size,
        type: spec.type,
        lastModified: spec.lastModified,
        sha256: spec.sha256,
        partSize: plan.partSize,
        partCount: plan.partCount,
        storageKey: key,
        storageUploadId: null,
        checkVerdict: spec.check?.verdict ?? null,
        checkIssues: spec.check?.issues ?? null,
        ...(spec.replaces ? { replacesFileId: spec.replaces.fileId, version: spec.replaces.version } : {}),
      },
      { transaction },
    );
    if (spec.check) {
      await deps.db.models.MediaFacts.create(clientFactsRow(id, spec.clientFacts ?? null, spec.check), {
        transaction,
      });
    }
    await spec.alsoInsert?.(inserted, transaction);
    return { created: true, file: inserted };
  });
  if (!created) {
    await touch(deps.db, submissionId);
    const parts = file.status === 'complete' ? undefined : await receivedParts(deps.db, file.id);
    return { created: false, file: toFileInfo(file, parts), row: file };
  }
  // Storage is prepared after the row is in, so no transaction waits on S3.
  try {
    const begun = await deps.storage.begin(key, spec.size, spec.type);
    file.setDataValue('storageUploadId', await recordStorageUpload(deps, file.id, key, begun));
  } catch (error) {
    await file.destroy().catch(() => undefined);
    throw error;
  }
  await touch(deps.db, submissionId);
  return { created: true, file: toFileInfo(file, []), row: file };
}

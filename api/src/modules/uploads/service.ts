import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  checkMediaFacts,
  createSubmissionSchema,
  formatBytes,
  mediaFactsSchema,
  isUuid,
  missingParts,
  partRange,
  planUpload,
  UPLOAD_FILE_REQUIRED,
  uploadFileRegistrationSchema,
} from '@avp/shared';
import type { CloudImportInfo, MediaCheck, MediaFacts, SubmissionInfo, UploadFileInfo } from '@avp/shared';
import { ForeignKeyConstraintError, Op, QueryTypes } from 'sequelize';
import type { Transaction, WhereOptions } from 'sequelize';
import { z } from 'zod';
import { isStorageFull, PartSizeError, StorageUnavailableError } from '../../adapters/storage/index.js';
import type { UploadStorage } from '../../adapters/storage/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type {
  FileImportInstance,
  FilePartInstance,
  SubmissionAttributes,
  SubmissionFileAttributes,
  SubmissionFileInstance,
  SubmissionInstance,
} from '../../db/models/index.js';
import { AppError, toAppError } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import type { SessionUser } from '../accounts/index.js';
import { assertTakesNewFiles, eventForSubmission, specForSubmission } from '../upload-events/index.js';
import { clientFactsRow, mediaBlocked, probesSettled, scheduleProbe } from './media-probe.js';
import type { BackgroundTracker } from './media-probe.js';
import { claimWrite, COMPLETION, liveClaims, nowMs } from './claims.js';
import type { WriteClaim } from './claims.js';
import { queueSubmissionMails } from './mail.js';
import { schedulePoster } from './posters.js';
import { queueVersionNotice } from './versions-notice.js';
import { quotaExceeded, unfinishedBytes } from './quota.js';
import { metricsOf } from '../metrics/index.js';
import type { RunningHashes } from './running-hash.js';

export interface UploadsDeps {
  config: Config;
  db: Database;
  logger: Logger;
  storage: UploadStorage;
  /** This process's running checksums (running-hash.ts): completion usually needs no second pass. */
  hashes: RunningHashes;
  /** Keeps shutdown waiting for the media facts read after a completion (http/after-answer.ts). */
  background?: BackgroundTracker;
}

export const SUBMISSION_NOT_FOUND = 'No such submission.';
export const FILE_NOT_FOUND = 'No such file.';

/** Where a file's bytes live: built from server ids only, never from the user's file name. */
export function storageKey(submissionId: string, fileId: string): string {
  return `submissions/${submissionId}/${fileId}`;
}

/** What the client and staff see of an import's state. */
export function toImportInfo(row: FileImportInstance): CloudImportInfo {
  return {
    provider: row.provider,
    status: row.status,
    bytesDone: Number(row.bytesDone),
    bytesPerSecond:
      row.status === 'running' && row.bytesPerSecond !== null ? Number(row.bytesPerSecond) : null,
    error: row.error,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The import rows of these files, by file id (files the browser sent have none). */
export async function importsOf(db: Database, fileIds: string[]): Promise<Map<string, FileImportInstance>> {
  if (fileIds.length === 0) return new Map();
  const rows = await db.models.FileImport.findAll({ where: { fileId: fileIds } });
  return new Map(rows.map((row) => [row.fileId, row]));
}

export function toFileInfo(
  file: SubmissionFileInstance,
  receivedParts?: number[],
  cloudImport?: FileImportInstance,
): UploadFileInfo {
  return {
    id: file.id,
    name: file.name,
    size: Number(file.size),
    type: file.type,
    lastModified: file.lastModified === null ? null : Number(file.lastModified),
    // While uploading the column holds the checksum the client announced, not a verified one.
    sha256: file.status === 'complete' ? file.sha256 : null,
    partSize: file.partSize,
    partCount: file.partCount,
    status: file.status,
    ...(receivedParts ? { receivedParts } : {}),
    ...(cloudImport ? { import: toImportInfo(cloudImport) } : {}),
    ...(file.checkVerdict ? { check: { verdict: file.checkVerdict, issues: file.checkIssues ?? [] } } : {}),
  };
}

export function toSubmissionInfo(submission: SubmissionInstance, files: UploadFileInfo[]): SubmissionInfo {
  return {
    id: submission.id,
    formType: submission.formType,
    fields: submission.fields as Record<string, string>,
    status: submission.status,
    submittedAt: submission.submittedAt?.toISOString() ?? null,
    createdAt: submission.createdAt.toISOString(),
    files,
  };
}

export async function receivedParts(db: Database, fileId: string): Promise<number[]> {
  const parts = await db.models.FilePart.findAll({
    attributes: ['partNumber'],
    where: { fileId },
    order: [['partNumber', 'ASC']],
  });
  return parts.map((p) => p.partNumber);
}

/** The caller's own submission, else 404 (another user's is indistinguishable from none). */
export async function ownSubmission(
  db: Database,
  user: SessionUser,
  id: string,
): Promise<SubmissionInstance> {
  const submission = isUuid(id)
    ? await db.models.Submission.findOne({ where: { id, userId: user.id } })
    : null;
  if (!submission) throw new AppError(404, 'submission_not_found', SUBMISSION_NOT_FOUND);
  return submission;
}

export function assertOpen(submission: Pick<SubmissionAttributes, 'status'>): void {
  if (submission.status !== 'open') {
    throw new AppError(409, 'already_submitted', 'This submission has already been sent.');
  }
}

/** The caller's own file with its submission, else 404. */
export async function ownFile(
  db: Database,
  user: SessionUser,
  fileId: string,
): Promise<{ file: SubmissionFileInstance; submission: SubmissionInstance }> {
  const file = isUuid(fileId) ? await db.models.SubmissionFile.findByPk(fileId) : null;
  const submission = file
    ? await db.models.Submission.findOne({ where: { id: file.submissionId, userId: user.id } })
    : null;
  if (!file || !submission) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  return { file, submission };
}

/** Marks the submission as active now, so the clean-up job leaves it alone for another retention period. */
export async function touch(db: Database, submissionId: string): Promise<void> {
  await db.models.Submission.update({ updatedAt: new Date() }, { where: { id: submissionId } });
}

function fieldsOf(body: z.output<typeof createSubmissionSchema>): Record<string, string> {
  const { form_type: _formType, resume_id: _resumeId, ...fields } = body as Record<string, unknown>;
  return fields as Record<string, string>;
}

/**
 * Creates a submission, or (with resume_id naming an unfinished one of the caller's) continues it with
 * the form's current fields, so files chosen again after a reload resume.
 */
export async function createSubmission(
  deps: UploadsDeps,
  user: SessionUser,
  input: unknown,
): Promise<{ created: boolean; submission: SubmissionInfo }> {
  const body = createSubmissionSchema.parse(input);
  const { Submission } = deps.db.models;
  // The event its name matches (#30): its spec applies to the files; a closed one refuses (422).
  const uploadEventId = await eventForSubmission(deps.db, fieldsOf(body));
  if (body.resume_id) {
    const existing = await Submission.findOne({
      where: { id: body.resume_id, userId: user.id, status: 'open' },
    });
    if (existing) {
      await existing.update({ formType: body.form_type, fields: fieldsOf(body), uploadEventId });
      return { created: false, submission: await describeSubmission(deps, existing) };
    }
  }
  const submission = await Submission.create({
    userId: user.id,
    formType: body.form_type,
    fields: fieldsOf(body),
    uploadEventId,
  });
  return { created: true, submission: toSubmissionInfo(submission, []) };
}

async function describeSubmission(
  deps: UploadsDeps,
  submission: SubmissionInstance,
): Promise<SubmissionInfo> {
  const files = await deps.db.models.SubmissionFile.findAll({
    where: { submissionId: submission.id },
    order: [['createdAt', 'ASC']],
  });
  const imports = await importsOf(
    deps.db,
    files.map((f) => f.id),
  );
  const infos = await Promise.all(
    files.map(async (f) =>
      toFileInfo(
        f,
        f.status === 'complete' ? undefined : await receivedParts(deps.db, f.id),
        imports.get(f.id),
      ),
    ),
  );
  return toSubmissionInfo(submission, infos);
}

export async function getSubmission(
  deps: UploadsDeps,
  user: SessionUser,
  id: string,
): Promise<SubmissionInfo> {
  return describeSubmission(deps, await ownSubmission(deps.db, user, id));
}

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
    const uploadId = await deps.storage.begin(key, spec.size, spec.type);
    if (uploadId !== null) await file.update({ storageUploadId: uploadId });
  } catch (error) {
    await file.destroy().catch(() => undefined);
    throw error;
  }
  await touch(deps.db, submissionId);
  return { created: true, file: toFileInfo(file, []), row: file };
}

export async function getFile(deps: UploadsDeps, user: SessionUser, fileId: string): Promise<UploadFileInfo> {
  const { file } = await ownFile(deps.db, user, fileId);
  const cloudImport = (await importsOf(deps.db, [file.id])).get(file.id);
  return toFileInfo(
    file,
    file.status === 'complete' ? undefined : await receivedParts(deps.db, file.id),
    cloudImport,
  );
}

/** Answers for a write that found its part or file claimed by another request (claims.ts). */
export const PART_IN_PROGRESS = (partNumber: number) =>
  new AppError(409, 'part_in_progress', `Part ${partNumber} of this file is being sent in another request.`);
export const COMPLETION_IN_PROGRESS = () =>
  new AppError(409, 'completion_in_progress', 'This file is being completed in another request.');
const FILE_COMPLETE = () => new AppError(409, 'file_complete', 'This file is already complete.');
const IMPORTED_BY_SERVER = () =>
  new AppError(409, 'cloud_import', 'This file is being copied from its cloud provider by the server.');

/**
 * Stores one part, streamed from the request. The part number and the declared Content-Length are
 * checked against the plan before a byte is stored, and the bytes are counted while they stream. The
 * write holds a claim on the part (claims.ts): a second write of the same part while it runs, or one
 * while the file is being completed, answers 409 instead of mixing its bytes in. While it writes, the
 * part is not counted as received: its old bytes are being overwritten.
 */
export async function putPart(
  deps: UploadsDeps,
  user: SessionUser,
  fileId: string,
  partParam: string,
  contentLength: string | undefined,
  body: Readable,
): Promise<{ partNumber: number; size: number }> {
  const { file, submission } = await partTarget(deps.db, user, fileId);
  // A new version (#31) arrives in a submission already sent.
  if (!file.version) assertOpen(submission);
  if (file.status === 'complete') throw FILE_COMPLETE();
  if (file.imported) throw IMPORTED_BY_SERVER();
  const plan = planUpload(file.size);
  const partNumber = /^\d{1,5}$/.test(partParam) ? Number(partParam) : NaN;
  if (!(partNumber >= 1 && partNumber <= plan.partCount)) {
    throw new AppError(400, 'bad_part_number', `Part numbers run from 1 to ${plan.partCount}.`);
  }
  const range = partRange(plan, partNumber);
  if (contentLength === undefined) throw new AppError(411, 'length_required', 'Content-Length is required.');
  if (!/^\d+$/.test(contentLength) || Number(contentLength) !== range.size) {
    throw new AppError(400, 'bad_part_size', `Part ${partNumber} must be exactly ${range.size} bytes.`);
  }
  const claim = await claimOrGone(deps.db, fileId, partNumber);
  if (!claim) throw PART_IN_PROGRESS(partNumber);
  try {
    await metricsOf(deps.db).receivingPart(range.size, writeClaimedPart(deps, claim, body, range));
  } finally {
    await claim.release().catch((error: unknown) => {
      // It runs out on its own (claims.ts); only the next writer of this part waits for that.
      deps.logger.warn({ err: error, fileId, partNumber }, 'could not release a part claim');
    });
  }
  // Activity keeps the submission from the clean-up job; once a minute is plenty for a 7-day limit.
  if (Date.now() - submission.updatedAt.getTime() > 60_000) await touch(deps.db, submission.id);
  return { partNumber, size: range.size };
}

/**
 * What a part write needs to know of the caller's own file before it claims the part (else 404): its
 * submission's state and whether the server copies it from a cloud provider. One statement for what
 * ownFile and an import count take three (with Sequelize's column look-ups on SQLite), on the request
 * an upload makes most often: 171 of them to a gigabyte.
 */
async function partTarget(
  db: Database,
  user: SessionUser,
  fileId: string,
): Promise<{
  file: { size: number; status: SubmissionFileAttributes['status']; imported: boolean; version: boolean };
  submission: { id: string; status: SubmissionAttributes['status']; updatedAt: Date };
}> {
  const [row] = isUuid(fileId)
    ? await db.sequelize.query<{
        size: number | string;
        status: SubmissionFileAttributes['status'];
        submission_id: string;
        submission_status: SubmissionAttributes['status'];
        submission_updated_at: Date | string;
        imported: number | string;
        replaces_file_id: string | null;
      }>(
        `SELECT f.size, f.status, f.replaces_file_id, s.id AS submission_id, s.status AS submission_status,
           s.updated_at AS submission_updated_at,
           CASE WHEN EXISTS (SELECT 1 FROM file_imports i WHERE i.file_id = f.id) THEN 1 ELSE 0 END AS imported
         FROM submission_files f JOIN submissions s ON s.id = f.submission_id
         WHERE f.id = :fileId AND s.user_id = :userId`,
        { replacements: { fileId, userId: user.id }, type: QueryTypes.SELECT },
      )
    : [];
  if (!row) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  return {
    file: {
      size: Number(row.size),
      status: row.status,
      imported: Number(row.imported) === 1,
      version: row.replaces_file_id !== null,
    },
    submission: {
      id: row.submission_id,
      status: row.submission_status,
      // A Date from PostgreSQL; SQLite keeps Sequelize's text form, which Date parses.
      updatedAt: new Date(row.submission_updated_at),
    },
  };
}

/** A claim on (file, part), or null while another write holds it; 404 when the file has gone. */
export async function claimOrGone(
  db: Database,
  fileId: string,
  partNumber: number,
): Promise<WriteClaim | null> {
  try {
    return await claimWrite(db, fileId, partNumber);
  } catch (error) {
    if (error instanceof ForeignKeyConstraintError) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
    throw error;
  }
}

export async function writeClaimedPart(
  deps: UploadsDeps,
  claim: WriteClaim,
  body: Readable,
  range: { start: number; size: number },
): Promise<void> {
  const { fileId, partNumber } = claim;
  const file = await claimedFile(deps.db, claim);
  if (!file) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  if (file.completing) throw COMPLETION_IN_PROGRESS();
  if (file.status === 'complete') throw FILE_COMPLETE();
  // While its bytes are overwritten the part is not received: its row goes first.
  if (file.partStored) await deps.db.models.FilePart.destroy({ where: { fileId, partNumber } });

  const tap = deps.hashes.begin(
    deps.storage,
    { id: fileId, size: file.size, key: file.storageKey },
    partNumber,
    claim.token,
  );
  let etag: string | null;
  try {
    etag = await deps.storage.writePart({
      key: file.storageKey,
      uploadId: file.storageUploadId,
      partNumber,
      offset: range.start,
      size: range.size,
      body,
      observe: (chunk) => {
        const renewing = claim.guard();
        if (!renewing) return tap.observe(chunk);
        return renewing.then(() => tap.observe(chunk));
      },
    });
    // Recorded only while the claim is still this write's: else another write has begun over it.
    await claim.recordPart({ size: range.size, etag });
  } catch (error) {
    tap.abort();
    throw await partFailure(deps.db, claim, body, error, range.size);
  }
  tap.commit();
}

/**
 * The file as a part write finds it once it holds its claim, in one statement: read again, for a
 * completion that ended or a restart that renewed the S3 upload since; whether a completion holds the
 * file (its claim is taken before it looks for part claims, as this one was before this look, so of the
 * two at least one sees the other); and whether the part has a row to take back before it is overwritten.
 * Null when the file has gone.
 */
async function claimedFile(
  db: Database,
  claim: WriteClaim,
): Promise<{
  size: number;
  status: SubmissionFileAttributes['status'];
  storageKey: string;
  storageUploadId: string | null;
  completing: boolean;
  partStored: boolean;
} | null> {
  const [row] = await db.sequelize.query<{
    size: number | string;
    status: SubmissionFileAttributes['status'];
    storage_key: string;
    storage_upload_id: string | null;
    completing: number | string;
    part_stored: number | string;
  }>(
    `SELECT f.size, f.status, f.storage_key, f.storage_upload_id,
       CASE WHEN EXISTS (SELECT 1 FROM upload_claims c WHERE c.file_id = f.id AND c.part_number = :completion
         AND c.expires_at >= ${nowMs(db)}) THEN 1 ELSE 0 END AS completing,
       CASE WHEN EXISTS (SELECT 1 FROM file_parts p WHERE p.file_id = f.id AND p.part_number = :part)
         THEN 1 ELSE 0 END AS part_stored
     FROM submission_files f WHERE f.id = :fileId`,
    {
      replacements: { fileId: claim.fileId, part: claim.partNumber, completion: COMPLETION },
      type: QueryTypes.SELECT,
    },
  );
  if (!row) return null;
  return {
    size: Number(row.size),
    status: row.status,
    storageKey: row.storage_key,
    storageUploadId: row.storage_upload_id,
    completing: Number(row.completing) === 1,
    partStored: Number(row.part_stored) === 1,
  };
}

const FILE_SYSTEM_CODES = new Set([
  'EACCES',
  'EPERM',
  'ENOENT',
  'ENOTDIR',
  'EISDIR',
  'EROFS',
  'EIO',
  'EMFILE',
  'ENFILE',
  'EBADF',
  'EEXIST',
]);

/** A Node system error raised by a file system call (they carry a `syscall` and a `path`). */
function isFileSystemError(error: unknown): boolean {
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown };
  return typeof code === 'string' && FILE_SYSTEM_CODES.has(code) && typeof path === 'string';
}

/** What to answer for a part write that failed part-way. */
async function partFailure(
  db: Database,
  claim: WriteClaim,
  body: Readable,
  error: unknown,
  size: number,
): Promise<unknown> {
  const { fileId, partNumber } = claim;
  if (error instanceof PartSizeError) {
    return new AppError(400, 'bad_part_size', `Part ${partNumber} must be exactly ${size} bytes.`);
  }
  if (claim.lost || error instanceof ForeignKeyConstraintError) {
    // The file was removed meanwhile (its claims went with it), or this write stalled long enough for
    // another to take the part over: either way nothing of this one was recorded.
    if (!(await db.models.SubmissionFile.findByPk(fileId, { attributes: ['id'] }))) {
      return new AppError(404, 'file_not_found', FILE_NOT_FOUND);
    }
    return PART_IN_PROGRESS(partNumber);
  }
  // Storage's own failures are answered as such (503, 507), even when the body had been read to its end
  // (a Readable that ended is destroyed too, so `body.destroyed` below would blame the client).
  if (error instanceof StorageUnavailableError || isStorageFull(error)) return error;
  // So is the database gone mid-part (a restart, a cut connection), though the body was destroyed on the
  // way: 503 with Retry-After, for the client to send the part again, not a 400 blaming the client.
  if (toAppError(error)?.status === 503) return error;
  // A file system error is storage's own (a folder gone or replaced, a read-only mount, a bad disk): the
  // server's failure, answered 500 and logged, though the body was destroyed with it.
  if (isFileSystemError(error)) return error;
  // The client went away mid-part (paused, closed the tab, lost the network): nothing was recorded,
  // and the part will come again.
  const code = (error as { code?: unknown } | null)?.code;
  if (body.destroyed || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return new AppError(400, 'part_aborted', `Part ${partNumber} was cut off before its end.`);
  }
  return error;
}

const completeSchema = z.object({
  sha256: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.string().regex(/^[0-9a-f]{64}$/))
    .optional(),
});

/** The sha-256 and size of a stored file, streamed through the hash (never held in memory). */
export async function hashStored(
  storage: UploadStorage,
  key: string,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of await storage.read(key)) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * What is actually stored: the running hash when it covers exactly the writes the database records for
 * every part (with the stored size from the driver), else the assembled file read back and hashed.
 */
async function storedDigest(
  deps: UploadsDeps,
  file: SubmissionFileInstance,
  parts: FilePartInstance[],
): Promise<{ sha256: string; size: number }> {
  const writes = new Map(parts.map((p) => [p.partNumber, p.writeId]));
  const running = await deps.hashes.take(file.id, writes);
  if (running !== undefined) return { sha256: running, size: await deps.storage.size(file.storageKey) };
  return hashStored(deps.storage, file.storageKey);
}

const CHECKSUM_MISMATCH = () =>
  new AppError(422, 'checksum_mismatch', 'The file received does not match its checksum.');

/**
 * Completes a file: every part present (else 409), the parts joined, and the size and sha-256 of what
 * is stored checked: the sha-256 taken from this process's running hash when it covers exactly the
 * stored parts, else computed by streaming the assembled file (parts arrive out of order and on any
 * process). A checksum that differs from the client's (or the one announced at registration), or a
 * stored size other than the registered one, is a 422, and the file starts over: its parts are dropped
 * and its storage renewed. The completion holds the file's COMPLETION claim and starts only when no part
 * is being written, so no part changes under it; a part write meanwhile answers 409.
 */
export async function completeFile(
  deps: UploadsDeps,
  user: SessionUser,
  fileId: string,
  input: unknown,
): Promise<UploadFileInfo> {
  const { file, submission } = await ownFile(deps.db, user, fileId);
  const body = completeSchema.parse(input ?? {});
  if (file.status === 'complete') return completed(file, body.sha256);
  if (!file.replacesFileId) assertOpen(submission);
  if (await deps.db.models.FileImport.count({ where: { fileId: file.id } })) throw IMPORTED_BY_SERVER();
  const claim = await claimOrGone(deps.db, file.id, COMPLETION);
  if (!claim) throw COMPLETION_IN_PROGRESS();
  claim.keepAlive();
  try {
    const writing = (await liveClaims(deps.db, file.id)).filter((part) => part !== COMPLETION);
    if (writing.length > 0) throw PART_IN_PROGRESS(writing[0]!);
    // Read again under the claim: another completion may have finished since.
    if ((await file.reload()).get('status') === 'complete') return completed(file, body.sha256);
    await verifyAndComplete(deps, file, claim, body.sha256);
  } finally {
    await claim.release().catch((error: unknown) => {
      deps.logger.warn({ err: error, fileId }, 'could not release a completion claim');
    });
  }
  await touch(deps.db, submission.id);
  return toFileInfo(file);
}

/** A completed file, asked to complete again: the same answer, unless the checksum differs. */
function completed(file: SubmissionFileInstance, sha256: string | undefined): UploadFileInfo {
  if (sha256 && sha256 !== file.sha256) throw CHECKSUM_MISMATCH();
  return toFileInfo(file);
}

export async function verifyAndComplete(
  deps: UploadsDeps,
  file: SubmissionFileInstance,
  claim: WriteClaim,
  clientSha256: string | undefined,
): Promise<void> {
  const plan = planUpload(Number(file.size));
  const parts = await deps.db.models.FilePart.findAll({
    where: { fileId: file.id },
    order: [['partNumber', 'ASC']],
  });
  const missing = missingParts(
    plan,
    parts.map((p) => p.partNumber),
  );
  if (missing.length > 0) {
    throw new AppError(
      409,
      'parts_missing',
      `${missing.length} of ${plan.partCount} parts have not arrived yet.`,
    );
  }
  await deps.storage.finish({
    key: file.storageKey,
    uploadId: file.storageUploadId,
    parts: parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })),
    size: plan.fileSize,
  });
  const actual = await storedDigest(deps, file, parts);
  const expected = clientSha256 ?? file.sha256;
  if (actual.size !== plan.fileSize) {
    deps.logger.error({ fileId: file.id, stored: actual.size, size: plan.fileSize }, 'stored size differs');
    await restart(deps, file);
    throw new AppError(
      422,
      'size_mismatch',
      'The file received does not have the size it was registered with.',
    );
  }
  if (expected && expected !== actual.sha256) {
    await restart(deps, file);
    throw CHECKSUM_MISMATCH();
  }
  // Recorded only while the claim is still this completion's (it is renewed as it runs).
  await claim.renew().catch(() => {
    throw COMPLETION_IN_PROGRESS();
  });
  await file.update({
    status: 'complete',
    sha256: actual.sha256,
    completedAt: new Date(),
    storageUploadId: null,
  });
  // Every completion (browser, legacy, cloud import) has the server read the file's facts, in the
  // background: the answer never waits for it, and its failure never fails the upload (media-probe.ts).
  void scheduleProbe(deps, file.id, deps.background);
  // #31: a poster frame or thumbnail for the inbox, and staff told of a new version.
  void schedulePoster(deps, file.id, deps.background);
  // Awaited (one row; it logs rather than throws), so the notice exists when the completion is answered.
  if (file.replacesFileId) await queueVersionNotice(deps, file);
}

async function restart(deps: UploadsDeps, file: SubmissionFileInstance): Promise<void> {
  deps.hashes.forget(file.id);
  await deps.db.models.FilePart.destroy({ where: { fileId: file.id } });
  await deps.storage.remove(file.storageKey, null);
  const uploadId = await deps.storage.begin(file.storageKey, Number(file.size), file.type);
  await file.update({ storageUploadId: uploadId, sha256: null });
}

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

const submitSchema = z.object({ files: z.array(z.string()).max(10_000).optional() });

/**
 * Sends the submission: the named files (default: all) must be complete, except cloud imports still on
 * their way (the client may close the tab: the server finishes them); other files are dropped. Staff and
 * the client get their e-mails through the outbox, in the transaction that marks it submitted, or, while
 * imports are still copying, when the last of them completes (sendPendingNotice). A repeated call answers
 * the submission as sent.
 */
export async function submitSubmission(
  deps: UploadsDeps,
  user: SessionUser,
  submissionId: string,
  input: unknown,
): Promise<SubmissionInfo> {
  const submission = await ownSubmission(deps.db, user, submissionId);
  if (submission.status === 'submitted') return describeSubmission(deps, submission);
  const body = submitSchema.parse(input ?? {});
  const { SubmissionFile, Submission, User } = deps.db.models;
  const files = await SubmissionFile.findAll({ where: { submissionId }, order: [['createdAt', 'ASC']] });
  const wanted = new Set(body.files ?? files.map((f) => f.id));
  const kept = files.filter((f) => wanted.has(f.id));
  if (kept.length === 0 || kept.length !== wanted.size) {
    throw new AppError(400, 'validation_failed', UPLOAD_FILE_REQUIRED, { files: UPLOAD_FILE_REQUIRED });
  }
  const imports = await importsOf(
    deps.db,
    kept.map((f) => f.id),
  );
  const incomplete = kept.filter((f) => f.status !== 'complete');
  const stuck = incomplete.filter((f) => imports.get(f.id)?.status === 'failed');
  if (stuck.length > 0) {
    throw new AppError(
      409,
      'files_incomplete',
      `${stuck.length} file(s) could not be copied from the cloud.`,
    );
  }
  const local = incomplete.filter((f) => !imports.has(f.id));
  if (local.length > 0) {
    throw new AppError(409, 'files_incomplete', `${local.length} file(s) have not finished uploading.`);
  }
  const waiting = incomplete.length > 0;
  for (const extra of files.filter((f) => !wanted.has(f.id))) await destroyFile(deps, extra);
  // The staff notice lists the server's reading of each file when it is done in time (bounded).
  if (!waiting)
    await probesSettled(
      kept.map((f) => f.id),
      deps.config.MEDIA_PROBE_NOTICE_WAIT_SECONDS * 1000,
    );
  const owner = await User.findByPk(user.id);
  const sent = await deps.db.sequelize.transaction(async (transaction) => {
    const now = new Date();
    const [changed] = await Submission.update(
      { status: 'submitted', submittedAt: now, noticePending: waiting },
      { where: { id: submissionId, status: 'open' }, transaction },
    );
    if (changed === 1 && !waiting) {
      await queueSubmissionMails(
        deps,
        {
          submission: { id: submissionId, formType: submission.formType, fields: submission.fields },
          files: kept,
          owner,
        },
        transaction,
      );
    }
    return changed === 1;
  });
  await submission.reload();
  if (sent) deps.logger.info({ submissionId, files: kept.length, importing: waiting }, 'upload submitted');
  // An import may have completed between the check above and the update: its notice check ran too soon.
  if (sent && waiting) await sendPendingNotice(deps, submissionId);
  return describeSubmission(deps, submission);
}

/**
 * Queues the e-mails of a submission sent while imports were copying, once every file is complete.
 * Called after each import completes (and after such a submit); the conditional update lets exactly one
 * caller send them, whichever process it runs in.
 */
export async function sendPendingNotice(
  deps: Pick<UploadsDeps, 'db' | 'config' | 'logger'>,
  submissionId: string,
): Promise<boolean> {
  const { Submission, SubmissionFile, User } = deps.db.models;
  const submission = await Submission.findByPk(submissionId);
  if (!submission || submission.status !== 'submitted' || !submission.noticePending) return false;
  const files = await SubmissionFile.findAll({ where: { submissionId }, order: [['createdAt', 'ASC']] });
  if (files.some((f) => f.status !== 'complete')) return false;
  const owner = await User.findByPk(submission.userId);
  const sent = await deps.db.sequelize.transaction(async (transaction) => {
    const [changed] = await Submission.update(
      { noticePending: false },
      { where: { id: submissionId, noticePending: true }, transaction },
    );
    if (changed !== 1) return false;
    await queueSubmissionMails(
      deps,
      {
        submission: { id: submissionId, formType: submission.formType, fields: submission.fields },
        files,
        owner,
      },
      transaction,
    );
    return true;
  });
  if (sent)
    deps.logger.info({ submissionId, files: files.length }, 'imports complete: submission notice queued');
  return sent;
}

/** Unfinished submissions untouched for longer than this are stale. */
export function staleBefore(config: Pick<Config, 'UPLOAD_RETENTION_DAYS'>, now: Date): Date {
  return new Date(now.getTime() - config.UPLOAD_RETENTION_DAYS * 86_400_000);
}

export function STALE_WHERE(cutoff: Date): WhereOptions<SubmissionAttributes> {
  return { status: 'open', updatedAt: { [Op.lt]: cutoff } };
}

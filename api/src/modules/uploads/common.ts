import { isUuid } from '@avp/shared';
import type { CloudImportInfo, SubmissionInfo, UploadFileInfo } from '@avp/shared';
import { ForeignKeyConstraintError, QueryTypes } from 'sequelize';
import type { UploadStorage } from '../../adapters/storage/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type {
  FileImportInstance,
  SubmissionAttributes,
  SubmissionFileInstance,
  SubmissionInstance,
} from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import type { SessionUser } from '../accounts/index.js';
import type { BackgroundTracker } from './media-probe.js';
import { claimWrite } from './claims.js';
import type { WriteClaim } from './claims.js';
import type { RunningHashes } from './running-hash.js';

/**
 * What the uploads modules share: their dependencies, the caller's own submission or file (else 404),
 * how rows are answered, and the answers for writes that meet another request's claim.
 */

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

/**
 * A file's row as a model instance, from the columns of a raw statement that read it with others
 * (`f.*`): no second look, and none of the column-type look-up Sequelize's SQLite dialect makes before a
 * model's own SELECT (#34). SQLite hands dates and JSON back as text, which the model would have parsed.
 */
export function fileFromRow(db: Database, row: Record<string, unknown>): SubmissionFileInstance {
  const model = db.models.SubmissionFile;
  const values: Record<string, unknown> = {};
  for (const [name, attribute] of Object.entries(model.getAttributes())) {
    let value = row[attribute.field ?? name];
    const key = (attribute.type as { key?: string }).key;
    if (typeof value === 'string' && key === 'DATE') value = new Date(value);
    else if (typeof value === 'string' && key === 'JSON') value = JSON.parse(value) as unknown;
    values[name] = value ?? null;
  }
  return model.build(values as never, { isNewRecord: false, raw: true });
}

/**
 * A submission's files in the order they were registered, read in one raw statement and built by
 * fileFromRow: a model's findAll of a thousand files spent about 70 ms building them (#34).
 */
export async function filesOfSubmission(
  db: Database,
  submissionId: string,
): Promise<SubmissionFileInstance[]> {
  const rows = await db.sequelize.query<Record<string, unknown>>(
    'SELECT * FROM submission_files WHERE submission_id = :submissionId ORDER BY created_at',
    { replacements: { submissionId }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => fileFromRow(db, row));
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

/**
 * touch, unless the submission was marked in the last minute: against a retention period of days a minute
 * is nothing, and a folder of a thousand files would otherwise write the same row a thousand times (#34).
 */
export async function touchUnlessRecent(
  db: Database,
  submission: { id: string; updatedAt: Date },
): Promise<void> {
  if (Date.now() - submission.updatedAt.getTime() > 60_000) await touch(db, submission.id);
}

/** Answers for a write that found its part or file claimed by another request (claims.ts). */
export const PART_IN_PROGRESS = (partNumber: number) =>
  new AppError(409, 'part_in_progress', `Part ${partNumber} of this file is being sent in another request.`);
export const COMPLETION_IN_PROGRESS = () =>
  new AppError(409, 'completion_in_progress', 'This file is being completed in another request.');
export const FILE_COMPLETE = () => new AppError(409, 'file_complete', 'This file is already complete.');
export const IMPORTED_BY_SERVER = () =>
  new AppError(409, 'cloud_import', 'This file is being copied from its cloud provider by the server.');
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

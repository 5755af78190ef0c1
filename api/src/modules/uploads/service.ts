import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  createSubmissionSchema,
  missingParts,
  partRange,
  planUpload,
  UPLOAD_FILE_REQUIRED,
  uploadFileRegistrationSchema,
} from '@avp/shared';
import type { SubmissionInfo, UploadFileInfo } from '@avp/shared';
import { Op, UniqueConstraintError } from 'sequelize';
import type { WhereOptions } from 'sequelize';
import { z } from 'zod';
import { PartSizeError } from '../../adapters/storage/index.js';
import type { UploadStorage } from '../../adapters/storage/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type {
  SubmissionAttributes,
  SubmissionFileInstance,
  SubmissionInstance,
} from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import type { SessionUser } from '../accounts/index.js';
import { queueSubmissionMails } from './mail.js';
import { RunningHashes } from './running-hash.js';

export interface UploadsDeps {
  config: Config;
  db: Database;
  logger: Logger;
  storage: UploadStorage;
  /** This process's running checksums (running-hash.ts): completion usually needs no second pass. */
  hashes: RunningHashes;
}

export const SUBMISSION_NOT_FOUND = 'No such submission.';
export const FILE_NOT_FOUND = 'No such file.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a file's bytes live: built from server ids only, never from the user's file name. */
export function storageKey(submissionId: string, fileId: string): string {
  return `submissions/${submissionId}/${fileId}`;
}

export function toFileInfo(file: SubmissionFileInstance, receivedParts?: number[]): UploadFileInfo {
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

async function receivedParts(db: Database, fileId: string): Promise<number[]> {
  const parts = await db.models.FilePart.findAll({
    attributes: ['partNumber'],
    where: { fileId },
    order: [['partNumber', 'ASC']],
  });
  return parts.map((p) => p.partNumber);
}

/** The caller's own submission, else 404 (another user's is indistinguishable from none). */
async function ownSubmission(db: Database, user: SessionUser, id: string): Promise<SubmissionInstance> {
  const submission = UUID.test(id)
    ? await db.models.Submission.findOne({ where: { id, userId: user.id } })
    : null;
  if (!submission) throw new AppError(404, 'not_found', SUBMISSION_NOT_FOUND);
  return submission;
}

function assertOpen(submission: SubmissionInstance): void {
  if (submission.status !== 'open') {
    throw new AppError(409, 'already_submitted', 'This submission has already been sent.');
  }
}

/** The caller's own file with its submission, else 404. */
async function ownFile(
  db: Database,
  user: SessionUser,
  fileId: string,
): Promise<{ file: SubmissionFileInstance; submission: SubmissionInstance }> {
  const file = UUID.test(fileId) ? await db.models.SubmissionFile.findByPk(fileId) : null;
  const submission = file
    ? await db.models.Submission.findOne({ where: { id: file.submissionId, userId: user.id } })
    : null;
  if (!file || !submission) throw new AppError(404, 'not_found', FILE_NOT_FOUND);
  return { file, submission };
}

/** Marks the submission as active now, so the clean-up job leaves it alone for another retention period. */
async function touch(db: Database, submissionId: string): Promise<void> {
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
  if (body.resume_id) {
    const existing = await Submission.findOne({
      where: { id: body.resume_id, userId: user.id, status: 'open' },
    });
    if (existing) {
      await existing.update({ formType: body.form_type, fields: fieldsOf(body) });
      return { created: false, submission: await describeSubmission(deps, existing) };
    }
  }
  const submission = await Submission.create({
    userId: user.id,
    formType: body.form_type,
    fields: fieldsOf(body),
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
  const infos = await Promise.all(
    files.map(async (f) =>
      toFileInfo(f, f.status === 'complete' ? undefined : await receivedParts(deps.db, f.id)),
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

const registrationSchema = uploadFileRegistrationSchema.extend({
  lastModified: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable().optional(),
});

/**
 * Registers a file and answers its part size and the parts already received. The same name, size and
 * last-modified time in the same open submission is the same file: its upload resumes.
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
  if (body.size > deps.config.UPLOAD_MAX_BYTES) {
    throw new AppError(413, 'file_too_large', `Files may be at most ${deps.config.UPLOAD_MAX_BYTES} bytes.`);
  }
  const { SubmissionFile } = deps.db.models;
  const lastModified = body.lastModified ?? null;
  if (lastModified !== null) {
    const same = await SubmissionFile.findOne({
      where: { submissionId, name: body.name, size: body.size, lastModified },
    });
    if (same) {
      await touch(deps.db, submissionId);
      const parts = same.status === 'complete' ? undefined : await receivedParts(deps.db, same.id);
      return { created: false, file: toFileInfo(same, parts) };
    }
  }
  const id = randomUUID();
  const key = storageKey(submissionId, id);
  const plan = planUpload(body.size);
  const uploadId = await deps.storage.begin(key, body.size, body.type);
  const file = await SubmissionFile.create({
    id,
    submissionId,
    name: body.name,
    size: body.size,
    type: body.type,
    lastModified,
    sha256: body.sha256 ?? null,
    partSize: plan.partSize,
    partCount: plan.partCount,
    storageKey: key,
    storageUploadId: uploadId,
  });
  await touch(deps.db, submissionId);
  return { created: true, file: toFileInfo(file, []) };
}

export async function getFile(deps: UploadsDeps, user: SessionUser, fileId: string): Promise<UploadFileInfo> {
  const { file } = await ownFile(deps.db, user, fileId);
  return toFileInfo(file, file.status === 'complete' ? undefined : await receivedParts(deps.db, file.id));
}

/**
 * Stores one part, streamed from the request. The part number and the declared Content-Length are
 * checked against the plan before a byte is stored, and the bytes are counted while they stream.
 */
export async function putPart(
  deps: UploadsDeps,
  user: SessionUser,
  fileId: string,
  partParam: string,
  contentLength: string | undefined,
  body: Readable,
): Promise<{ partNumber: number; size: number }> {
  const { file, submission } = await ownFile(deps.db, user, fileId);
  assertOpen(submission);
  if (file.status === 'complete') throw new AppError(409, 'file_complete', 'This file is already complete.');
  const plan = planUpload(Number(file.size));
  const partNumber = /^\d{1,5}$/.test(partParam) ? Number(partParam) : NaN;
  if (!(partNumber >= 1 && partNumber <= plan.partCount)) {
    throw new AppError(400, 'bad_part_number', `Part numbers run from 1 to ${plan.partCount}.`);
  }
  const range = partRange(plan, partNumber);
  if (contentLength === undefined) throw new AppError(411, 'length_required', 'Content-Length is required.');
  if (!/^\d+$/.test(contentLength) || Number(contentLength) !== range.size) {
    throw new AppError(400, 'bad_part_size', `Part ${partNumber} must be exactly ${range.size} bytes.`);
  }
  const tap = deps.hashes.begin(
    deps.storage,
    { id: file.id, size: Number(file.size), key: file.storageKey },
    partNumber,
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
      observe: tap.observe,
    });
  } catch (error) {
    tap.abort();
    if (error instanceof PartSizeError) {
      throw new AppError(400, 'bad_part_size', `Part ${partNumber} must be exactly ${range.size} bytes.`);
    }
    // The client went away mid-part (paused, closed the tab, lost the network): nothing was recorded,
    // and the part will come again.
    const code = (error as { code?: unknown } | null)?.code;
    if (body.destroyed || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
      throw new AppError(400, 'part_aborted', `Part ${partNumber} was cut off before its end.`);
    }
    throw error;
  }
  const { FilePart } = deps.db.models;
  try {
    await FilePart.create({ fileId, partNumber, size: range.size, etag, createdAt: new Date() });
  } catch (error) {
    // The same part again (a retry, or two processes racing): it replaced the bytes, so keep its etag.
    if (!(error instanceof UniqueConstraintError)) {
      tap.abort();
      throw error;
    }
    await FilePart.update({ etag, size: range.size }, { where: { fileId, partNumber } });
  }
  tap.commit();
  // Activity keeps the submission from the clean-up job; once a minute is plenty for a 7-day limit.
  if (Date.now() - submission.updatedAt.getTime() > 60_000) await touch(deps.db, submission.id);
  return { partNumber, size: range.size };
}

const completeSchema = z.object({
  sha256: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.string().regex(/^[0-9a-f]{64}$/))
    .optional(),
});

/** The sha-256 of a stored file, streamed through the hash (never held in memory). */
export async function hashStored(storage: UploadStorage, key: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(await storage.read(key), hash);
  return hash.digest('hex');
}

/**
 * Completes a file: every part present (else 409), the parts joined, and the sha-256 taken from this
 * process's running hash when it covers every part, else computed by streaming the assembled file
 * (parts arrive out of order and on any process). A checksum that differs from the client's (or the one announced at
 * registration) is a 422, and the file starts over: its parts are dropped and its storage renewed.
 */
export async function completeFile(
  deps: UploadsDeps,
  user: SessionUser,
  fileId: string,
  input: unknown,
): Promise<UploadFileInfo> {
  const { file, submission } = await ownFile(deps.db, user, fileId);
  const body = completeSchema.parse(input ?? {});
  if (file.status === 'complete') {
    if (body.sha256 && body.sha256 !== file.sha256) {
      throw new AppError(422, 'checksum_mismatch', 'The file received does not match its checksum.');
    }
    return toFileInfo(file);
  }
  assertOpen(submission);
  const plan = planUpload(Number(file.size));
  const parts = await deps.db.models.FilePart.findAll({ where: { fileId }, order: [['partNumber', 'ASC']] });
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
  const actual = (await deps.hashes.take(file.id)) ?? (await hashStored(deps.storage, file.storageKey));
  const expected = body.sha256 ?? file.sha256;
  if (expected && expected !== actual) {
    await restart(deps, file);
    throw new AppError(422, 'checksum_mismatch', 'The file received does not match its checksum.');
  }
  await file.update({ status: 'complete', sha256: actual, completedAt: new Date(), storageUploadId: null });
  await touch(deps.db, submission.id);
  return toFileInfo(file);
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
 * Sends the submission: the named files (default: all) must be complete; other files are dropped. Staff
 * and the client get their e-mails through the outbox, in the transaction that marks it submitted. A
 * repeated call answers the submission as sent.
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
  const incomplete = kept.filter((f) => f.status !== 'complete');
  if (incomplete.length > 0) {
    throw new AppError(409, 'files_incomplete', `${incomplete.length} file(s) have not finished uploading.`);
  }
  for (const extra of files.filter((f) => !wanted.has(f.id))) await destroyFile(deps, extra);
  const owner = await User.findByPk(user.id);
  const sent = await deps.db.sequelize.transaction(async (transaction) => {
    const now = new Date();
    const [changed] = await Submission.update(
      { status: 'submitted', submittedAt: now },
      { where: { id: submissionId, status: 'open' }, transaction },
    );
    if (changed === 1) {
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
  if (sent) deps.logger.info({ submissionId, files: kept.length }, 'upload submitted');
  return describeSubmission(deps, submission);
}

/** Unfinished submissions untouched for longer than this are stale. */
export function staleBefore(config: Pick<Config, 'UPLOAD_RETENTION_DAYS'>, now: Date): Date {
  return new Date(now.getTime() - config.UPLOAD_RETENTION_DAYS * 86_400_000);
}

export function STALE_WHERE(cutoff: Date): WhereOptions<SubmissionAttributes> {
  return { status: 'open', updatedAt: { [Op.lt]: cutoff } };
}

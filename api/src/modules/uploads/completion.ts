import { createHash } from 'node:crypto';
import { missingParts, planUpload } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import { z } from 'zod';
import type { UploadStorage } from '../../adapters/storage/index.js';
import { dateParam } from '../../db/bind.js';
import type { Database } from '../../db/index.js';
import type { FilePartAttributes, SubmissionFileInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import { scheduleProbe } from './media-probe.js';
import type { CompletedFile } from './media-probe.js';
import { COMPLETION, nowMs } from './claims.js';
import type { WriteClaim } from './claims.js';
import { schedulePoster } from './posters.js';
import { claimOwnFile, ownFileTarget, TARGET_COLUMNS, targetOf } from './own-file-target.js';
import type { CompletionTarget, TargetRow } from './own-file-target.js';
import { queueVersionNotice } from './versions-notice.js';
import {
  assertOpen,
  claimOrGone,
  COMPLETION_IN_PROGRESS,
  fileFromRow,
  FILE_NOT_FOUND,
  IMPORTED_BY_SERVER,
  PART_IN_PROGRESS,
  toFileInfo,
  touchUnlessRecent,
} from './common.js';
import type { UploadsDeps } from './common.js';
import { recordOnlyPartComplete } from './only-part-records.js';
import { recordStorageUpload } from './storage-upload.js';

/** Completion: a file's parts joined, its size and sha-256 checked against what is stored, or a restart. */

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
  parts: StoredPart[],
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
  /** What the part write of the same request found of the file (its owner, state and import): no new look. */
  known?: CompletionTarget,
): Promise<UploadFileInfo> {
  const body = completeSchema.parse(input ?? {});
  // A completion that will go ahead is claimed in the statement that finds the file the caller's own (#34).
  let claim = known ? null : await claimOwnFile(deps.db, user, fileId, COMPLETION);
  if (!claim) {
    // Any other case, looked at before a claim is tried, so each is answered as it always was.
    const target = known ?? (await ownFileTarget(deps.db, user, fileId));
    if (target.file.status === 'complete') return completed(await fileRow(deps, fileId), body.sha256);
    if (!target.file.version) assertOpen(target.submission);
    if (target.file.imported) throw IMPORTED_BY_SERVER();
    claim = await claimOrGone(deps.db, fileId, COMPLETION);
    if (!claim) throw COMPLETION_IN_PROGRESS();
  }
  claim.keepAlive();
  let file: SubmissionFileInstance;
  let submission: CompletionTarget['submission'];
  try {
    // Read again under the claim: another completion may have finished since, or a part write begun.
    const state = await underClaim(deps.db, fileId);
    file = state.file;
    submission = state.target.submission;
    if (state.writing !== null) throw PART_IN_PROGRESS(state.writing);
    if (file.status === 'complete') return completed(file, body.sha256);
    if (!file.replacesFileId) assertOpen(submission);
    await verifyAndComplete(deps, file, claim, body.sha256, submission, state.parts);
  } finally {
    await claim.release().catch((error: unknown) => {
      deps.logger.warn({ err: error, fileId }, 'could not release a completion claim');
    });
  }
  await touchUnlessRecent(deps.db, submission);
  return toFileInfo(file);
}

export type { CompletionTarget } from './own-file-target.js';

async function fileRow(deps: UploadsDeps, fileId: string): Promise<SubmissionFileInstance> {
  const file = await deps.db.models.SubmissionFile.findByPk(fileId);
  // Its claims go with a removed file, so the claim taken above fails first; this is for the unclaimed look.
  if (!file) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  return file;
}

type StoredPart = Pick<FilePartAttributes, 'partNumber' | 'etag' | 'writeId'>;

/**
 * Under the completion's claim, in one statement: the file's row, the lowest part being written (a live
 * part claim), the submission's state, and the parts recorded. The claim was taken before this look, as a
 * part write takes its claim before it looks for a completion's, so of the two at least one sees the
 * other. The file's columns come with each part's row (a raw read: the model's findByPk was a statement
 * more, and on SQLite a look-up of the table's column types too, for every file, #34).
 */
async function underClaim(
  db: Database,
  fileId: string,
): Promise<{
  file: SubmissionFileInstance;
  writing: number | null;
  target: CompletionTarget;
  parts: StoredPart[];
}> {
  const rows = await db.sequelize.query<
    Record<string, unknown> &
      TargetRow & {
        under_claim_writing: number | string | null;
        under_claim_part_number: number | string | null;
        under_claim_etag: string | null;
        under_claim_write_id: string | null;
      }
  >(
    `SELECT f.*, ${TARGET_COLUMNS},
       (SELECT MIN(c.part_number) FROM upload_claims c WHERE c.file_id = :fileId AND c.part_number <> :completion
         AND c.expires_at >= ${nowMs(db)}) AS under_claim_writing,
       p.part_number AS under_claim_part_number, p.etag AS under_claim_etag, p.write_id AS under_claim_write_id
     FROM submission_files f JOIN submissions s ON s.id = f.submission_id
     LEFT JOIN file_parts p ON p.file_id = f.id
     WHERE f.id = :fileId
     ORDER BY p.part_number`,
    { replacements: { fileId, completion: COMPLETION }, type: QueryTypes.SELECT },
  );
  const first = rows[0];
  // Its claims go with a removed file, so the claim taken before this fails first; this is for the race.
  if (!first) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  return {
    file: fileFromRow(db, first),
    writing: first.under_claim_writing === null ? null : Number(first.under_claim_writing),
    target: targetOf(first),
    parts: rows
      .filter((row) => row.under_claim_part_number !== null)
      .map((row) => ({
        partNumber: Number(row.under_claim_part_number),
        etag: row.under_claim_etag,
        writeId: row.under_claim_write_id,
      })),
  };
}

const SHA256_WORDS = 'sha256 must be 64 hexadecimal digits.';

/** The sha-256 a part PUT names (?sha256=), checked before a byte of the part is read; undefined: none. */
export function partQuerySha256(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const parsed = completeSchema.shape.sha256.safeParse(value);
  if (!parsed.success || parsed.data === undefined) {
    throw new AppError(400, 'validation_failed', SHA256_WORDS, { sha256: SHA256_WORDS });
  }
  return parsed.data;
}

/** Why a completion tried right after a part may not happen yet: the client completes the file later. */
const NOT_YET = new Set(['parts_missing', 'part_in_progress', 'completion_in_progress']);

/**
 * Completes a file right after one of its parts was stored, in the same request (a part PUT naming the
 * file's sha-256, issue #34: a small file costs one request, not two). Null when it cannot complete yet
 * (parts missing, another part still being written, another completion under way): the part is stored,
 * and the client completes the file with its own call. A checksum that differs is the 422 of completeFile,
 * and the file starts over, as it would there.
 */
export async function completeAfterPart(
  deps: UploadsDeps,
  user: SessionUser,
  fileId: string,
  sha256: string,
  /** What the part write found of the file, when it stored a part (not when it found the file complete). */
  known?: CompletionTarget,
): Promise<UploadFileInfo | null> {
  try {
    return await completeFile(deps, user, fileId, { sha256 }, known);
  } catch (error) {
    if (error instanceof AppError && NOT_YET.has(error.code)) return null;
    throw error;
  }
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
  /** The file's submission, when the caller has it: the media reading then need not look it up. */
  submission?: CompletedFile['submission'],
  /** The file's parts, ascending, when the caller read them under the claim. */
  stored?: StoredPart[],
  /**
   * A file's only part, stored under this completion's claim and not yet recorded (part-writes.ts,
   * writeOnlyPart): recorded with the completion, only while the claim is still this completion's.
   */
  onlyPart?: { size: number; etag: string | null; head?: Uint8Array },
): Promise<void> {
  const plan = planUpload(Number(file.size));
  const parts =
    stored ??
    (await deps.db.models.FilePart.findAll({
      attributes: ['partNumber', 'etag', 'writeId'],
      where: { fileId: file.id },
      order: [['partNumber', 'ASC']],
    }));
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
  // Recorded only while the claim is still this completion's (it is renewed as it runs): one statement
  // that tests the claim and records the file, rather than a renewal and then the update (#34).
  if (claim.lost) throw COMPLETION_IN_PROGRESS();
  const now = new Date();
  const done = {
    status: 'complete' as const,
    sha256: actual.sha256,
    completedAt: now,
    storageUploadId: null,
  };
  if (!(await recordComplete(deps.db, claim, file.id, actual.sha256, now, onlyPart))) {
    throw COMPLETION_IN_PROGRESS();
  }
  file.set({ ...done, updatedAt: now }, { raw: true });
  // Every completion (browser, legacy, cloud import) has the server read the file's facts, in the
  // background: the answer never waits for it, and its failure never fails the upload (media-probe.ts).
  void scheduleProbe(deps, file.id, deps.background, {
    file,
    ...(submission ? { submission } : {}),
    ...(onlyPart?.head ? { head: onlyPart.head } : {}),
  });
  // #31: a poster frame or thumbnail for the inbox, and staff told of a new version.
  void schedulePoster(deps, file.id, deps.background);
  // Awaited (one row; it logs rather than throws), so the notice exists when the completion is answered.
  if (file.replacesFileId) await queueVersionNotice(deps, file);
}

/**
 * Records the file complete (with its only part, when given), only while the claim is still this
 * completion's; false when it is not. Plain statements: the model's update (validation, building the SQL)
 * cost more than the write (#34). On PostgreSQL one statement deletes the claim's row, records the part and
 * the file; on SQLite (no writes inside WITH) the part and the file are two statements, each testing the
 * claim (for files of one part, grouped with the others completing meanwhile: only-part-records.ts), and
 * release() deletes the row after them.
 */
async function recordComplete(
  db: Database,
  claim: WriteClaim,
  fileId: string,
  sha256: string,
  now: Date,
  onlyPart: { size: number; etag: string | null } | undefined,
): Promise<boolean> {
  const replacements = {
    sha256,
    // As text on SQLite (db/bind.ts): Sequelize formats a Date through moment for every use of it (#34).
    now: dateParam(db.dialect, now),
    fileId,
    token: claim.token,
    size: onlyPart?.size ?? 0,
    etag: onlyPart?.etag ?? null,
  };
  const update = `UPDATE submission_files SET status = 'complete', sha256 = :sha256, completed_at = :now,
       storage_upload_id = NULL, updated_at = :now`;
  const part = (held: string) =>
    `INSERT INTO file_parts (file_id, part_number, size, etag, write_id, created_at)
     SELECT file_id, 1, :size, :etag, :token, :now FROM ${held} RETURNING file_id`;
  if (db.dialect === 'postgres') {
    const recorded = await db.sequelize.query(
      `WITH held AS (${claim.heldAndEnded()})${onlyPart ? `, part AS (${part('held')})` : ''}
       ${update} WHERE id IN (SELECT file_id FROM ${onlyPart ? 'part' : 'held'}) RETURNING id`,
      { replacements, type: QueryTypes.SELECT },
    );
    if (recorded.length > 0) claim.ended();
    return recorded.length > 0;
  }
  // A file with its only part: with the others completing meanwhile, in two statements (only-part-records.ts).
  if (onlyPart) {
    return recordOnlyPartComplete(db, {
      fileId,
      token: claim.token,
      sha256,
      now: replacements.now as string,
      size: onlyPart.size,
      etag: onlyPart.etag,
    });
  }
  const recorded = await db.sequelize.query(
    `${update} WHERE id = :fileId AND ${claim.heldCondition()} RETURNING id`,
    { replacements, type: QueryTypes.SELECT },
  );
  return recorded.length > 0;
}

async function restart(deps: UploadsDeps, file: SubmissionFileInstance): Promise<void> {
  deps.hashes.forget(file.id);
  await deps.db.models.FilePart.destroy({ where: { fileId: file.id } });
  // The joined upload is spent: the row lets go of it first, so that a restart cut short (PostgreSQL gone
  // before the new upload is recorded) leaves a row its next part begins one for (storage-upload.ts).
  await file.update({ storageUploadId: null, sha256: null });
  await deps.storage.remove(file.storageKey, null);
  const begun = await deps.storage.begin(file.storageKey, Number(file.size), file.type);
  file.setDataValue('storageUploadId', await recordStorageUpload(deps, file.id, file.storageKey, begun));
}

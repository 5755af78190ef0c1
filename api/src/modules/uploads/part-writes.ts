import { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { partRange, planUpload, SNIFF_BYTES } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { ForeignKeyConstraintError, QueryTypes } from 'sequelize';
import { isStorageFull, PartSizeError, StorageUnavailableError } from '../../adapters/storage/index.js';
import type { Database } from '../../db/index.js';
import type { SubmissionFileAttributes, SubmissionFileInstance } from '../../db/models/index.js';
import { AppError, toAppError } from '../../http/errors.js';
import { priorityGateFor } from '../../http/priority-gate.js';
import type { SessionUser } from '../accounts/index.js';
import { COMPLETION, nowMs } from './claims.js';
import type { WriteClaim } from './claims.js';
import { verifyAndComplete } from './completion.js';
import { claimOwnFile, claimOwnFiles, ownFileTarget, TARGET_COLUMNS, targetOf } from './own-file-target.js';
import type { TargetRow } from './own-file-target.js';
import { RequestSegment } from './body-segments.js';
import type { CompletionTarget } from './own-file-target.js';
import { metricsOf } from '../metrics/index.js';
import {
  assertOpen,
  claimOrGone,
  COMPLETION_IN_PROGRESS,
  FILE_COMPLETE,
  fileFromRow,
  FILE_NOT_FOUND,
  IMPORTED_BY_SERVER,
  PART_IN_PROGRESS,
  toFileInfo,
  touchUnlessRecent,
} from './common.js';
import type { UploadsDeps } from './common.js';
import { uploadIdForPart } from './storage-upload.js';

/** Part writes: one part of a file streamed to storage under its claim, and what a failed one answers. */

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
  /** The file's sha-256 (?sha256=): a file of one part is then completed with it, under one claim. */
  sha256?: string,
  /** That claim, taken already with the other files of a bundle, which gives it back (bundles.ts). */
  bundleClaim?: WriteClaim,
): Promise<{ partNumber: number; size: number; target: CompletionTarget; file?: UploadFileInfo }> {
  if (sha256 !== undefined && partParam === '1') {
    // Null: not the caller's own file of one part still uploading, or another write holds it. The steps
    // below answer each case as for any part (404, 409 file_complete, or a part claim that finds the
    // completion's and answers 409 completion_in_progress, or, for a file of more parts, the part stored).
    const claim = bundleClaim ?? (await claimOwnOnlyPart(deps.db, user, fileId));
    if (claim) return writeOnlyPart(deps, claim, body, contentLength, sha256, bundleClaim === undefined);
  }
  const wanted = partNumberOf(partParam);
  // A write that will go ahead is claimed in the statement that finds the file the caller's own (#34).
  const ownClaim = wanted >= 1 ? await claimOwnFile(deps.db, user, fileId, wanted) : null;
  if (ownClaim) return writeOwnPart(deps, ownClaim, body, contentLength);
  // Any other case, looked at before a claim is tried, so each is answered as it always was.
  const { file, submission } = await ownFileTarget(deps.db, user, fileId);
  // A new version (#31) arrives in a submission already sent.
  if (!file.version) assertOpen(submission);
  if (file.status === 'complete') throw FILE_COMPLETE();
  if (file.imported) throw IMPORTED_BY_SERVER();
  const range = plannedRange(file.size, wanted, contentLength);
  const claim = await claimOrGone(deps.db, fileId, wanted);
  if (!claim) throw PART_IN_PROGRESS(wanted);
  try {
    await metricsOf(deps.db).receivingPart(range.size, writeClaimedPart(deps, claim, body, range));
  } finally {
    await claim.release().catch((error: unknown) => {
      // It runs out on its own (claims.ts); only the next writer of this part waits for that.
      deps.logger.warn({ err: error, fileId, partNumber: wanted }, 'could not release a part claim');
    });
  }
  // Activity keeps the submission from the clean-up job; once a minute is plenty for a 7-day limit.
  await touchUnlessRecent(deps.db, submission);
  // What a completion in the same request (?sha256=) would look up again: it checks the rest under its claim.
  const target: CompletionTarget = {
    file: { status: file.status, imported: file.imported, version: file.version },
    submission,
  };
  return { partNumber: wanted, size: range.size, target };
}

function partNumberOf(partParam: string): number {
  return /^\d{1,5}$/.test(partParam) ? Number(partParam) : NaN;
}

/** The bytes of part `partNumber` of a file of `size` bytes, once the part and its Content-Length fit them. */
function plannedRange(
  size: number,
  partNumber: number,
  contentLength: string | undefined,
): { start: number; size: number } {
  const plan = planUpload(size);
  if (!(partNumber >= 1 && partNumber <= plan.partCount)) {
    throw new AppError(400, 'bad_part_number', `Part numbers run from 1 to ${plan.partCount}.`);
  }
  const range = partRange(plan, partNumber);
  if (contentLength === undefined) throw new AppError(411, 'length_required', 'Content-Length is required.');
  if (!/^\d+$/.test(contentLength) || Number(contentLength) !== range.size) {
    throw new AppError(400, 'bad_part_size', `Part ${partNumber} must be exactly ${range.size} bytes.`);
  }
  return range;
}

/**
 * A part of the caller's own file, claimed with the look that found it so (claimOwnFile): the file as the
 * write finds it under the claim, with its submission, is one more statement, then the part is stored as
 * any part (writeClaimedPart). The answers are putPart's: the checks it made before its claim are made
 * under this one, and the claim is let go whatever they find.
 */
async function writeOwnPart(
  deps: UploadsDeps,
  claim: WriteClaim,
  body: Readable,
  contentLength: string | undefined,
): Promise<{ partNumber: number; size: number; target: CompletionTarget }> {
  const { fileId, partNumber } = claim;
  let target: CompletionTarget;
  let size: number;
  try {
    const file = await claimedFile(deps.db, claim);
    if (!file) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
    target = file.target;
    const range = plannedRange(file.size, partNumber, contentLength);
    size = range.size;
    await metricsOf(deps.db).receivingPart(size, writeClaimedPart(deps, claim, body, range, undefined, file));
  } finally {
    await claim.release().catch((error: unknown) => {
      deps.logger.warn({ err: error, fileId, partNumber }, 'could not release a part claim');
    });
  }
  await touchUnlessRecent(deps.db, target.submission);
  return { partNumber, size, target };
}

/** The first bytes of a stream of chunks, copied as they pass (the chunks are given back once stored). */
class HeadBytes {
  private readonly head: Buffer;
  private filled = 0;

  constructor(size: number) {
    this.head = Buffer.allocUnsafe(size);
  }

  take(chunk: Uint8Array): void {
    if (this.filled === this.head.length) return;
    const n = Math.min(chunk.length, this.head.length - this.filled);
    this.head.set(chunk.subarray(0, n), this.filled);
    this.filled += n;
  }

  bytes(): Buffer {
    return this.head.subarray(0, this.filled);
  }
}

/** A request's body, or a stretch of one (a file of a bundle): each chunk copied out of the socket. */
function ownsItsChunks(body: Readable): boolean {
  return body instanceof IncomingMessage || body instanceof RequestSegment;
}

/**
 * Stores a part under `claim`. `ownsChunks`: the body's chunks are nobody else's (a request's, or a
 * provider's answer, each chunk copied out of the socket by an HTTP parser), so storage gives each one's
 * memory back once it is written and hashed (adapters/buffer-memory.ts); a caller's own buffers, as the
 * legacy API's, are kept.
 */
export async function writeClaimedPart(
  deps: UploadsDeps,
  claim: WriteClaim,
  body: Readable,
  range: { start: number; size: number },
  ownsChunks: boolean = ownsItsChunks(body),
  /** The file as the caller found it under the claim (claimedFile), else looked at here. */
  looked?: ClaimedFile,
): Promise<void> {
  const { fileId, partNumber } = claim;
  const file = looked ?? (await claimedFile(deps.db, claim));
  if (!file) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  if (file.completing) throw COMPLETION_IN_PROGRESS();
  if (file.status === 'complete') throw FILE_COMPLETE();
  // While its bytes are overwritten the part is not received: its row goes first.
  if (file.partStored) await deps.db.models.FilePart.destroy({ where: { fileId, partNumber } });
  await storeClaimedPart(deps, claim, file, partNumber, body, range, ownsChunks, (etag) =>
    // Recorded only while the claim is still this write's: else another write has begun over it.
    claim.recordPart({ size: range.size, etag }),
  );
}

/**
 * Streams a part to storage under `claim` (renewed as bytes arrive, interactive requests first) with the
 * running hash following it, then `record`s it; a failure on the way is answered by partFailure.
 */
async function storeClaimedPart(
  deps: UploadsDeps,
  claim: WriteClaim,
  file: { size: number; type: string; storageKey: string; storageUploadId: string | null },
  partNumber: number,
  body: Readable,
  range: { start: number; size: number },
  ownsChunks: boolean,
  record: (etag: string | null) => Promise<void>,
  /** Hears each chunk as it passes, before it is hashed and stored (and given back). */
  watch?: (chunk: Buffer) => void,
): Promise<string | null> {
  const fileId = claim.fileId;
  const gate = priorityGateFor(deps.config);
  const tap = deps.hashes.begin(
    deps.storage,
    { id: fileId, size: file.size, key: file.storageKey },
    partNumber,
    claim.token,
  );
  let etag: string | null;
  let uploadId: string | null;
  try {
    // Inside the try: S3 failing to begin a missing upload is answered as a failed part write is.
    uploadId = await uploadIdForPart(deps, { ...file, id: fileId });
    etag = await deps.storage.writePart({
      key: file.storageKey,
      uploadId,
      partNumber,
      offset: range.start,
      size: range.size,
      body,
      release: ownsChunks,
      observe: (chunk) => {
        watch?.(chunk);
        // Interactive requests first (http/priority-gate.ts): the chunk waits unhashed and unwritten.
        const turn = gate.turn();
        const renewing = turn ? turn.then(() => claim.guard()) : claim.guard();
        if (!renewing) return tap.observe(chunk);
        return renewing.then(() => tap.observe(chunk));
      },
    });
    await record(etag);
  } catch (error) {
    tap.abort();
    throw await partFailure(deps.db, claim, partNumber, body, error, range.size);
  }
  tap.commit();
  return uploadId;
}

/**
 * Claims a file's COMPLETION for a PUT of its only part with ?sha256=, in one statement that also finds
 * the file the caller's own, of one part and still uploading: no claim is ever taken on another user's
 * file. Null when it is not, or while another write or completion holds the file. A claim that ran out is
 * taken over in the same statement, as in claimWrite.
 */
async function claimOwnOnlyPart(db: Database, user: SessionUser, fileId: string): Promise<WriteClaim | null> {
  return (await claimOwnOnlyParts(db, user, [fileId])).get(fileId) ?? null;
}

/**
 * claimOwnOnlyPart for the files of a bundle, in one statement: the claims taken, by file, all under one
 * token (the bundle's write), to be given back together (releaseBundleClaims).
 */
export function claimOwnOnlyParts(
  db: Database,
  user: SessionUser,
  fileIds: string[],
): Promise<Map<string, WriteClaim>> {
  // The rest is checked under the claim (writeOnlyPart), each case answered as for any part.
  return claimOwnFiles(db, user, fileIds, COMPLETION, 'f.part_count = 1');
}

/** Gives back, in one statement, the claims of a bundle still its own (claimOwnOnlyParts). */
export async function releaseBundleClaims(db: Database, claims: Iterable<WriteClaim>): Promise<void> {
  let token: string | undefined;
  for (const claim of claims) token = claim.forget();
  if (token === undefined) return;
  await db.sequelize.query('DELETE FROM upload_claims WHERE part_number = :completion AND token = :token', {
    replacements: { completion: COMPLETION, token },
  });
}

/**
 * A file of one part sent with its sha-256 (the many small files of a folder, #34): the part is stored
 * under the file's COMPLETION claim, which keeps every other write of the file out as a part claim would
 * (a part write that finds it answers 409, and this one waits for no part claim to be live), and the file
 * is completed under the same claim, the part recorded with it. So one claim, one look at the file under
 * it and one record, where a part write and then a completion took two of each. The answers are those of
 * the two steps: 409 while another write or completion holds the file, 422 checksum_mismatch (the file
 * starts over), and a file found complete is left to the caller's look at the completed file.
 */
async function writeOnlyPart(
  deps: UploadsDeps,
  claim: WriteClaim,
  body: Readable,
  contentLength: string | undefined,
  sha256: string,
  /** False for a bundle's claim, which the bundle gives back with the others (releaseBundleClaims). */
  release = true,
): Promise<{ partNumber: number; size: number; target: CompletionTarget; file: UploadFileInfo }> {
  const fileId = claim.fileId;
  let file: SubmissionFileInstance;
  let target: CompletionTarget;
  let size: number;
  try {
    const state = await onlyPartState(deps.db, claim);
    if (!state) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
    ({ file, target } = state);
    // The checks of any part (putPart), now under the claim: found otherwise, the claim is let go.
    if (!target.file.version) assertOpen(target.submission);
    if (file.status === 'complete') throw FILE_COMPLETE();
    if (target.file.imported) throw IMPORTED_BY_SERVER();
    const range = partRange(planUpload(Number(file.size)), 1);
    size = range.size;
    if (contentLength === undefined)
      throw new AppError(411, 'length_required', 'Content-Length is required.');
    if (!/^\d+$/.test(contentLength) || Number(contentLength) !== range.size) {
      throw new AppError(400, 'bad_part_size', `Part 1 must be exactly ${range.size} bytes.`);
    }
    if (state.writing !== null) throw PART_IN_PROGRESS(state.writing);
    await metricsOf(deps.db).receivingPart(
      range.size,
      storeAndComplete(deps, claim, file, state, body, range, sha256).catch(async (error: unknown) => {
        // Removed by its owner while its bytes came (its stored bytes and running hash went with it):
        // there is no file to complete, as a look at it now would answer.
        if (!toAppError(error) && (await fileGone(deps.db, fileId, error))) {
          throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
        }
        throw error;
      }),
    );
  } finally {
    if (release) {
      await claim.release().catch((error: unknown) => {
        deps.logger.warn({ err: error, fileId }, 'could not release a completion claim');
      });
    }
  }
  await touchUnlessRecent(deps.db, target.submission);
  return { partNumber: 1, size, target, file: toFileInfo(file) };
}

async function storeAndComplete(
  deps: UploadsDeps,
  claim: WriteClaim,
  file: SubmissionFileInstance,
  state: { partStored: boolean; target: CompletionTarget },
  body: Readable,
  range: { start: number; size: number },
  sha256: string,
): Promise<void> {
  // While its bytes are overwritten the part is not received: its row goes first.
  if (state.partStored) {
    await deps.db.sequelize.query('DELETE FROM file_parts WHERE file_id = :fileId', {
      replacements: { fileId: file.id },
    });
  }
  let etag: string | null = null;
  // The file's first bytes, for the media reading after the completion: no need to open the file again.
  const head = new HeadBytes(Math.min(SNIFF_BYTES, range.size));
  const uploadId = await storeClaimedPart(
    deps,
    claim,
    { ...file.get(), size: Number(file.size) },
    1,
    body,
    range,
    ownsItsChunks(body),
    async (stored) => {
      etag = stored;
    },
    (chunk) => head.take(chunk),
  );
  // The upload the part went to, when the row had none (storage-upload.ts): the completion joins it.
  file.setDataValue('storageUploadId', uploadId);
  // The rest is this process's hash and one statement, but the storage's finish may take a while (S3).
  claim.keepAlive();
  // The running hash is followed under the claim's token, which the part is recorded with.
  await verifyAndComplete(
    deps,
    file,
    claim,
    sha256,
    state.target.submission,
    [{ partNumber: 1, etag, writeId: claim.token }],
    { size: range.size, etag, head: head.bytes() },
  );
}

type OnlyPartState = {
  file: SubmissionFileInstance;
  target: CompletionTarget;
  writing: number | null;
  partStored: boolean;
};

/** The looks a bundle took at its files together, each used once by its file's write (lookAtBundle). */
const lookedAt = new WeakMap<WriteClaim, OnlyPartState | null>();

/**
 * The files of a bundle as their writes would find them, in one statement taken once all their claims are
 * held (claimOwnOnlyParts): a look each was a statement each on a folder of small files (#34). Each write
 * uses its file's look (onlyPartState); a file gone meanwhile fails its write as it would have.
 */
export async function lookAtBundle(db: Database, claims: Iterable<WriteClaim>): Promise<void> {
  const held = [...claims];
  if (held.length === 0) return;
  const states = await onlyPartStates(
    db,
    held.map((c) => c.fileId),
  );
  for (const claim of held) lookedAt.set(claim, states.get(claim.fileId) ?? null);
}

/**
 * The file as its only part's write finds it under the COMPLETION claim, in one statement: its row, its
 * submission, whether the server imports it, the lowest part being written (a live part claim, taken
 * before this look as the claim was taken before it, so of the two writes at least one sees the other)
 * and whether a part is recorded. Null when the file has gone.
 */
async function onlyPartState(db: Database, claim: WriteClaim): Promise<OnlyPartState | null> {
  const looked = lookedAt.get(claim);
  if (looked !== undefined) {
    lookedAt.delete(claim);
    return looked;
  }
  return (await onlyPartStates(db, [claim.fileId])).get(claim.fileId) ?? null;
}

async function onlyPartStates(db: Database, fileIds: string[]): Promise<Map<string, OnlyPartState>> {
  const rows = await db.sequelize.query<
    Record<string, unknown> &
      TargetRow & { only_part_writing: number | string | null; only_part_stored: number | string }
  >(
    `SELECT f.*, ${TARGET_COLUMNS},
       (SELECT MIN(c.part_number) FROM upload_claims c WHERE c.file_id = f.id AND c.part_number <> :completion
         AND c.expires_at >= ${nowMs(db)}) AS only_part_writing,
       CASE WHEN EXISTS (SELECT 1 FROM file_parts p WHERE p.file_id = f.id) THEN 1 ELSE 0 END AS only_part_stored
     FROM submission_files f JOIN submissions s ON s.id = f.submission_id
     WHERE f.id IN (:fileIds)`,
    { replacements: { fileIds, completion: COMPLETION }, type: QueryTypes.SELECT },
  );
  const states = new Map<string, OnlyPartState>();
  for (const row of rows) {
    const file = fileFromRow(db, row);
    states.set(file.id, {
      file,
      target: targetOf(row),
      writing: row.only_part_writing === null ? null : Number(row.only_part_writing),
      partStored: Number(row.only_part_stored) === 1,
    });
  }
  return states;
}

/** The file as a part write finds it under its claim (claimedFile). */
interface ClaimedFile {
  size: number;
  status: SubmissionFileAttributes['status'];
  storageKey: string;
  storageUploadId: string | null;
  type: string;
  completing: boolean;
  partStored: boolean;
  /** What putPart checks of it, and hands to a completion in the same request. */
  target: CompletionTarget;
}

/**
 * The file as a part write finds it once it holds its claim, in one statement: read again, for a
 * completion that ended or a restart that renewed the S3 upload since; whether a completion holds the
 * file (its claim is taken before it looks for part claims, as this one was before this look, so of the
 * two at least one sees the other); whether the part has a row to take back before it is overwritten; and
 * its submission. Null when the file has gone.
 */
async function claimedFile(db: Database, claim: WriteClaim): Promise<ClaimedFile | null> {
  const [row] = await db.sequelize.query<
    TargetRow & {
      size: number | string;
      storage_key: string;
      storage_upload_id: string | null;
      type: string;
      completing: number | string;
      part_stored: number | string;
    }
  >(
    `SELECT f.size, f.type, f.storage_key, f.storage_upload_id, ${TARGET_COLUMNS},
       CASE WHEN EXISTS (SELECT 1 FROM upload_claims c WHERE c.file_id = f.id AND c.part_number = :completion
         AND c.expires_at >= ${nowMs(db)}) THEN 1 ELSE 0 END AS completing,
       CASE WHEN EXISTS (SELECT 1 FROM file_parts p WHERE p.file_id = f.id AND p.part_number = :part)
         THEN 1 ELSE 0 END AS part_stored
     FROM submission_files f JOIN submissions s ON s.id = f.submission_id WHERE f.id = :fileId`,
    {
      replacements: { fileId: claim.fileId, part: claim.partNumber, completion: COMPLETION },
      type: QueryTypes.SELECT,
    },
  );
  if (!row) return null;
  return {
    size: Number(row.size),
    status: row.target_status,
    storageKey: row.storage_key,
    storageUploadId: row.storage_upload_id,
    type: row.type,
    completing: Number(row.completing) === 1,
    partStored: Number(row.part_stored) === 1,
    target: targetOf(row),
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

/** How long a write that found its file's bytes missing looks for the removal's rows to go too. */
const REMOVAL_WAIT_MS = 1000;
const REMOVAL_LOOK_MS = 50;

/**
 * Whether the file's row is gone (removed meanwhile); false when that cannot be told. A removal deletes
 * the bytes before the rows (removal.ts), so a write that opened the file in between found no bytes
 * (ENOENT) with the row still there: it looks again for a moment before it takes that for a fault of
 * storage, answered 500, where a look a few milliseconds later answers 404.
 */
async function fileGone(db: Database, fileId: string, error?: unknown): Promise<boolean> {
  const bytesMissing = (error as { code?: unknown } | null)?.code === 'ENOENT';
  const until = Date.now() + (bytesMissing ? REMOVAL_WAIT_MS : 0);
  for (;;) {
    const gone = await db.models.SubmissionFile.findByPk(fileId, { attributes: ['id'] }).then(
      (row) => row === null,
      () => false,
    );
    if (gone || Date.now() >= until) return gone;
    await new Promise((resolve) => setTimeout(resolve, REMOVAL_LOOK_MS));
  }
}

/** What to answer for a part write that failed part-way. */
async function partFailure(
  db: Database,
  claim: WriteClaim,
  partNumber: number,
  body: Readable,
  error: unknown,
  size: number,
): Promise<unknown> {
  const { fileId } = claim;
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
  // server's failure, answered 500 and logged, though the body was destroyed with it. Unless the file was
  // removed since its write looked at it (its bytes went with it): then there is no file to write.
  if (isFileSystemError(error)) {
    return (await fileGone(db, fileId, error)) ? new AppError(404, 'file_not_found', FILE_NOT_FOUND) : error;
  }
  // The client went away mid-part (paused, closed the tab, lost the network): nothing was recorded,
  // and the part will come again.
  const code = (error as { code?: unknown } | null)?.code;
  if (body.destroyed || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return new AppError(400, 'part_aborted', `Part ${partNumber} was cut off before its end.`);
  }
  return error;
}

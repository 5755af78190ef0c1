import { randomUUID } from 'node:crypto';
import { checkMediaFacts, formatBytes, inOrder, planUpload, UPLOAD_BATCH_MAX } from '@avp/shared';
import type { BatchRegistrationItem, MediaCheck, UploadFileInfo } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import type { SubmissionFileCreation, SubmissionFileInstance } from '../../db/models/index.js';
import { AppError, toAppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import { assertTakesNewFiles, specForSubmission } from '../upload-events/index.js';
import { clientFactsRow, mediaBlocked } from './media-probe.js';
import { quotaExceeded, unfinishedBytes } from './quota.js';
import { assertOpen, ownSubmission, storageKey, toFileInfo, touch } from './common.js';
import type { UploadsDeps } from './common.js';
import { registrationSchema } from './registration.js';
import { recordStorageUpload } from './storage-upload.js';

/**
 * Batch registration (issue #34): many files of one open submission registered in one call, for folders
 * of stills and slides where a registration per file cost a round trip and a transaction each. Each file
 * is judged as registerFile judges it, with one lock of the client's row, one look for files already
 * there and one insert: the same name, size and last-modified time resumes that file; a file over the
 * size limit, over the quota or blocked by its event's spec gets its own error in the answer, and the
 * others go on. What is wrong with the request as a whole (bad input, not the caller's submission, sent
 * already, a closed event asked to take new files) refuses all of it, as the one-file route would.
 */

/** Files of a batch whose storage is begun at once. */
const STORAGE_BEGIN_CONCURRENCY = 8;

const batchSchema = z.object({
  files: z
    .array(registrationSchema)
    .min(1, 'Name at least one file.')
    .max(UPLOAD_BATCH_MAX, `At most ${UPLOAD_BATCH_MAX} files per call.`),
});

type Registration = z.output<typeof registrationSchema>;

/** Name, size and last-modified: what makes two registrations the same file. */
const identity = (name: string, size: number, lastModified: number) => `${size}:${lastModified}:${name}`;

function itemError(error: unknown): BatchRegistrationItem {
  const known = toAppError(error);
  if (!known) throw error;
  const issues = (error as { check?: MediaCheck }).check;
  return {
    error: {
      status: known.status,
      code: known.code,
      message: known.message,
      ...(issues ? { issues: issues.issues, check: issues } : {}),
    },
  };
}

/** The files of the submission a batch would resume, by identity (one query for all of them). */
async function filesAlreadyThere(
  db: Database,
  submissionId: string,
  names: string[],
  transaction?: Transaction,
): Promise<Map<string, SubmissionFileInstance>> {
  if (names.length === 0) return new Map();
  const rows = await db.models.SubmissionFile.findAll({
    where: { submissionId, name: [...new Set(names)] },
    order: [['createdAt', 'ASC']],
    transaction,
  });
  const found = new Map<string, SubmissionFileInstance>();
  for (const row of rows) {
    if (row.lastModified === null) continue;
    const key = identity(row.name, Number(row.size), Number(row.lastModified));
    if (!found.has(key)) found.set(key, row);
  }
  return found;
}

/** Part numbers received so far of these files, by file id (one query). */
async function partsOf(db: Database, fileIds: string[]): Promise<Map<string, number[]>> {
  const parts = new Map<string, number[]>(fileIds.map((id) => [id, []]));
  if (fileIds.length === 0) return parts;
  const rows = await db.sequelize.query<{ file_id: string; part_number: number }>(
    `SELECT file_id, part_number FROM file_parts WHERE file_id IN (:fileIds) ORDER BY part_number`,
    { replacements: { fileIds }, type: QueryTypes.SELECT },
  );
  for (const row of rows) parts.get(row.file_id)?.push(Number(row.part_number));
  return parts;
}

export async function registerFiles(
  deps: UploadsDeps,
  user: SessionUser,
  submissionId: string,
  input: unknown,
): Promise<{ files: BatchRegistrationItem[] }> {
  const submission = await ownSubmission(deps.db, user, submissionId);
  assertOpen(submission);
  const raw = (input as { files?: unknown } | null)?.files;
  if (Array.isArray(raw) && raw.some((f) => (f as { replaces?: unknown } | null)?.replaces !== undefined)) {
    throw new AppError(400, 'validation_failed', 'New versions of a file are registered one at a time.');
  }
  const { files } = batchSchema.parse(input);
  const results: (BatchRegistrationItem | undefined)[] = new Array(files.length);
  const spec = files.some((f) => f.facts !== undefined) ? await specForSubmission(deps.db, submission) : null;
  const checks: (MediaCheck | undefined)[] = files.map((f) =>
    f.facts === undefined ? undefined : checkMediaFacts(spec, f.facts),
  );
  const candidates: number[] = [];
  files.forEach((file, i) => {
    if (checks[i]?.verdict === 'block') results[i] = itemError(mediaBlocked(checks[i]!));
    else if (file.size > deps.config.UPLOAD_MAX_BYTES) {
      results[i] = itemError(
        new AppError(
          413,
          'file_too_large',
          `Files may be at most ${formatBytes(deps.config.UPLOAD_MAX_BYTES)}.`,
        ),
      );
    } else candidates.push(i);
  });
  const withTime = candidates.filter((i) => files[i]!.lastModified != null).map((i) => files[i]!.name);
  // A closed event still lets files already in the submission resume; a new one refuses the batch.
  const before = await filesAlreadyThere(deps.db, submissionId, withTime);
  const isResume = (f: Registration) =>
    f.lastModified != null && before.has(identity(f.name, f.size, f.lastModified));
  if (candidates.some((i) => !isResume(files[i]!))) await assertTakesNewFiles(deps.db, submission);

  const { SubmissionFile, User, MediaFacts } = deps.db.models;
  const now = Date.now();
  const created: SubmissionFileInstance[] = [];
  // By the file's place in the batch: the row it resumes, the id of an earlier one in the same batch, or
  // its place among the new rows.
  const resumed = new Map<number, SubmissionFileInstance>();
  const sameAs = new Map<number, string>();
  const newRow = new Map<number, number>();
  await deps.db.sequelize.transaction(async (transaction) => {
    // The client's row is the lock, as for one file (addFile): the quota below counts every registration.
    await User.findByPk(user.id, { attributes: ['id'], lock: transaction.LOCK.UPDATE, transaction });
    const there = await filesAlreadyThere(deps.db, submissionId, withTime, transaction);
    let pending = await unfinishedBytes(deps.db, user.id, transaction);
    const rows: SubmissionFileCreation[] = [];
    const facts: ReturnType<typeof clientFactsRow>[] = [];
    const inBatch = new Map<string, number>();
    for (const i of candidates) {
      const file = files[i]!;
      const key = file.lastModified == null ? null : identity(file.name, file.size, file.lastModified);
      const same = key === null ? undefined : there.get(key);
      if (same) {
        resumed.set(i, same);
        continue;
      }
      // The same file twice in one batch is one file, as two registrations one after the other would be.
      const earlier = key === null ? undefined : inBatch.get(key);
      if (earlier !== undefined) {
        sameAs.set(i, rows[earlier]!.id as string);
        continue;
      }
      if (pending + file.size > deps.config.UPLOAD_QUOTA_BYTES) {
        results[i] = itemError(quotaExceeded(deps.config.UPLOAD_QUOTA_BYTES, pending, file.size));
        continue;
      }
      pending += file.size;
      const id = randomUUID();
      const plan = planUpload(file.size);
      const check = checks[i];
      if (key !== null) inBatch.set(key, rows.length);
      rows.push({
        id,
        submissionId,
        name: file.name,
        size: file.size,
        type: file.type,
        lastModified: file.lastModified ?? null,
        sha256: file.sha256 ?? null,
        partSize: plan.partSize,
        partCount: plan.partCount,
        storageKey: storageKey(submissionId, id),
        storageUploadId: null,
        checkVerdict: check?.verdict ?? null,
        checkIssues: check?.issues ?? null,
        // A millisecond apart, so the submission lists them in the order they were named.
        createdAt: new Date(now + rows.length),
        updatedAt: new Date(now),
      });
      if (check) facts.push(clientFactsRow(id, file.facts ?? null, check));
      newRow.set(i, rows.length - 1);
    }
    if (rows.length > 0) created.push(...(await SubmissionFile.bulkCreate(rows, { transaction })));
    if (facts.length > 0) await MediaFacts.bulkCreate(facts, { transaction });
  });

  // Storage is prepared after the rows are in, so no transaction waits on it; one that fails drops its row.
  const ready = new Map<string, UploadFileInfo | BatchRegistrationItem>();
  // A few at a time: each is a round trip to storage (a file made on disk, an S3 upload begun), and a
  // batch of 500 begun one after another kept its first file from starting for about a second (#34).
  await inOrder(created, STORAGE_BEGIN_CONCURRENCY, async (file) => {
    try {
      const begun = await deps.storage.begin(file.storageKey, Number(file.size), file.type);
      file.setDataValue('storageUploadId', await recordStorageUpload(deps, file.id, file.storageKey, begun));
      ready.set(file.id, toFileInfo(file, []));
    } catch (error) {
      await file.destroy().catch(() => undefined);
      ready.set(file.id, itemError(error));
    }
  });
  const open = [...resumed.values()].filter((f) => f.status !== 'complete' && !ready.has(f.id));
  const received = await partsOf(
    deps.db,
    open.map((f) => f.id),
  );
  const answer = files.map((_file, i): BatchRegistrationItem => {
    const refused = results[i];
    if (refused !== undefined) return refused;
    const row = newRow.get(i);
    const fresh = ready.get(row !== undefined ? created[row]!.id : (sameAs.get(i) ?? ''));
    if (fresh) return 'id' in fresh ? { created: row !== undefined, file: fresh } : fresh;
    const same = resumed.get(i)!;
    return {
      created: false,
      file: toFileInfo(same, same.status === 'complete' ? undefined : (received.get(same.id) ?? [])),
    };
  });
  await touch(deps.db, submissionId);
  return { files: answer };
}

import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { isUuid } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/index.js';
import type { SubmissionAttributes, SubmissionFileAttributes } from '../../db/models/index.js';
import type { SessionUser } from '../accounts/index.js';
import { LEASE_MS, nowMs, WriteClaim } from './claims.js';
import { FILE_NOT_FOUND } from './common.js';
import type { CompletedFile } from './media-probe.js';
import { AppError } from '../../http/errors.js';

/** What a part write or a completion checks of the caller's own file before it claims it (else 404). */
export interface CompletionTarget {
  file: { status: SubmissionFileAttributes['status']; imported: boolean; version: boolean };
  submission: CompletedFile['submission'] & {
    id: string;
    status: SubmissionAttributes['status'];
    updatedAt: Date;
  };
}

export interface OwnFileTarget extends CompletionTarget {
  file: CompletionTarget['file'] & { size: number };
}

/**
 * The columns a CompletionTarget is made of (targetOf), for a statement that reads a file `f` joined to
 * its submission `s`: each look that needs the target takes it with its own columns, in the same statement.
 */
export const TARGET_COLUMNS = `f.status AS target_status, f.replaces_file_id AS target_replaces_file_id,
  s.id AS target_submission_id, s.status AS target_submission_status,
  s.updated_at AS target_submission_updated_at, s.upload_event_id AS target_upload_event_id,
  s.form_type AS target_form_type,
  CASE WHEN EXISTS (SELECT 1 FROM file_imports i WHERE i.file_id = f.id) THEN 1 ELSE 0 END AS target_imported`;

export interface TargetRow {
  target_status: SubmissionFileAttributes['status'];
  target_replaces_file_id: string | null;
  target_submission_id: string;
  target_submission_status: SubmissionAttributes['status'];
  target_submission_updated_at: Date | string;
  target_upload_event_id: string | null;
  target_form_type: SubmissionAttributes['formType'];
  target_imported: number | string;
}

/** The target read with TARGET_COLUMNS. */
export function targetOf(row: TargetRow): CompletionTarget {
  return {
    file: {
      status: row.target_status,
      imported: Number(row.target_imported) === 1,
      version: row.target_replaces_file_id !== null,
    },
    submission: {
      id: row.target_submission_id,
      status: row.target_submission_status,
      // A Date from PostgreSQL; SQLite keeps Sequelize's text form, which Date parses.
      updatedAt: new Date(row.target_submission_updated_at),
      uploadEventId: row.target_upload_event_id,
      formType: row.target_form_type,
    },
  };
}

/**
 * The caller's own file, its submission and whether the server copies it from a cloud provider, in one
 * statement where ownFile and an import count take three (with Sequelize's column look-ups on SQLite):
 * a part write and a completion run it once per file of a folder, and 171 times to a gigabyte (#34).
 */
export async function ownFileTarget(db: Database, user: SessionUser, fileId: string): Promise<OwnFileTarget> {
  const [row] = isUuid(fileId)
    ? await db.sequelize.query<TargetRow & { size: number | string }>(
        `SELECT f.size, ${TARGET_COLUMNS}
         FROM submission_files f JOIN submissions s ON s.id = f.submission_id
         WHERE f.id = :fileId AND s.user_id = :userId`,
        { replacements: { fileId, userId: user.id }, type: QueryTypes.SELECT },
      )
    : [];
  if (!row) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  const target = targetOf(row);
  return { ...target, file: { ...target.file, size: Number(row.size) } };
}

/**
 * Claims `part` (COMPLETION for the file) of each of `fileIds` that is the caller's own, still uploading
 * and matches `condition` (SQL on the file `f` and its submission `s`), in one statement: no claim is ever
 * taken on another user's file, and the look that finds the file and the claim are one round trip, where
 * they were two for every part of every file (#34). A claim that ran out is taken over in the same
 * statement, as in claimWrite. The claims taken, by file, all under one token; a file missing from them is
 * not the caller's, not in that state, or held by another live write: the caller's slower look tells which.
 */
export async function claimOwnFiles(
  db: Database,
  user: SessionUser,
  fileIds: string[],
  part: number,
  condition: string,
): Promise<Map<string, WriteClaim>> {
  const ids = fileIds.filter(isUuid);
  const claims = new Map<string, WriteClaim>();
  if (ids.length === 0) return claims;
  const token = randomUUID();
  const sentAt = performance.now();
  // WITH first also keeps Sequelize from taking this for a plain INSERT on SQLite and dropping RETURNING;
  // SQLite needs the WHERE after a SELECT's FROM before ON CONFLICT.
  const rows = await db.sequelize.query<{ file_id: string }>(
    `WITH clock (ms) AS (SELECT ${nowMs(db)}),
     own AS (SELECT f.id FROM submission_files f JOIN submissions s ON s.id = f.submission_id
       WHERE f.id IN (:fileIds) AND s.user_id = :userId AND f.status = 'uploading' AND (${condition}))
     INSERT INTO upload_claims (file_id, part_number, token, expires_at)
     SELECT own.id, :part, :token, clock.ms + :lease FROM own, clock WHERE true
     ON CONFLICT (file_id, part_number) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
     WHERE upload_claims.expires_at < excluded.expires_at - :lease
     RETURNING file_id`,
    {
      replacements: { fileIds: ids, userId: user.id, part, token, lease: LEASE_MS },
      type: QueryTypes.SELECT,
    },
  );
  for (const row of rows) claims.set(row.file_id, new WriteClaim(db, row.file_id, part, token, sentAt));
  return claims;
}

/**
 * The claim of one write that will go ahead: `part` (COMPLETION for the file's completion) of the caller's
 * own file, still uploading, with that part in its plan, in a submission still open (or a new version of
 * a file, #31), and not copied by the server from a cloud provider. Null in any other case, for the caller
 * to take the slower way, which answers each one as before (404, 409, 400, or part_in_progress).
 */
export async function claimOwnFile(
  db: Database,
  user: SessionUser,
  fileId: string,
  part: number,
): Promise<WriteClaim | null> {
  const claims = await claimOwnFiles(
    db,
    user,
    [fileId],
    part,
    `${Number(part)} <= f.part_count AND (s.status = 'open' OR f.replaces_file_id IS NOT NULL)
     AND NOT EXISTS (SELECT 1 FROM file_imports i WHERE i.file_id = f.id)`,
  );
  return claims.get(fileId) ?? null;
}

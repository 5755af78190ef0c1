import { isUuid } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/index.js';
import type { SubmissionAttributes, SubmissionFileAttributes } from '../../db/models/index.js';
import type { SessionUser } from '../accounts/index.js';
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
 * The caller's own file, its submission and whether the server copies it from a cloud provider, in one
 * statement where ownFile and an import count take three (with Sequelize's column look-ups on SQLite):
 * a part write and a completion run it once per file of a folder, and 171 times to a gigabyte (#34).
 */
export async function ownFileTarget(db: Database, user: SessionUser, fileId: string): Promise<OwnFileTarget> {
  const [row] = isUuid(fileId)
    ? await db.sequelize.query<{
        size: number | string;
        status: SubmissionFileAttributes['status'];
        replaces_file_id: string | null;
        submission_id: string;
        submission_status: SubmissionAttributes['status'];
        submission_updated_at: Date | string;
        upload_event_id: string | null;
        form_type: SubmissionAttributes['formType'];
        imported: number | string;
      }>(
        `SELECT f.size, f.status, f.replaces_file_id, s.id AS submission_id, s.status AS submission_status,
           s.updated_at AS submission_updated_at, s.upload_event_id, s.form_type,
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
      uploadEventId: row.upload_event_id,
      formType: row.form_type,
    },
  };
}

import { isUuid } from '@avp/shared';
import type { InboxSubmission } from '@avp/shared';
import { Op } from 'sequelize';
import type { WhereOptions } from 'sequelize';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import type { SubmissionAttributes, SubmissionInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { toPublicEvent } from '../upload-events/index.js';
import { mediaOfFiles } from './media-probe.js';
import { FILE_NOT_FOUND, importsOf, SUBMISSION_NOT_FOUND, toFileInfo, toSubmissionInfo } from './service.js';

export const inboxQuerySchema = z.object({
  form_type: z.enum(['creative', 'event', 'sponsor']).optional(),
  handled: z.enum(['yes', 'no']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/**
 * Staff inbox: sent submissions newest first, with client, fields and files; filtered by type and state.
 * Each file carries its media facts in words and its check against the event's spec (issue #30).
 */
export async function listInbox(
  db: Database,
  query: unknown,
  onlyIds?: string[],
): Promise<InboxSubmission[]> {
  const q = inboxQuerySchema.parse(query);
  const { Submission, SubmissionFile, User } = db.models;
  const where: WhereOptions<SubmissionAttributes> = {
    status: 'submitted',
    ...(onlyIds ? { id: onlyIds } : {}),
    ...(q.form_type ? { formType: q.form_type } : {}),
    ...(q.handled === 'yes'
      ? { handledAt: { [Op.ne]: null } }
      : q.handled === 'no'
        ? { handledAt: null }
        : {}),
  };
  const rows = await Submission.findAll({
    where,
    order: [
      ['submittedAt', 'DESC'],
      ['id', 'ASC'],
    ],
    limit: q.limit,
  });
  const ids = rows.map((r) => r.id);
  const files = ids.length
    ? await SubmissionFile.findAll({ where: { submissionId: ids }, order: [['createdAt', 'ASC']] })
    : [];
  const imports = await importsOf(
    db,
    files.map((f) => f.id),
  );
  const media = await mediaOfFiles(db, files);
  const specs = await specsApplying(db, rows);
  const users = await User.findAll({ where: { id: [...new Set(rows.map((r) => r.userId))] } });
  const byUser = new Map(users.map((u) => [u.id, u]));
  return rows.map((row) =>
    toInbox(
      row,
      files
        .filter((f) => f.submissionId === row.id)
        .map((f) => ({
          ...toFileInfo(f, undefined, imports.get(f.id)),
          ...media.get(f.id),
          specApplies: specs.has(row.id),
        })),
      byUser.get(row.userId),
    ),
  );
}

/** The submissions whose event has a media spec for their form type: their files' badges mean something. */
export async function specsApplying(db: Database, rows: SubmissionInstance[]): Promise<Set<string>> {
  const eventIds = [...new Set(rows.map((r) => r.uploadEventId).filter((id): id is string => !!id))];
  if (eventIds.length === 0) return new Set();
  const events = await db.models.UploadEvent.findAll({ where: { id: eventIds } });
  const specsOf = new Map(events.map((e) => [e.id, toPublicEvent(e).specs]));
  return new Set(
    rows.filter((r) => r.uploadEventId && specsOf.get(r.uploadEventId)?.[r.formType]).map((r) => r.id),
  );
}

function toInbox(
  row: SubmissionInstance,
  files: ReturnType<typeof toFileInfo>[],
  user:
    { id: number; email: string; firstName: string; lastName: string; company: string | null } | undefined,
): InboxSubmission {
  return {
    ...toSubmissionInfo(row, files),
    handledAt: row.handledAt?.toISOString() ?? null,
    client: {
      id: row.userId,
      email: user?.email ?? '',
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      company: user?.company ?? '',
    },
  };
}

/** Marks a sent submission handled (or not), with an audit row of the staff action. */
export async function markHandled(
  db: Database,
  actor: { userId: number; ip: string | null },
  id: string,
  input: unknown,
): Promise<{ id: string; handledAt: string | null }> {
  const { handled } = z.object({ handled: z.boolean() }).parse(input);
  const row = isUuid(id) ? await db.models.Submission.findOne({ where: { id, status: 'submitted' } }) : null;
  if (!row) throw new AppError(404, 'submission_not_found', SUBMISSION_NOT_FOUND);
  const before = row.handledAt?.toISOString() ?? null;
  await db.sequelize.transaction(async (transaction) => {
    await row.update({ handledAt: handled ? (row.handledAt ?? new Date()) : null }, { transaction });
    await db.models.AuditLog.create(
      {
        actorUserId: actor.userId,
        action: handled ? 'upload_mark_handled' : 'upload_mark_unhandled',
        entity: 'submission',
        entityId: row.id,
        before: { handledAt: before },
        after: { handledAt: row.handledAt?.toISOString() ?? null },
        ip: actor.ip?.slice(0, 64) ?? null,
        createdAt: new Date(),
      },
      { transaction },
    );
  });
  return { id: row.id, handledAt: row.handledAt?.toISOString() ?? null };
}

/** A complete file of a sent submission, for download. */
export async function inboxFile(db: Database, fileId: string) {
  const file = isUuid(fileId) ? await db.models.SubmissionFile.findByPk(fileId) : null;
  if (!file || file.status !== 'complete') throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  return file;
}

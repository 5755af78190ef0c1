import type { ClientFile, ClientSubmission, ReviewState } from '@avp/shared';
import type { Database } from '../../db/index.js';
import type { SubmissionFileInstance } from '../../db/models/index.js';
import type { SessionUser } from '../accounts/index.js';

/** How many of a client's sent submissions /client lists (newest first). */
export const MINE_LIMIT = 200;

/**
 * The signed-in client's sent submissions with each file's latest version, its review state and the
 * staff message, and its older versions (#31). Only the caller's own rows are read.
 */
export async function listMine(db: Database, user: SessionUser): Promise<ClientSubmission[]> {
  const submissions = await db.models.Submission.findAll({
    where: { userId: user.id, status: 'submitted' },
    order: [
      ['submittedAt', 'DESC'],
      ['id', 'ASC'],
    ],
    limit: MINE_LIMIT,
  });
  if (submissions.length === 0) return [];
  const files = await db.models.SubmissionFile.findAll({
    where: { submissionId: submissions.map((s) => s.id) },
    order: [
      ['createdAt', 'ASC'],
      ['id', 'ASC'],
    ],
  });
  const byId = new Map(files.map((f) => [f.id, f]));
  const replaced = new Set(files.map((f) => f.replacesFileId).filter((id): id is string => !!id));
  return submissions.map((s) => ({
    id: s.id,
    formType: s.formType,
    fields: s.fields as Record<string, string>,
    submittedAt: s.submittedAt?.toISOString() ?? null,
    files: files
      .filter((f) => f.submissionId === s.id && !replaced.has(f.id))
      .map((f) => toClientFile(f, byId)),
  }));
}

function toClientFile(file: SubmissionFileInstance, byId: Map<string, SubmissionFileInstance>): ClientFile {
  const previous: ClientFile['previousVersions'] = [];
  const seen = new Set([file.id]);
  for (let id = file.replacesFileId; id && !seen.has(id);) {
    const older = byId.get(id);
    if (!older) break;
    seen.add(id);
    previous.push({
      id: older.id,
      name: older.name,
      version: older.version,
      receivedAt: older.completedAt?.toISOString() ?? null,
    });
    id = older.replacesFileId;
  }
  const state = file.reviewState as ReviewState;
  return {
    id: file.id,
    name: file.name,
    size: Number(file.size),
    status: file.status,
    receivedAt: file.completedAt?.toISOString() ?? null,
    version: file.version,
    replacesFileId: file.replacesFileId,
    review: { state, message: file.reviewMessage, reviewedAt: file.reviewedAt?.toISOString() ?? null },
    canReplace: file.status === 'complete' && state !== 'accepted',
    previousVersions: previous,
  };
}

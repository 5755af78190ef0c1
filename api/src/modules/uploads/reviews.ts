import { isUuid, REVIEW_STATE_LABELS, reviewInputSchema } from '@avp/shared';
import type { InboxFile, ReviewState } from '@avp/shared';
import { Op } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { ReviewRoundChange, SubmissionFileInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { enqueueMail } from '../mail/index.js';
import { inboxFiles } from './inbox-list.js';
import { formLabel } from './mail.js';
import { FILE_NOT_FOUND } from './service.js';

export const REVIEW_NOT_COMPLETE = 'This file has not arrived in full yet; review it once it has.';
export const REVIEW_SUPERSEDED = 'A newer version of this file has arrived; review that one.';

/** Where the client sees their submissions and sends new versions. */
export const CLIENT_PATH = '/client';

export interface ReviewDeps {
  config: Pick<Config, 'PUBLIC_URL' | 'REVIEW_MAIL_DELAY_SECONDS'>;
  db: Database;
}

/**
 * Sets a file's review state (staff), audited as a sentence, and adds the change to its submission's
 * review round: the client's one e-mail for a run of changes, sent once REVIEW_MAIL_DELAY_SECONDS pass
 * without another.
 */
export async function setReview(
  deps: ReviewDeps,
  actor: { userId: number; ip: string | null },
  fileId: string,
  input: unknown,
): Promise<InboxFile> {
  const { state, message } = reviewInputSchema.parse(input);
  const { db } = deps;
  const found = isUuid(fileId) ? await db.models.SubmissionFile.findByPk(fileId) : null;
  const submission = found ? await db.models.Submission.findByPk(found.submissionId) : null;
  if (!found || !submission || submission.status !== 'submitted') {
    throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  }
  if (found.status !== 'complete') throw new AppError(409, 'file_not_complete', REVIEW_NOT_COMPLETE);
  const kept = state === 'new' ? null : (message ?? null) || null;
  await db.sequelize.transaction(async (transaction) => {
    const file = await db.models.SubmissionFile.findByPk(fileId, { transaction, lock: true });
    if (!file) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
    const newer = await db.models.SubmissionFile.count({ where: { replacesFileId: file.id }, transaction });
    if (newer > 0) throw new AppError(409, 'file_superseded', REVIEW_SUPERSEDED);
    const before = { state: file.reviewState, message: file.reviewMessage };
    if (before.state === state && before.message === kept) return;
    await file.update(
      { reviewState: state, reviewMessage: kept, reviewedAt: new Date(), reviewedBy: actor.userId },
      { transaction },
    );
    await db.models.AuditLog.create(
      {
        actorUserId: actor.userId,
        action: 'upload_file_review',
        entity: 'submission_file',
        entityId: file.id,
        before: { ...before, sentence: reviewSentence(file.name, file.version, before.state, state, kept) },
        after: { state, message: kept },
        ip: actor.ip?.slice(0, 64) ?? null,
        createdAt: new Date(),
      },
      { transaction },
    );
    await addToRound(deps, submission.id, file, transaction);
  });
  const answer = (await inboxFiles(db, [fileId])).get(fileId);
  if (!answer) throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  return answer.file;
}

/** 'Review of "spot.mov" (v2): New → Needs a new version ("The spot runs 45 s; the slot is 30 s.").' */
export function reviewSentence(
  name: string,
  version: number,
  from: ReviewState,
  to: ReviewState,
  message: string | null,
): string {
  const v = version > 1 ? ` (v${version})` : '';
  const why = message ? ` ("${message}")` : '';
  return `Review of "${name}"${v}: ${REVIEW_STATE_LABELS[from]} → ${REVIEW_STATE_LABELS[to]}${why}.`;
}

/**
 * Adds a file's new state to its submission's open round, or starts a round. The round's mail is queued
 * once, due after the delay; each further change rewrites it and pushes it back, as long as no worker has
 * claimed it (a conditional UPDATE: a mail already on its way starts a new round instead).
 */
async function addToRound(
  deps: ReviewDeps,
  submissionId: string,
  file: SubmissionFileInstance,
  transaction: Transaction,
): Promise<void> {
  const { db, config } = deps;
  const due = new Date(Date.now() + config.REVIEW_MAIL_DELAY_SECONDS * 1000);
  const change: ReviewRoundChange = {
    fileId: file.id,
    name: file.name,
    version: file.version,
    state: file.reviewState,
    message: file.reviewMessage,
  };
  // The submission's row is the lock (PostgreSQL): two reviews at once join one round, not two.
  const submission = await db.models.Submission.findByPk(submissionId, { transaction, lock: true });
  const owner = submission ? await db.models.User.findByPk(submission.userId, { transaction }) : null;
  if (!submission || !owner) return;
  const latest = await db.models.ReviewRound.findOne({
    where: { submissionId },
    order: [['id', 'DESC']],
    transaction,
    lock: true,
  });
  if (latest?.mailId) {
    const changes = [...latest.changes.filter((c) => c.fileId !== file.id), change];
    const mail = roundMail(config, owner, submission, changes);
    const [updated] = await db.models.MailOutbox.update(
      { subject: mail.subject, textBody: mail.text, nextAttemptAt: due },
      {
        where: { id: latest.mailId, status: 'queued', attempts: 0, claimedBy: { [Op.is]: null } },
        transaction,
      },
    );
    if (updated === 1) {
      await latest.update({ changes }, { transaction });
      return;
    }
  }
  const changes = [change];
  const mail = roundMail(config, owner, submission, changes);
  const queued = await enqueueMail(db, { to: owner.email, ...mail }, { transaction });
  await db.models.MailOutbox.update({ nextAttemptAt: due }, { where: { id: queued.id }, transaction });
  await db.models.ReviewRound.create({ submissionId, mailId: queued.id, changes }, { transaction });
}

/** The client's e-mail of a round: what changed, why, and where to send a new version. */
function roundMail(
  config: Pick<Config, 'PUBLIC_URL'>,
  owner: { firstName: string },
  submission: { formType: string; fields: Record<string, unknown> },
  changes: ReviewRoundChange[],
): { subject: string; text: string } {
  const fields = submission.fields as Record<string, string | undefined>;
  const what = fields.project_name || fields.sponsor_company || fields.event_name || '';
  const label = `${formLabel(submission.formType).toLowerCase()}${what ? ` "${what}"` : ''}`;
  const needs = changes.filter((c) => c.state === 'needs_new_version').length;
  const subject = needs
    ? `${needs === 1 ? 'A file needs' : `${needs} files need`} a new version`
    : 'We reviewed your files';
  const lines = changes.flatMap((c) => {
    const v = c.version > 1 ? ` (version ${c.version})` : '';
    const head = `- ${c.name}${v}: ${REVIEW_STATE_LABELS[c.state]}`;
    return c.message && c.state !== 'new' ? [head, `  ${c.message}`] : [head];
  });
  return {
    subject,
    text: [
      `Hello ${owner.firstName},`,
      '',
      `We reviewed the files of your ${label}:`,
      ...lines,
      '',
      needs
        ? `Send a new version from your uploads: ${config.PUBLIC_URL}${CLIENT_PATH}`
        : `See your uploads: ${config.PUBLIC_URL}${CLIENT_PATH}`,
    ].join('\n'),
  };
}

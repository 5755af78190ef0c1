import { queueSubmissionMails } from './mail.js';
import type { UploadsDeps } from './common.js';

/**
 * Queues the e-mails of a submission sent while imports were copying, once every file is complete.
 * Called after each import completes (and after such a submit); the conditional update lets exactly one
 * caller send them, whichever process it runs in.
 */
export async function sendPendingNotice(
  deps: Pick<UploadsDeps, 'db' | 'config' | 'logger'>,
  submissionId: string,
): Promise<boolean> {
  const { Submission, SubmissionFile, User } = deps.db.models;
  const submission = await Submission.findByPk(submissionId);
  if (!submission || submission.status !== 'submitted' || !submission.noticePending) return false;
  const files = await SubmissionFile.findAll({ where: { submissionId }, order: [['createdAt', 'ASC']] });
  if (files.some((f) => f.status !== 'complete')) return false;
  const owner = await User.findByPk(submission.userId);
  const sent = await deps.db.sequelize.transaction(async (transaction) => {
    const [changed] = await Submission.update(
      { noticePending: false },
      { where: { id: submissionId, noticePending: true }, transaction },
    );
    if (changed !== 1) return false;
    await queueSubmissionMails(
      deps,
      {
        submission: { id: submissionId, formType: submission.formType, fields: submission.fields },
        files,
        owner,
      },
      transaction,
    );
    return true;
  });
  if (sent)
    deps.logger.info({ submissionId, files: files.length }, 'imports complete: submission notice queued');
  return sent;
}

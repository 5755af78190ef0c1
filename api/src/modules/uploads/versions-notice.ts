import { formatBytes } from '@avp/shared';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { SubmissionFileInstance } from '../../db/models/index.js';
import type { Logger } from '../../logger.js';
import { enqueueMail } from '../mail/index.js';
import { formLabel, inboxPath } from './mail.js';

type NoticeDeps = { config: Pick<Config, 'PUBLIC_URL' | 'STAFF_EMAIL'>; db: Database; logger: Logger };

/** Staff are told when a new version has arrived in full, with a link to its submission in the inbox. */
export async function queueVersionNotice(deps: NoticeDeps, file: SubmissionFileInstance): Promise<void> {
  try {
    await sendVersionNotice(deps, file);
  } catch (error) {
    deps.logger.error({ err: error, fileId: file.id }, 'could not queue the new version notice');
  }
}

async function sendVersionNotice(deps: NoticeDeps, file: SubmissionFileInstance): Promise<void> {
  const { db } = deps;
  const submission = await db.models.Submission.findByPk(file.submissionId);
  if (!submission) return;
  const owner = await db.models.User.findByPk(submission.userId);
  const who = owner ? `${owner.firstName} ${owner.lastName}`.trim() : 'a client';
  const company = owner?.company ? ` (${owner.company})` : '';
  await enqueueMail(db, {
    to: deps.config.STAFF_EMAIL,
    subject: `New version: ${file.name} (v${file.version}) from ${who}${company}`,
    text: [
      `${who}${company} sent version ${file.version} of a file of their ${formLabel(submission.formType).toLowerCase()} submission.`,
      '',
      `- ${file.name} (${formatBytes(Number(file.size))}, sha-256 ${file.sha256 ?? '—'})`,
      '',
      `It is New in the staff inbox: ${deps.config.PUBLIC_URL}${inboxPath(submission.id)}`,
    ].join('\n'),
  });
}

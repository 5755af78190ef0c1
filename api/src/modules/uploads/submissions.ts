import { createSubmissionSchema, UPLOAD_FILE_REQUIRED } from '@avp/shared';
import type { SubmissionInfo, UploadFileInfo } from '@avp/shared';
import { z } from 'zod';
import type { SubmissionFileInstance, SubmissionInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import { eventForSubmission } from '../upload-events/index.js';
import { probesSettled } from './media-probe.js';
import { queueSubmissionMails } from './mail.js';
import {
  filesOfSubmission,
  importsOf,
  ownFile,
  ownSubmission,
  receivedParts,
  toFileInfo,
  toSubmissionInfo,
} from './common.js';
import type { UploadsDeps } from './common.js';
import { sendPendingNotice } from './notices.js';
import { destroyFile } from './removal.js';

/** Submissions: created (or resumed), described with their files, and sent. */

function fieldsOf(body: z.output<typeof createSubmissionSchema>): Record<string, string> {
  const { form_type: _formType, resume_id: _resumeId, ...fields } = body as Record<string, unknown>;
  return fields as Record<string, string>;
}

/**
 * Creates a submission, or (with resume_id naming an unfinished one of the caller's) continues it with
 * the form's current fields, so files chosen again after a reload resume.
 */
export async function createSubmission(
  deps: UploadsDeps,
  user: SessionUser,
  input: unknown,
): Promise<{ created: boolean; submission: SubmissionInfo }> {
  const body = createSubmissionSchema.parse(input);
  const { Submission } = deps.db.models;
  // The event its name matches (#30): its spec applies to the files; a closed one refuses (422).
  const uploadEventId = await eventForSubmission(deps.db, fieldsOf(body));
  if (body.resume_id) {
    const existing = await Submission.findOne({
      where: { id: body.resume_id, userId: user.id, status: 'open' },
    });
    if (existing) {
      await existing.update({ formType: body.form_type, fields: fieldsOf(body), uploadEventId });
      return { created: false, submission: await describeSubmission(deps, existing) };
    }
  }
  const submission = await Submission.create({
    userId: user.id,
    formType: body.form_type,
    fields: fieldsOf(body),
    uploadEventId,
  });
  return { created: true, submission: toSubmissionInfo(submission, []) };
}

async function describeSubmission(
  deps: UploadsDeps,
  submission: SubmissionInstance,
  known?: { files: SubmissionFileInstance[]; imports: Awaited<ReturnType<typeof importsOf>> },
): Promise<SubmissionInfo> {
  const files = known?.files ?? (await filesOfSubmission(deps.db, submission.id));
  const imports =
    known?.imports ??
    (await importsOf(
      deps.db,
      files.map((f) => f.id),
    ));
  const infos = await Promise.all(
    files.map(async (f) =>
      toFileInfo(
        f,
        f.status === 'complete' ? undefined : await receivedParts(deps.db, f.id),
        imports.get(f.id),
      ),
    ),
  );
  return toSubmissionInfo(submission, infos);
}

export async function getSubmission(
  deps: UploadsDeps,
  user: SessionUser,
  id: string,
): Promise<SubmissionInfo> {
  return describeSubmission(deps, await ownSubmission(deps.db, user, id));
}

export async function getFile(deps: UploadsDeps, user: SessionUser, fileId: string): Promise<UploadFileInfo> {
  const { file } = await ownFile(deps.db, user, fileId);
  const cloudImport = (await importsOf(deps.db, [file.id])).get(file.id);
  return toFileInfo(
    file,
    file.status === 'complete' ? undefined : await receivedParts(deps.db, file.id),
    cloudImport,
  );
}

const submitSchema = z.object({ files: z.array(z.string()).max(10_000).optional() });

/**
 * Sends the submission: the named files (default: all) must be complete, except cloud imports still on
 * their way (the client may close the tab: the server finishes them); other files are dropped. Staff and
 * the client get their e-mails through the outbox, in the transaction that marks it submitted, or, while
 * imports are still copying, when the last of them completes (sendPendingNotice). A repeated call answers
 * the submission as sent.
 */
export async function submitSubmission(
  deps: UploadsDeps,
  user: SessionUser,
  submissionId: string,
  input: unknown,
): Promise<SubmissionInfo> {
  const submission = await ownSubmission(deps.db, user, submissionId);
  if (submission.status === 'submitted') return describeSubmission(deps, submission);
  const body = submitSchema.parse(input ?? {});
  const { Submission, User } = deps.db.models;
  const files = await filesOfSubmission(deps.db, submissionId);
  const wanted = new Set(body.files ?? files.map((f) => f.id));
  const kept = files.filter((f) => wanted.has(f.id));
  if (kept.length === 0 || kept.length !== wanted.size) {
    throw new AppError(400, 'validation_failed', UPLOAD_FILE_REQUIRED, { files: UPLOAD_FILE_REQUIRED });
  }
  const imports = await importsOf(
    deps.db,
    kept.map((f) => f.id),
  );
  const incomplete = kept.filter((f) => f.status !== 'complete');
  const stuck = incomplete.filter((f) => imports.get(f.id)?.status === 'failed');
  if (stuck.length > 0) {
    throw new AppError(
      409,
      'files_incomplete',
      `${stuck.length} file(s) could not be copied from the cloud.`,
    );
  }
  const local = incomplete.filter((f) => !imports.has(f.id));
  if (local.length > 0) {
    throw new AppError(409, 'files_incomplete', `${local.length} file(s) have not finished uploading.`);
  }
  const waiting = incomplete.length > 0;
  for (const extra of files.filter((f) => !wanted.has(f.id))) await destroyFile(deps, extra);
  // The staff notice lists the server's reading of each file when it is done in time (bounded).
  if (!waiting)
    await probesSettled(
      kept.map((f) => f.id),
      deps.config.MEDIA_PROBE_NOTICE_WAIT_SECONDS * 1000,
    );
  const owner = await User.findByPk(user.id);
  const sent = await deps.db.sequelize.transaction(async (transaction) => {
    const now = new Date();
    const [changed] = await Submission.update(
      { status: 'submitted', submittedAt: now, noticePending: waiting },
      { where: { id: submissionId, status: 'open' }, transaction },
    );
    if (changed === 1 && !waiting) {
      await queueSubmissionMails(
        deps,
        {
          submission: { id: submissionId, formType: submission.formType, fields: submission.fields },
          files: kept,
          owner,
        },
        transaction,
      );
    }
    return changed === 1;
  });
  await submission.reload();
  if (sent) deps.logger.info({ submissionId, files: kept.length, importing: waiting }, 'upload submitted');
  // An import may have completed between the check above and the update: its notice check ran too soon.
  if (sent && waiting) await sendPendingNotice(deps, submissionId);
  // Just sent with every file complete: the files are the ones read above (the others were removed), and
  // reading a thousand of them again cost as much as the rest of the call (#34).
  return describeSubmission(deps, submission, sent && !waiting ? { files: kept, imports } : undefined);
}

import { checkMediaFacts, isUuid } from '@avp/shared';
import type { MediaFacts, UploadFileInfo } from '@avp/shared';
import { z } from 'zod';
import type { SubmissionInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import { specForSubmission } from '../upload-events/index.js';
import { mediaBlocked } from './media-probe.js';
import { FILE_NOT_FOUND, ownSubmission } from './common.js';
import type { UploadsDeps } from './common.js';
import { addFile, registrationSchema } from './registration.js';

export const VERSION_NOT_SENT =
  'Send the submission first; until then, remove the file and add the right one.';
export const VERSION_ACCEPTED = 'This file has been accepted; it needs no new version.';
export const VERSION_SUPERSEDED = 'A newer version of this file is already on its way; send that one again.';
export const VERSION_NOT_COMPLETE = 'This file has not arrived in full yet.';

/**
 * Registers a new version of a file of the caller's sent submission (#31): only the owner, only for a
 * complete file that is new or needs a new version and has no newer version. The #30 facts check runs on
 * the new file as on any; the older version is kept, and the new one starts 'new'. Registering the same
 * name, size and modification time again resumes the same new version.
 */
export async function registerVersion(
  deps: UploadsDeps,
  user: SessionUser,
  submission: SubmissionInstance,
  body: {
    name: string;
    size: number;
    type: string;
    lastModified?: number | null | undefined;
    sha256?: string | undefined;
    facts?: MediaFacts | null | undefined;
    replaces: string;
  },
): Promise<{ created: boolean; file: UploadFileInfo }> {
  const { db } = deps;
  const original = isUuid(body.replaces) ? await db.models.SubmissionFile.findByPk(body.replaces) : null;
  // Another client's file, or one of another submission, is indistinguishable from none.
  if (!original || original.submissionId !== submission.id) {
    throw new AppError(404, 'file_not_found', FILE_NOT_FOUND);
  }
  if (submission.status !== 'submitted') throw new AppError(409, 'not_submitted', VERSION_NOT_SENT);
  if (original.status !== 'complete') throw new AppError(409, 'file_not_complete', VERSION_NOT_COMPLETE);
  if (original.reviewState === 'accepted') throw new AppError(409, 'file_accepted', VERSION_ACCEPTED);
  const check =
    body.facts === undefined
      ? undefined
      : checkMediaFacts(await specForSubmission(db, submission), body.facts);
  if (check?.verdict === 'block') throw mediaBlocked(check);
  const lastModified = body.lastModified ?? null;
  return addFile(deps, user, submission.id, {
    ...(check ? { check, clientFacts: body.facts ?? null } : {}),
    name: body.name,
    size: body.size,
    type: body.type,
    lastModified,
    sha256: body.sha256 ?? null,
    replaces: { fileId: original.id, version: original.version + 1 },
    // Under the client's lock (addFile): a second new version of the same file is refused, the same one
    // again resumes.
    findSame: async (transaction) => {
      const newer = await db.models.SubmissionFile.findOne({
        where: { replacesFileId: original.id },
        transaction,
      });
      if (!newer) return null;
      const same =
        newer.name === body.name && Number(newer.size) === body.size && newer.lastModified !== null
          ? Number(newer.lastModified) === lastModified
          : false;
      if (same) return newer;
      throw new AppError(409, 'file_superseded', VERSION_SUPERSEDED);
    },
  });
}

const versionSchema = registrationSchema.extend({
  replaces: z.uuid({ error: 'Name the file this replaces.' }),
});

/** Whether a registration body asks for a new version (it names the file it replaces). */
export function isVersionRegistration(input: unknown): boolean {
  return typeof input === 'object' && input !== null && 'replaces' in input;
}

/** POST /uploads/submissions/:id/files with `replaces`: the caller's submission, then registerVersion. */
export async function registerVersionOf(
  deps: UploadsDeps,
  user: SessionUser,
  submissionId: string,
  input: unknown,
): Promise<{ created: boolean; file: UploadFileInfo }> {
  const submission = await ownSubmission(deps.db, user, submissionId);
  return registerVersion(deps, user, submission, versionSchema.parse(input));
}

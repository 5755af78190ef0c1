import { cloudImportRequestSchema, cloudImportTokenSchema } from '@avp/shared';
import type { ClientImport, CloudProvider, UploadFileInfo } from '@avp/shared';
import { Op } from 'sequelize';
import {
  AMBIGUOUS_ONEDRIVE_ID,
  assertProviderUrl,
  CloudAuthError,
  CloudRefusedError,
  CloudTransientError,
  FOREIGN_LINK,
  graphItemKey,
  graphItemOf,
} from '../../adapters/cloud/index.js';
import type { CloudFileFacts, CloudFileRef, CloudSource, CloudSources } from '../../adapters/cloud/index.js';
import type { FileImportInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import {
  addFile,
  assertOpen,
  ownFile,
  ownSubmission,
  receivedParts,
  toFileInfo,
  toImportInfo,
} from '../uploads/index.js';
import type { UploadsDeps } from '../uploads/index.js';
import type { TokenBox } from './token-box.js';

export interface ImportsDeps extends UploadsDeps {
  sources: CloudSources;
  tokens: TokenBox;
}

export const CLOUD_AUTH_FAILED =
  'The cloud provider did not accept the sign-in for this file. Pick it again to continue.';
export const CLOUD_UNAVAILABLE = 'The cloud provider did not answer. Please try again in a moment.';
export const SIZE_UNKNOWN = 'The cloud provider did not say how big this file is, so it cannot be imported.';
export const PROVIDER_UNAVAILABLE = 'Files from this cloud provider cannot be imported here.';

/** How long /client lists an import after it started. */
const LISTED_FOR_MS = 7 * 86_400_000;
/**
 * An import's first due time until its storage is prepared: addFile commits the rows before it starts
 * the S3 multipart upload (no transaction waits on S3), and a worker of any process that took the import
 * in between would send its parts to an upload that does not exist yet.
 */
export const WHEN_STORAGE_IS_READY = Number.MAX_SAFE_INTEGER;

const REFUSED_CODES = {
  400: 'cloud_refused',
  404: 'cloud_not_found',
  413: 'file_too_large',
  415: 'cloud_unsupported',
};

/** A provider's answer while an import is being started, as the API's answer to the client. */
export function startFailure(error: unknown): unknown {
  if (error instanceof CloudRefusedError) {
    const code = error.message === FOREIGN_LINK ? 'foreign_link' : REFUSED_CODES[error.status];
    return new AppError(error.status, code, error.message);
  }
  if (error instanceof CloudAuthError) return new AppError(403, 'cloud_auth_failed', CLOUD_AUTH_FAILED);
  if (error instanceof CloudTransientError) return new AppError(502, 'cloud_unavailable', CLOUD_UNAVAILABLE);
  return error;
}

/**
 * The provider's facts about the file, or CloudTransientError (502 cloud_unavailable) once it has said
 * nothing for IMPORT_IDLE_TIMEOUT_SECONDS: the client's request must not wait on a provider without an
 * end. The signal ends the request in the sources that take one; the race ends the wait in all of them
 * (the Box and Graph SDKs do not take a signal).
 */
async function describeWithin(
  deps: ImportsDeps,
  source: CloudSource,
  ref: CloudFileRef,
  token: string | null,
): Promise<CloudFileFacts> {
  const seconds = deps.config.IMPORT_IDLE_TIMEOUT_SECONDS;
  const signal = AbortSignal.timeout(seconds * 1000);
  let onAbort: (() => void) | undefined;
  const silent = new Promise<never>((_, reject) => {
    onAbort = () => reject(new CloudTransientError(`The cloud provider did not answer within ${seconds} s.`));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([source.describe(ref, token, signal), silent]);
  } catch (error) {
    throw signal.aborted
      ? new CloudTransientError(`The cloud provider did not answer within ${seconds} s.`)
      : error;
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

function sourceOf(deps: ImportsDeps, provider: CloudProvider) {
  const source = deps.sources.get(provider);
  if (!source) throw new AppError(400, 'cloud_unavailable', PROVIDER_UNAVAILABLE);
  return source;
}

/**
 * The file a pick names. A OneDrive item is kept as `<drive id>/<item id>` (graphItemKey), so the same
 * file picked by a new portal (two fields) and an older client (one field) is one import, and the
 * worker's Graph address splits one way.
 */
function fileRef(
  provider: CloudProvider,
  fileId: string | undefined,
  driveId: string | undefined,
  link: string | undefined,
): CloudFileRef {
  if (provider === 'onedrive' && fileId !== undefined) {
    const item = graphItemOf({ fileId, driveId: driveId ?? null });
    if (!item) throw new AppError(400, 'cloud_refused', AMBIGUOUS_ONEDRIVE_ID);
    return { provider, fileId: graphItemKey(item), link: link ?? null };
  }
  return { provider, fileId: fileId ?? null, link: link ?? null };
}

/**
 * Starts importing a picked cloud file into an open submission: the link is checked against the
 * provider's hosts and the provider is asked for the file's facts before anything is stored (a Google
 * Doc, a missing file or a refused token is answered at once); then the file is added like a browser
 * file (size limit and quota) with its import row, queued for the worker. The same pick posted again
 * answers the same file.
 */
export async function startImport(
  deps: ImportsDeps,
  user: SessionUser,
  submissionId: string,
  input: unknown,
): Promise<{ created: boolean; file: UploadFileInfo }> {
  const submission = await ownSubmission(deps.db, user, submissionId);
  assertOpen(submission);
  const body = cloudImportRequestSchema.parse(input);
  const ref = fileRef(body.provider, body.fileId, body.driveId, body.link);
  let facts: CloudFileFacts;
  try {
    if (ref.link) assertProviderUrl(deps.config, ref.provider, ref.link);
    facts = await describeWithin(deps, sourceOf(deps, body.provider), ref, body.accessToken ?? null);
  } catch (error) {
    throw startFailure(error);
  }
  const size = facts.size ?? body.size;
  if (size === undefined) throw new AppError(400, 'cloud_size_unknown', SIZE_UNKNOWN);
  const { FileImport, SubmissionFile } = deps.db.models;
  const { created, row } = await addFile(deps, user, submissionId, {
    name: body.name,
    size,
    type: (facts.mimeType ?? body.mimeType ?? '').slice(0, 255),
    lastModified: null,
    sha256: null,
    findSame: async (transaction) => {
      const same = await FileImport.findOne({
        where: {
          userId: user.id,
          provider: ref.provider,
          ...(ref.fileId ? { sourceFileId: ref.fileId } : { sourceLink: ref.link }),
        },
        include: [{ model: SubmissionFile, as: 'file', where: { submissionId }, required: true }],
        transaction,
      });
      return same ? SubmissionFile.findByPk(same.fileId, { transaction }) : null;
    },
    alsoInsert: async (file, transaction) => {
      await FileImport.create(
        {
          fileId: file.id,
          userId: user.id,
          provider: ref.provider,
          sourceFileId: ref.fileId,
          sourceLink: ref.link,
          accessToken: body.accessToken ? deps.tokens.seal(body.accessToken) : null,
          nextAttemptAt: WHEN_STORAGE_IS_READY,
        },
        { transaction },
      );
    },
  });
  if (created) await FileImport.update({ nextAttemptAt: 0 }, { where: { fileId: row.id } });
  const cloudImport = await FileImport.findByPk(row.id);
  if (!created && cloudImport && body.accessToken && cloudImport.status !== 'complete') {
    // The same pick again, with the picker's new token: it is the one to use from now on.
    await requeue(deps, cloudImport, body.accessToken, ref.link);
  }
  const parts = row.status === 'complete' ? undefined : await receivedParts(deps.db, row.id);
  return { created, file: toFileInfo(row, parts, cloudImport ?? undefined) };
}

async function requeue(
  deps: ImportsDeps,
  row: FileImportInstance,
  accessToken: string | undefined,
  link: string | null,
): Promise<void> {
  await row.update({
    ...(accessToken ? { accessToken: deps.tokens.seal(accessToken) } : {}),
    ...(link && row.sourceLink ? { sourceLink: link } : {}),
    ...(row.status === 'running' ? {} : { status: 'queued' as const }),
    attempts: 0,
    nextAttemptAt: 0,
    error: null,
  });
}

/**
 * A fresh token (and, for a link pick, a fresh link) for an import that waits for the client, or that
 * failed: it is queued again and continues from the first part it does not have.
 */
export async function renewImportToken(
  deps: ImportsDeps,
  user: SessionUser,
  fileId: string,
  input: unknown,
): Promise<UploadFileInfo> {
  const { file } = await ownFile(deps.db, user, fileId);
  const row = await deps.db.models.FileImport.findByPk(file.id);
  if (!row) throw new AppError(409, 'not_an_import', 'This file was not picked from a cloud account.');
  if (row.status === 'complete' || file.status === 'complete') {
    throw new AppError(409, 'file_complete', 'This file is already complete.');
  }
  const body = cloudImportTokenSchema.parse(input);
  if (body.link) {
    if (!row.sourceLink) throw new AppError(400, 'validation_failed', 'This file was not picked by link.');
    try {
      assertProviderUrl(deps.config, row.provider, body.link);
    } catch (error) {
      throw startFailure(error);
    }
  }
  await requeue(deps, row, body.accessToken, body.link ?? null);
  return toFileInfo(file, await receivedParts(deps.db, file.id), row);
}

/** The caller's imports of the last days, newest first, for /client on return. */
export async function listImports(deps: ImportsDeps, user: SessionUser): Promise<ClientImport[]> {
  const { FileImport, SubmissionFile, Submission } = deps.db.models;
  const rows = await FileImport.findAll({
    where: { userId: user.id, createdAt: { [Op.gt]: new Date(Date.now() - LISTED_FOR_MS) } },
    order: [['createdAt', 'DESC']],
    limit: 200,
  });
  if (rows.length === 0) return [];
  const files = await SubmissionFile.findAll({ where: { id: rows.map((r) => r.fileId) } });
  const byFile = new Map(files.map((f) => [f.id, f]));
  const submissions = await Submission.findAll({
    where: { id: [...new Set(files.map((f) => f.submissionId))], userId: user.id },
  });
  const bySubmission = new Map(submissions.map((s) => [s.id, s]));
  return rows.flatMap((row): ClientImport[] => {
    const file = byFile.get(row.fileId);
    const submission = file && bySubmission.get(file.submissionId);
    if (!file || !submission) return [];
    return [
      {
        fileId: file.id,
        submissionId: submission.id,
        formType: submission.formType,
        submittedAt: submission.submittedAt?.toISOString() ?? null,
        name: file.name,
        size: Number(file.size),
        import: toImportInfo(row),
      },
    ];
  });
}

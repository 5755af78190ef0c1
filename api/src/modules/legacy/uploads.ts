import { Readable } from 'node:stream';
import {
  planUpload,
  SESSION_EXPIRED,
  UPLOAD_FILE_REQUIRED,
  UPLOAD_FORM_TYPES,
  UPLOAD_PART_SIZE,
  uploadSubmissionSchema,
} from '@avp/shared';
import type { SubmissionInfo, UploadFileInfo } from '@avp/shared';
import express from 'express';
import type { RequestHandler, Router } from 'express';
import { z } from 'zod';
import { afterAnswerWork } from '../../http/after-answer.js';
import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../accounts/index.js';
import {
  PARTS_IN_ORDER,
  completeFile,
  createSubmission,
  extendFile,
  getSubmission,
  putPart,
  registerFile,
  removeFile,
  submitSubmission,
} from '../uploads/index.js';
import { importCloudPicks } from './cloud.js';
import { decodeBase64Bytes } from './encoding.js';
import type { LegacyDeps } from './routes.js';

/**
 * POST /api/submitForm.php (SPEC §3 'Upload submission', §4 'Upload'): one JSON call per action, `init`,
 * `part`, `finish`, `send`, mapped onto the uploads service of the new protocol, so the bytes land in the
 * same storage, resume the same way and reach the same staff inbox.
 *
 * The original protocol names files by `file_name` and sends each as consecutive 6,291,456-byte chunks
 * in base64. A file is registered with its size, either in the init call's `files` map (name to size, or
 * to { size, type, lastModified, sha256 }) or by `file_size` on its first part; or, as the original's
 * pages may, with no size at all: its parts then come in order, the file growing by each
 * (uploads' extendFile) until a part shorter than 6 MiB ends it, and its size is known at finish. A part goes to
 * `part_number` when the caller says, else to the first part the server lacks, which is the original's
 * 'next chunk' and also where a resumed upload picks up. Calls after init name their submission with
 * `submission_id`, or mean the caller's newest unsent one.
 */

export const NO_OPEN_UPLOAD = 'There is no upload in progress: start again with action init.';
export const FILE_NAME_REQUIRED = 'file_name names the file this call is about.';
export const FILE_SIZE_REQUIRED =
  "A file's size, where it is declared, is a whole number of bytes (or leave it out: the parts will tell).";
export const FILE_UNKNOWN = 'No file of that name is part of this upload.';
export const ALL_PARTS_RECEIVED = 'Every part of this file has arrived: finish it.';
export const FILE_TOO_LARGE_FOR_CHUNKS =
  'A file this large is sent in larger parts than this call carries; use the upload page or the desktop uploader.';

const SUBMISSION_FIELDS = [
  'project_name',
  'event_name',
  'session_datetime',
  'speaker_name',
  'room_no',
  'sponsor_company',
  'description',
] as const;

const count = z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

const envelopeSchema = uploadSubmissionSchema.extend({
  // Sent by the original pages with every action; needed at init only.
  form_type: z.enum(UPLOAD_FORM_TYPES).optional(),
  submission_id: z.string().optional(),
  part_number: count.pipe(z.number().min(1)).optional(),
  file_size: count.optional(),
  file_type: z.string().optional(),
  sha256: z.string().optional(),
});
type Envelope = z.infer<typeof envelopeSchema>;

/** An entry of init's `files` map that names a file without its size: the parts will tell. */
const unsizedFileSchema = z.union([z.null(), z.object({ size: z.undefined() }).passthrough()]);

const declaredFileSchema = z.union([
  count.transform((size) => ({ size })),
  z.object({
    size: count,
    type: z.string().optional(),
    lastModified: z.number().int().nonnegative().optional(),
    sha256: z.string().optional(),
  }),
]);
type DeclaredFile = z.infer<typeof declaredFileSchema>;

function filesMap(files: Envelope['files']): [string, DeclaredFile][] {
  return Object.entries(files ?? {}).flatMap(([name, value]): [string, DeclaredFile][] => {
    if (unsizedFileSchema.safeParse(value).success) return [];
    const parsed = declaredFileSchema.safeParse(value);
    if (!parsed.success) {
      throw new AppError(400, 'validation_failed', FILE_SIZE_REQUIRED, {
        [`files.${name}`]: FILE_SIZE_REQUIRED,
      });
    }
    return [[name, parsed.data]];
  });
}

/** What the answers say of a file, in the original's snake_case. */
function fileAnswer(file: UploadFileInfo) {
  return {
    file_name: file.name,
    file_id: file.id,
    size: file.size,
    status: file.status,
    part_size: file.partSize,
    part_count: file.partCount,
    /** Part numbers the server holds (every one once complete): where a resumed upload continues. */
    received_parts:
      file.status === 'complete'
        ? Array.from({ length: file.partCount }, (_, i) => i + 1)
        : (file.receivedParts ?? []),
    sha256: file.sha256,
  };
}

function submissionAnswer(submission: SubmissionInfo) {
  return {
    success: true,
    submission_id: submission.id,
    form_type: submission.formType,
    status: submission.status,
    files: Object.fromEntries(submission.files.map((file) => [file.name, fileAnswer(file)])),
  };
}

/** The caller's submission this call is about: the one it names, else its newest unsent one. */
async function currentSubmission(
  deps: LegacyDeps,
  user: SessionUser,
  body: Envelope,
): Promise<SubmissionInfo> {
  if (body.submission_id) return getSubmission(deps, user, body.submission_id);
  const newest = await deps.db.models.Submission.findOne({
    attributes: ['id'],
    where: { userId: user.id, status: 'open' },
    order: [['createdAt', 'DESC']],
  });
  if (!newest) throw new AppError(409, 'no_open_upload', NO_OPEN_UPLOAD);
  return getSubmission(deps, user, newest.id);
}

function namedFile(submission: SubmissionInfo, name: string | undefined): UploadFileInfo | undefined {
  if (!name)
    throw new AppError(400, 'validation_failed', FILE_NAME_REQUIRED, { file_name: FILE_NAME_REQUIRED });
  return submission.files.find((file) => file.name === name);
}

/**
 * Registers a named file through the uploads service. The original names a file by its name alone, so a
 * file of the same name and size continues (lastModified 0 when the caller sends none makes the service's
 * own resume rule match on name and size), and one of another size replaces the unfinished upload.
 */
async function declareFile(
  deps: LegacyDeps,
  user: SessionUser,
  submission: SubmissionInfo,
  name: string,
  declared: DeclaredFile,
  /** No size was declared: `declared.size` is the first part's, and the file grows part by part. */
  unsized = false,
): Promise<UploadFileInfo> {
  if (planUpload(declared.size).partSize !== UPLOAD_PART_SIZE) {
    throw new AppError(413, 'file_too_large', FILE_TOO_LARGE_FOR_CHUNKS);
  }
  // lastModified null marks a file whose size is learnt as its parts come (and is the service's 'never
  // the same file': each unsized upload of a name starts afresh).
  const lastModified = unsized ? null : 'lastModified' in declared ? (declared.lastModified ?? 0) : 0;
  for (const other of submission.files) {
    if (other.name === name && (other.size !== declared.size || other.lastModified !== lastModified)) {
      await removeFile(deps, user, other.id);
    }
  }
  const { file } = await registerFile(deps, user, submission.id, {
    name,
    size: declared.size,
    ...(lastModified === null ? {} : { lastModified }),
    ...('type' in declared && declared.type ? { type: declared.type } : {}),
    ...('sha256' in declared && declared.sha256 ? { sha256: declared.sha256 } : {}),
  });
  return file;
}

async function init(deps: LegacyDeps, user: SessionUser, raw: Record<string, unknown>, body: Envelope) {
  const fields = Object.fromEntries(
    SUBMISSION_FIELDS.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]),
  );
  const { submission } = await createSubmission(deps, user, {
    form_type: body.form_type,
    ...fields,
    ...(body.submission_id ? { resume_id: body.submission_id } : {}),
  });
  let current = submission;
  for (const [name, declared] of filesMap(body.files)) {
    await declareFile(deps, user, current, name, declared);
    current = await getSubmission(deps, user, submission.id);
  }
  await importCloudPicks(deps, user, submission.id, body.auth_file_url);
  return submissionAnswer(current);
}

async function part(deps: LegacyDeps, user: SessionUser, body: Envelope) {
  const submission = await currentSubmission(deps, user, body);
  let file = namedFile(submission, body.file_name);
  if (typeof body.file !== 'string') {
    throw new AppError(400, 'validation_failed', 'file carries the chunk, base64-encoded.', {
      file: 'file carries the chunk, base64-encoded.',
    });
  }
  const bytes = decodeBase64Bytes(body.file, 'file');
  const type = body.file_type ? { type: body.file_type } : {};
  if (body.file_size !== undefined && body.file_size !== file?.size) {
    file = await declareFile(deps, user, submission, body.file_name!, { size: body.file_size, ...type });
  } else if (file === undefined) {
    // No size declared anywhere: this is the first part, and the file grows with the next ones.
    if ((body.part_number ?? 1) !== 1) throw new AppError(409, 'parts_in_order', PARTS_IN_ORDER);
    file = await declareFile(deps, user, submission, body.file_name!, { size: bytes.length, ...type }, true);
  }
  const have = new Set(file.receivedParts ?? []);
  let partNumber = body.part_number;
  if (partNumber === undefined) {
    partNumber = 1;
    while (have.has(partNumber)) partNumber++;
  }
  if (partNumber > file.partCount && isUnsized(file) && body.file_size === undefined) {
    if (partNumber !== file.partCount + 1) throw new AppError(409, 'parts_in_order', PARTS_IN_ORDER);
    file = await extendFile(deps, user, file.id, bytes.length);
  } else if (body.part_number === undefined && partNumber > file.partCount) {
    throw new AppError(409, 'all_parts_received', ALL_PARTS_RECEIVED);
  }
  await putPart(deps, user, file.id, String(partNumber), String(bytes.length), Readable.from([bytes]));
  have.add(partNumber);
  return {
    success: true,
    submission_id: submission.id,
    file_name: file.name,
    part_number: partNumber,
    part_count: file.partCount,
    parts_received: have.size,
  };
}

/**
 * Registered without a size (declareFile's marker) and ending on a whole part, so it may grow by a part;
 * a shorter last part ended it.
 */
function isUnsized(file: UploadFileInfo): boolean {
  return file.lastModified === null && file.status !== 'complete' && file.size % UPLOAD_PART_SIZE === 0;
}

async function finish(deps: LegacyDeps, user: SessionUser, body: Envelope) {
  const submission = await currentSubmission(deps, user, body);
  const file = namedFile(submission, body.file_name);
  if (file === undefined) throw new AppError(404, 'not_found', FILE_UNKNOWN, { file_name: FILE_UNKNOWN });
  const done = await completeFile(deps, user, file.id, body.sha256 ? { sha256: body.sha256 } : {});
  return { success: true, submission_id: submission.id, ...fileAnswer(done) };
}

async function send(deps: LegacyDeps, user: SessionUser, body: Envelope) {
  const submission = await currentSubmission(deps, user, body);
  await importCloudPicks(deps, user, submission.id, body.auth_file_url);
  const names = body.files ? Object.keys(body.files) : undefined;
  const ids = names?.map((name) => {
    const file = submission.files.find((f) => f.name === name);
    if (!file)
      throw new AppError(400, 'validation_failed', UPLOAD_FILE_REQUIRED, {
        [`files.${name}`]: UPLOAD_FILE_REQUIRED,
      });
    return file.id;
  });
  const sent = await submitSubmission(deps, user, submission.id, ids ? { files: ids } : {});
  return submissionAnswer(sent);
}

/** SPEC §4: 'A 403 on submission destroys the session' — the original pages expect 403 once it has ended. */
const requireSession: RequestHandler = (req, _res, next) => {
  if (req.user === undefined) next(new AppError(403, 'session_expired', SESSION_EXPIRED));
  else next();
};

export function legacyUploadRoutes(deps: LegacyDeps): Router {
  const router = express.Router();
  router.post('/submitForm.php', requireSession, async (req, res) => {
    const raw = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<
      string,
      unknown
    >;
    const body = envelopeSchema.parse(raw);
    const user = req.user!;
    // The media facts read after a completion (#30) count as this request's after-answer work.
    const d = { ...deps, logger: req.log, background: afterAnswerWork(req.app) };
    let answer;
    try {
      switch (body.action) {
        case 'init':
          answer = await init(d, user, raw, body);
          break;
        case 'part':
          answer = await part(d, user, body);
          break;
        case 'finish':
          answer = await finish(d, user, body);
          break;
        case 'send':
          answer = await send(d, user, body);
          break;
      }
    } catch (error) {
      throw asLegacyNotFound(error);
    }
    res.set('Cache-Control', 'no-store').json(answer);
  });
  return router;
}

const SERVICE_NOT_FOUND = new Set(['submission_not_found', 'file_not_found']);

/**
 * The uploads service names the submission or file it cannot find in its code; this call's answers stay
 * as they always were, `not_found` for either.
 */
function asLegacyNotFound(error: unknown): unknown {
  if (!(error instanceof AppError) || !SERVICE_NOT_FOUND.has(error.code)) return error;
  return new AppError(error.status, 'not_found', error.message, error.fields);
}

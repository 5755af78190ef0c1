import type { CloudImportInfo } from '../api/imports.js';
import type { MediaCheck, MediaFacts } from '../media/types.js';

/**
 * The multipart upload protocol's wire shapes (DESIGN 'Uploads', docs/api.md 'Uploads'), shared by the
 * server, the browser and the desktop app.
 */
import { z } from 'zod';
import { eventAssetSchema, sessionDateError } from '../schemas/upload.js';
import {
  EVENT_NAME_REQUIRED,
  PROJECT_NAME_REQUIRED,
  SESSION_DATE_REQUIRED,
  SPEAKER_NAME_REQUIRED,
  SPONSOR_COMPANY_REQUIRED,
} from '../messages.js';
import { NAME_LONG_MAX, UPLOAD_DESCRIPTION_MAX, UPLOAD_PART_SIZE } from '../constants.js';
import { optionalText, requiredText } from '../schemas/common.js';

export const UPLOADS_API = '/api/uploads';

/** The body of POST /api/uploads/submissions: the form's fields as SPEC §3 names them. */
export const submissionFieldsSchema = z.discriminatedUnion('form_type', [
  z.object({
    form_type: z.literal('creative'),
    project_name: requiredText(PROJECT_NAME_REQUIRED, NAME_LONG_MAX),
    description: optionalText(UPLOAD_DESCRIPTION_MAX),
  }),
  z.object({
    form_type: z.literal('event'),
    event_name: requiredText(EVENT_NAME_REQUIRED, NAME_LONG_MAX),
    session_datetime: z
      .string({ error: SESSION_DATE_REQUIRED })
      .pipe(eventAssetSchema.shape.session_datetime)
      .superRefine((value, ctx) => {
        const message = sessionDateError(value.slice(0, 10), new Date());
        if (message) ctx.addIssue({ code: 'custom', message });
      }),
    speaker_name: requiredText(SPEAKER_NAME_REQUIRED, NAME_LONG_MAX),
    room_no: optionalText(NAME_LONG_MAX),
    description: optionalText(UPLOAD_DESCRIPTION_MAX),
  }),
  z.object({
    form_type: z.literal('sponsor'),
    event_name: requiredText(EVENT_NAME_REQUIRED, NAME_LONG_MAX),
    sponsor_company: requiredText(SPONSOR_COMPANY_REQUIRED, NAME_LONG_MAX),
    description: optionalText(UPLOAD_DESCRIPTION_MAX),
  }),
]);
export type SubmissionFields = z.input<typeof submissionFieldsSchema>;

export const createSubmissionSchema = z.intersection(
  submissionFieldsSchema,
  /** An unfinished submission of the caller's to continue (after a reload) rather than a new one. */
  z.object({ resume_id: z.uuid().optional() }),
);
export type CreateSubmission = z.input<typeof createSubmissionSchema>;

export type SubmissionStatus = 'open' | 'submitted';
export type UploadFileStatus = 'uploading' | 'complete';

/** One file as the protocol describes it. */
export interface UploadFileInfo {
  id: string;
  name: string;
  size: number;
  type: string;
  lastModified: number | null;
  sha256: string | null;
  partSize: number;
  partCount: number;
  status: UploadFileStatus;
  /** Part numbers the server holds, ascending (absent in lists of many files). */
  receivedParts?: number[];
  /** Present when the server imports this file from a cloud provider (api/imports.ts); it owns the parts. */
  import?: CloudImportInfo;
  /** The file's media facts as the server knows them (its own reading once made, else the client's). */
  facts?: MediaFacts | null;
  /** The file's facts against its event's spec, decided by the server (issue #30). */
  check?: MediaCheck;
}

/** Most files one call of the batch registration (POST …/submissions/:id/files/batch) may name. */
export const UPLOAD_BATCH_MAX = 500;

/** Why the batch registration refused one of its files: what the one-file registration would answer. */
export interface BatchRegistrationError {
  status: number;
  code: string;
  message: string;
  /** A file its event's spec blocks (issue #30): the sentences, and the check they come from. */
  issues?: string[];
  check?: MediaCheck;
}

/** One file of a batch registration's answer, in the order the files were named. */
export type BatchRegistrationItem =
  { created: boolean; file: UploadFileInfo } | { error: BatchRegistrationError };

/**
 * A bundle (POST /api/uploads/bundles?files=…, issue #34): whole files of one part each, their bytes one
 * after another in one request body, each stored and completed as its part PUT with ?sha256= would be.
 * A folder of small files then costs a request per bundle, not per file. `files` names each file as
 * `<id>:<size>:<sha-256>`, joined by commas, in the order of the bytes.
 */
export const UPLOADS_BUNDLE_PATH = '/bundles';

/** Most files one bundle may carry (its list travels in the URL, which proxies cap at about 8 KB). */
export const UPLOAD_BUNDLE_MAX_FILES = 32;

/** Most bytes one bundle may carry: one part's worth. */
export const UPLOAD_BUNDLE_MAX_BYTES = UPLOAD_PART_SIZE;

/** One file of a bundle, as its list names it. */
export interface BundleEntry {
  fileId: string;
  size: number;
  sha256: string;
}

/**
 * One file of a bundle's answer, in the order the list named them: `file` once the file is complete;
 * else `error`, what its own part PUT would have answered (the client sends that file alone then); with
 * neither, its bytes are stored and the file is not yet complete.
 */
export interface BundleItem {
  id: string;
  file?: UploadFileInfo;
  error?: { status: number; code: string; message: string };
}

/** The answer of a part PUT: with `file` when the PUT named the file's sha-256 and completed it. */
export interface PartAnswer {
  partNumber: number;
  size: number;
  file?: UploadFileInfo;
}

export interface SubmissionInfo {
  id: string;
  formType: 'creative' | 'event' | 'sponsor';
  fields: Record<string, string>;
  status: SubmissionStatus;
  submittedAt: string | null;
  createdAt: string;
  files: UploadFileInfo[];
}

/** The staff inbox's view: a submission with its client and handled state. */
export interface InboxSubmission extends SubmissionInfo {
  handledAt: string | null;
  client: { id: number; email: string; firstName: string; lastName: string; company: string };
}

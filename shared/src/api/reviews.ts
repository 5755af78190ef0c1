import { z } from 'zod';
import type { MediaCheck, MediaFacts } from '../media/types.js';
import { UUID_PATTERN } from '../ids.js';

/**
 * File reviews, versions and the show pull (issue #31): typed once for the API, the web portal, the staff
 * inbox, the desktop app and av-upload.
 *
 *   GET /api/uploads/inbox?q=&formType=&event=&review=&spec=&from=&to=&page=&pageSize=   staff → InboxPage
 *   PUT /api/uploads/inbox/files/:fileId/review { state, message? }                      staff → { file }
 *   GET /api/uploads/inbox/files/:fileId/poster                                          staff → image/jpeg
 *   GET /api/uploads/inbox/files/:fileId/download[?inline=1]                             staff → the bytes (Range)
 *   GET /api/uploads/mine                                        the signed-in client → { submissions }
 *   POST /api/uploads/submissions/:submissionId/files { ..., replaces: fileId }   a new version (the owner)
 *   GET /api/uploads/pull?event=&acceptedOnly=1[&format=csv]                     staff → { files } or CSV
 */

export const REVIEW_STATES = ['new', 'accepted', 'needs_new_version'] as const;
/** new: not yet reviewed (or a new version came); accepted; needs_new_version: staff said why. */
export type ReviewState = (typeof REVIEW_STATES)[number];

export const REVIEW_STATE_LABELS: Record<ReviewState, string> = {
  new: 'New',
  accepted: 'Accepted',
  needs_new_version: 'Needs a new version',
};

export const REVIEW_MESSAGE_MAX = 1000;
export const REVIEW_MESSAGE_REQUIRED = 'Say why the file needs a new version.';
export const REVIEW_MESSAGE_TOO_LONG = `Keep the message to ${REVIEW_MESSAGE_MAX} characters or fewer.`;

/** The body of PUT /api/uploads/inbox/files/:fileId/review. */
export const reviewInputSchema = z
  .object({
    state: z.enum(REVIEW_STATES, { error: 'Choose New, Accepted or Needs a new version.' }),
    message: z
      .string()
      .trim()
      .max(REVIEW_MESSAGE_MAX, { error: REVIEW_MESSAGE_TOO_LONG })
      .optional()
      .nullable(),
  })
  .superRefine((value, ctx) => {
    if (value.state === 'needs_new_version' && !value.message) {
      ctx.addIssue({ code: 'custom', path: ['message'], message: REVIEW_MESSAGE_REQUIRED });
    }
  });
export type ReviewInput = z.input<typeof reviewInputSchema>;

/** The spec filter: 'issues' is a warn or block verdict, 'unknown' a file of which nothing is known yet. */
export const INBOX_SPEC_FILTERS = ['ok', 'issues', 'unreadable', 'unknown'] as const;
export type InboxSpecFilter = (typeof INBOX_SPEC_FILTERS)[number];

export const INBOX_PAGE_SIZE_MAX = 200;
export const INBOX_PAGE_SIZE_DEFAULT = 50;

/** The inbox's query string, parsed. */
export const inboxQuerySchema = z.object({
  /** Over client name and e-mail, company, event and file name (case-insensitive substring). */
  q: z.string().trim().max(200).optional(),
  formType: z.enum(['creative', 'event', 'sponsor']).optional(),
  /** An event's name (free-text names match by their text, case and runs of spaces aside). */
  event: z.string().trim().max(200).optional(),
  review: z.enum(REVIEW_STATES).optional(),
  /** Whether staff marked the submission handled (the first inbox's filter). */
  handled: z.enum(['yes', 'no']).optional(),
  spec: z.enum(INBOX_SPEC_FILTERS).optional(),
  /** Received on or after this day / instant (YYYY-MM-DD or ISO). */
  from: z.string().trim().max(40).optional(),
  /** Received on or before this day (inclusive) / instant. */
  to: z.string().trim().max(40).optional(),
  /** One submission (the link in a staff notice); with the other filters it narrows further. */
  submission: z.string().trim().regex(UUID_PATTERN).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(INBOX_PAGE_SIZE_MAX).default(INBOX_PAGE_SIZE_DEFAULT),
});
export type InboxQuery = z.input<typeof inboxQuerySchema>;

export interface ReviewCounts {
  files: number;
  accepted: number;
  needsNewVersion: number;
  new: number;
}

export interface InboxClient {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
}

/** The submission a file belongs to, as the inbox shows it beside the file. */
export interface InboxSubmissionRef {
  id: string;
  formType: 'creative' | 'event' | 'sponsor';
  fields: Record<string, string>;
  submittedAt: string | null;
  handledAt: string | null;
  client: InboxClient;
}

/** One file in the inbox (its latest version; older versions are kept and listed by id). */
export interface InboxFile {
  id: string;
  name: string;
  size: number;
  type: string;
  status: 'uploading' | 'complete';
  sha256: string | null;
  /** Media facts from #30: the server's reading once made, else the client's. */
  facts: MediaFacts | null;
  factsText: string | null;
  check: MediaCheck | null;
  specApplies: boolean;
  review: {
    state: ReviewState;
    message: string | null;
    reviewedAt: string | null;
  };
  version: number;
  /** The file this one replaces (the previous version), or null for a first version. */
  replacesFileId: string | null;
  /** Older versions of this file, newest first. */
  previousVersions: { id: string; version: number; receivedAt: string | null; downloadUrl: string }[];
  receivedAt: string | null;
  /** A JPEG poster frame or thumbnail, when one was made. */
  posterUrl: string | null;
  /** The stored file served inline with Range, when a browser may be able to show it (video, audio, image). */
  previewUrl: string | null;
  downloadUrl: string;
  submission: InboxSubmissionRef;
}

export interface InboxCompanyGroup {
  /** The sponsor company, else the client's company, else the client's name. */
  company: string;
  counts: ReviewCounts;
  files: InboxFile[];
}

export interface InboxEventGroup {
  /** The event's name; '' for files of no event (creative projects). */
  event: string;
  counts: ReviewCounts;
  companies: InboxCompanyGroup[];
}

/**
 * One page of the inbox: files in event, then company order, grouped as they fall on the page. Each
 * group's counts cover every file matching the query in that group, not only the page's.
 */
export interface InboxPage {
  page: number;
  pageSize: number;
  /** Files matching the query. */
  total: number;
  pageCount: number;
  counts: ReviewCounts;
  groups: InboxEventGroup[];
  /** Every event name with matching files, for the event filter. */
  events: string[];
}

export interface ReviewResponse {
  file: InboxFile;
}

/** A file as its client sees it on /client. */
export interface ClientFile {
  id: string;
  name: string;
  size: number;
  status: 'uploading' | 'complete';
  receivedAt: string | null;
  version: number;
  replacesFileId: string | null;
  review: { state: ReviewState; message: string | null; reviewedAt: string | null };
  /** Whether "Send a new version" applies (complete, latest version, and new or needs a new version). */
  canReplace: boolean;
  /** Older versions, newest first. */
  previousVersions: { id: string; name: string; version: number; receivedAt: string | null }[];
}

/** One of the client's sent submissions with its files' review states (GET /api/uploads/mine). */
export interface ClientSubmission {
  id: string;
  formType: 'creative' | 'event' | 'sponsor';
  fields: Record<string, string>;
  submittedAt: string | null;
  files: ClientFile[];
}

export interface MineResponse {
  submissions: ClientSubmission[];
}

/** One row of the show pull (GET /api/uploads/pull). */
export interface PullFile {
  id: string;
  company: string;
  client: string;
  name: string;
  size: number;
  sha256: string;
  factsText: string;
  reviewState: ReviewState;
  receivedAt: string;
  downloadUrl: string;
}

export interface PullResponse {
  files: PullFile[];
}

/** The staff URLs of a file (the inbox and the pull use the same). */
export function inboxFileUrls(fileId: string): {
  downloadUrl: string;
  previewUrl: string;
  posterUrl: string;
} {
  const base = `/api/uploads/inbox/files/${encodeURIComponent(fileId)}`;
  return {
    downloadUrl: `${base}/download`,
    previewUrl: `${base}/download?inline=1`,
    posterUrl: `${base}/poster`,
  };
}

import type { MediaCheck, MediaFacts, MediaSpec } from '../media/types.js';

/**
 * Upload events (issue #30): what the event calls answer, typed once for the API, the web portal, the
 * staff shell and the desktop app. An event names what its screens need from each form type's files.
 *
 *   GET   /api/upload-events                        open events (not archived, deadline not passed) → { events }
 *   GET   /api/staff/upload-events                  every event, archived too → { events }
 *   POST  /api/staff/upload-events                  create (uploadEventInputSchema) → 201 { event }
 *   PATCH /api/staff/upload-events/:id              change (uploadEventInputSchema) → { event }
 *   POST  /api/staff/upload-events/:id/archive      archive → { event }
 *   POST  /api/staff/upload-events/:id/restore      restore → { event }
 */

/** One media spec per form type; null: that form type's files carry no check. */
export interface UploadEventSpecs {
  creative: MediaSpec | null;
  event: MediaSpec | null;
  sponsor: MediaSpec | null;
}

/** An open event as the upload forms see it. */
export interface UploadEventPublic {
  id: string;
  name: string;
  /** YYYY-MM-DD, the event's own calendar days. */
  startsOn: string;
  endsOn: string;
  /** IANA time zone of the event, e.g. 'America/New_York'. */
  timeZone: string;
  /** The upload deadline as an ISO instant. */
  deadline: string;
  /** The deadline in words, in the event's time zone: "Mar 3, 2027, 5:00 PM EST". */
  deadlineText: string;
  specs: UploadEventSpecs;
}

/** An event as staff see it: archived ones too, with the deadline as it was typed. */
export interface UploadEventStaff extends UploadEventPublic {
  /** The deadline as a local date-time in the event's zone, 'YYYY-MM-DDTHH:mm' (the form's value). */
  deadlineLocal: string;
  /** Whether the forms offer it now: not archived and the deadline not passed. */
  open: boolean;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface UploadEventsResponse {
  events: UploadEventPublic[];
}

export interface StaffUploadEventsResponse {
  events: UploadEventStaff[];
}

export interface StaffUploadEventResponse {
  event: UploadEventStaff;
}

/**
 * A file in the staff inbox (issue #30): `facts` is the server's reading once made, else the client's
 * report; `factsText` says it in words; `check` is the server's own check when it has read the file,
 * else the check recorded at registration. All three are absent while nothing is known of the file.
 */
export interface InboxFileMedia {
  facts?: MediaFacts | null;
  factsText?: string;
  /** Whose reading the facts are. */
  factsSource?: 'server' | 'client';
  check?: MediaCheck;
  /** Whether the submission's event has a media spec for its form type (else the check is only 'ok'). */
  specApplies?: boolean;
}

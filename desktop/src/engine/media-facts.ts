/**
 * A file's media facts before it is sent (issue #30): read from disk with the shared reader (the same
 * mediainfo.js loop as the portal's worker and the server), checked against the spec of the event the
 * form names (GET /api/upload-events), and said in words. A blocked file is never queued; a warned one is
 * sent with its facts, and the server records the warning; a file that cannot be read is sent as it is.
 */
import { checkMediaFacts, describeMediaFacts } from '@avp/shared';
import type {
  MediaCheck,
  MediaFacts,
  MediaSpec,
  SubmissionFields,
  UploadEventPublic,
  UploadTransport,
} from '@avp/shared';
import { readFileFacts } from '@avp/shared/media-reader';
import { call } from './imports.js';

/** One file's facts, in words, and its check against the event's spec. */
export interface FileFacts {
  facts: MediaFacts | null;
  /** describeMediaFacts(facts): "1920×1080 · H.264 · 29.97 fps · 0:30 · AAC 48 kHz stereo". */
  factsText: string;
  check: MediaCheck;
}

/** A file on disk with its facts (what `inspect` answers, per file). */
export interface FileInspection extends FileFacts {
  path: string;
  name: string;
  size: number;
}

/**
 * What spec applies: the open event whose name is the form's event name (trimmed, any case), and that
 * event's spec for the form type; null for a free-text name, a creative form (it names no event), or when
 * the server could not be asked (it checks again when the file is registered).
 */
export interface SpecChoice {
  spec: MediaSpec | null;
  /** The event the name matched, as the server names it. */
  event: string | null;
  /** Why there is no spec when the events could not be fetched (the words of the failure). */
  unavailable?: string;
}

export function matchEvent(events: UploadEventPublic[], fields: SubmissionFields): UploadEventPublic | null {
  if (!('event_name' in fields)) return null;
  const name = fields.event_name.trim().toLowerCase();
  if (name === '') return null;
  return events.find((event) => event.name.trim().toLowerCase() === name) ?? null;
}

/** The open upload events (GET /api/upload-events), for the window's Event name suggestions. */
export async function openEvents(transport: UploadTransport): Promise<UploadEventPublic[]> {
  const { events } = await call<{ events: UploadEventPublic[] }>(transport, 'GET', '/api/upload-events');
  return Array.isArray(events) ? events : [];
}

/** The spec for these fields, asked of the server; never throws (no answer: no spec, with the reason). */
export async function specFor(transport: UploadTransport, fields: SubmissionFields): Promise<SpecChoice> {
  if (!('event_name' in fields) || fields.event_name.trim() === '') return { spec: null, event: null };
  try {
    const event = matchEvent(await openEvents(transport), fields);
    return { spec: event ? event.specs[fields.form_type] : null, event: event?.name ?? null };
  } catch (error) {
    return { spec: null, event: null, unavailable: error instanceof Error ? error.message : String(error) };
  }
}

/** Reads a file's facts within `timeoutMs`: null when it cannot be read (or the reader cannot load). */
export async function readFacts(filePath: string, timeoutMs: number): Promise<MediaFacts | null> {
  try {
    return (await readFileFacts(filePath, { timeoutMs })).facts;
  } catch {
    // The reader itself failed to load (its WebAssembly missing from an installation, say): the file is
    // sent as one whose details could not be read, never held up for it.
    return null;
  }
}

/** Reads a file's facts (null when it cannot be read) within `timeoutMs`, and checks them. */
export async function factsOf(
  filePath: string,
  spec: MediaSpec | null,
  timeoutMs: number,
): Promise<FileFacts> {
  return withCheck(await readFacts(filePath, timeoutMs), spec);
}

export function withCheck(facts: MediaFacts | null, spec: MediaSpec | null): FileFacts {
  return { facts, factsText: describeMediaFacts(facts), check: checkMediaFacts(spec, facts) };
}

/** Files a blocking spec stops: nothing of the submission was queued. */
export class MediaBlockedError extends Error {
  readonly code = 'media_blocked';
  constructor(
    readonly blocked: FileInspection[],
    readonly event: string | null,
  ) {
    super(blockedMessage(blocked, event));
    this.name = 'MediaBlockedError';
  }
}

/**
 * "keynote.mov does not meet what the screens of Expo 2027 need: The screens need 1920×1080; this file is
 * 1280×720. Nothing was queued." One sentence group per file.
 */
export function blockedMessage(blocked: FileInspection[], event: string | null): string {
  const where = event ? `the screens of ${event}` : 'the screens';
  const files = blocked.map((f) => `${f.name} does not meet what ${where} need: ${f.check.issues.join(' ')}`);
  return `${files.join(' ')} Nothing was queued.`;
}

/**
 * Upload events (issue #30): what staff enter for an event (its name, days, time zone, upload deadline and
 * a media spec per form type), the deadline as an instant and in words in the event's own zone, and the
 * sentence a late upload is refused with. Uniqueness of the name among events not archived needs the
 * database: the API checks it (api/src/modules/upload-events).
 */
import { z } from 'zod';
import type { MediaFacts } from '../media/types.js';
import { dayjs } from '../day.js';
import { mediaSpecSchema } from '../media/spec-schema.js';
import { bounded, dateOnly } from './common.js';

export const UPLOAD_EVENT_NAME_MAX = 120;
/** The deadline as a `datetime-local` input gives it: a wall-clock time in the event's zone. */
export const UPLOAD_EVENT_DEADLINE_FORMAT = 'YYYY-MM-DDTHH:mm';
const DEADLINE_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

export const UPLOAD_EVENT_NAME_REQUIRED = 'Please enter the event name.';
export const UPLOAD_EVENT_NAME_TAKEN = 'Another event that is not archived already has this name.';
export const UPLOAD_EVENT_STARTS_REQUIRED = 'Please enter the first day of the event.';
export const UPLOAD_EVENT_ENDS_REQUIRED = 'Please enter the last day of the event.';
export const UPLOAD_EVENT_ENDS_BEFORE_START = 'The last day cannot be before the first day.';
export const UPLOAD_EVENT_ZONE_REQUIRED = 'Please choose the time zone of the event.';
export const UPLOAD_EVENT_ZONE_UNKNOWN = 'This is not a time zone we know (e.g. America/New_York).';
export const UPLOAD_EVENT_DEADLINE_REQUIRED = 'Please enter the upload deadline (date and time).';
export const UPLOAD_EVENT_DEADLINE_INVALID = 'Please enter the deadline as a date and a time.';
export const UPLOAD_EVENT_DEADLINE_SKIPPED =
  'This time does not exist in the event’s time zone (the clocks skip it); please choose another.';

/** The sentence a submission for an event whose deadline has passed is refused with (422). */
export function uploadsClosed(name: string, deadlineText: string): string {
  return `Uploads for ${name} closed on ${deadlineText}.`;
}

/** Whether Intl knows this IANA zone name. */
export function isTimeZone(value: string): boolean {
  if (value === '' || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant of a wall-clock 'YYYY-MM-DDTHH:mm' in `timeZone`; null when the text is no such time or the
 * zone skips it (a spring-forward gap would otherwise move the deadline silently by an hour).
 */
export function deadlineInstant(local: string, timeZone: string): Date | null {
  if (!DEADLINE_SHAPE.test(local) || !isTimeZone(timeZone)) return null;
  if (!dayjs(local, UPLOAD_EVENT_DEADLINE_FORMAT, true).isValid()) return null;
  const instant = dayjs.tz(local, UPLOAD_EVENT_DEADLINE_FORMAT, timeZone);
  if (!instant.isValid()) return null;
  if (instant.tz(timeZone).format(UPLOAD_EVENT_DEADLINE_FORMAT) !== local) return null;
  return instant.toDate();
}

/** An instant as the wall-clock 'YYYY-MM-DDTHH:mm' of `timeZone` (the staff form's value). */
export function deadlineLocal(instant: Date, timeZone: string): string {
  return dayjs(instant).tz(timeZone).format(UPLOAD_EVENT_DEADLINE_FORMAT);
}

/** The deadline in words in the event's zone: "Mar 3, 2027, 5:00 PM EST". */
export function formatDeadline(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  })
    .format(instant)
    .replace(/\u202f/g, ' ');
}

/**
 * The form two event names are compared in (a form's event name included): trimmed, runs of spaces as one,
 * case-folded, so ' expo  2027' names 'Expo 2027'.
 */
export function eventNameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('en-US');
}

const specsSchema = z.object({
  creative: mediaSpecSchema.nullable().default(null),
  event: mediaSpecSchema.nullable().default(null),
  sponsor: mediaSpecSchema.nullable().default(null),
});

export const uploadEventInputSchema = z
  .object({
    name: bounded(
      z
        .string({ error: UPLOAD_EVENT_NAME_REQUIRED })
        .trim()
        .min(1, UPLOAD_EVENT_NAME_REQUIRED)
        .transform((v) => v.replace(/\s+/g, ' ')),
      UPLOAD_EVENT_NAME_MAX,
    ),
    startsOn: dateOnly(UPLOAD_EVENT_STARTS_REQUIRED),
    endsOn: dateOnly(UPLOAD_EVENT_ENDS_REQUIRED),
    timeZone: z
      .string({ error: UPLOAD_EVENT_ZONE_REQUIRED })
      .trim()
      .min(1, UPLOAD_EVENT_ZONE_REQUIRED)
      .refine((v) => v === '' || isTimeZone(v), UPLOAD_EVENT_ZONE_UNKNOWN),
    deadline: z
      .string({ error: UPLOAD_EVENT_DEADLINE_REQUIRED })
      .trim()
      .min(1, UPLOAD_EVENT_DEADLINE_REQUIRED)
      .refine(
        (v) => v === '' || (DEADLINE_SHAPE.test(v) && dayjs(v, UPLOAD_EVENT_DEADLINE_FORMAT, true).isValid()),
        UPLOAD_EVENT_DEADLINE_INVALID,
      ),
    specs: specsSchema.default({ creative: null, event: null, sponsor: null }),
  })
  .superRefine((value, ctx) => {
    if (value.startsOn && value.endsOn && value.endsOn < value.startsOn) {
      ctx.addIssue({ code: 'custom', path: ['endsOn'], message: UPLOAD_EVENT_ENDS_BEFORE_START });
    }
    const shaped = DEADLINE_SHAPE.test(value.deadline);
    if (shaped && isTimeZone(value.timeZone) && deadlineInstant(value.deadline, value.timeZone) === null) {
      ctx.addIssue({ code: 'custom', path: ['deadline'], message: UPLOAD_EVENT_DEADLINE_SKIPPED });
    }
  });

export type UploadEventInput = z.input<typeof uploadEventInputSchema>;
export type UploadEventValues = z.output<typeof uploadEventInputSchema>;

/**
 * A file's facts as a client reports them at registration (its own reader's result): bounded, because
 * they are stored and shown to staff. The server never trusts them beyond the check they ask for; its own
 * reading of the stored bytes comes after.
 */
const factName = z.string().trim().min(1).max(64).nullable();
const count = (max: number) => z.number().int().min(0).max(max).nullable();
export const mediaFactsSchema: z.ZodType<MediaFacts> = z.object({
  kind: z.enum(['video', 'audio', 'image', 'other']),
  container: factName,
  videoCodec: factName,
  width: count(1_000_000),
  height: count(1_000_000),
  fps: z.number().min(0).max(10_000).nullable(),
  durationSeconds: z.number().min(0).max(10_000_000).nullable(),
  audio: z
    .object({
      codec: z.string().trim().min(1).max(64),
      channels: count(1024),
      sampleRate: count(10_000_000),
    })
    .nullable(),
  sizeBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

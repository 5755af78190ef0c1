/**
 * SPEC §3 'Upload submission', 'Creative asset', 'Event asset', 'Sponsor commercial'; §5 'Upload'; and
 * the file registration of DESIGN 'Uploads'.
 */
import { z } from 'zod';
import {
  DATE_ONLY_FORMAT,
  NAME_LONG_MAX,
  SESSION_DATETIME_FORMAT,
  UPLOAD_DATE_YEARS_AHEAD,
  UPLOAD_DESCRIPTION_MAX,
  UPLOAD_HOUR_MAX,
  UPLOAD_HOUR_MIN,
  UPLOAD_MINUTE_MAX,
  UPLOAD_MINUTE_STEP,
} from '../constants.js';
import { addDays, assertDateOnly, dateInZone } from '../dates.js';
import { dayjs } from '../day.js';
import { formatDate } from '../format.js';
import {
  dateMustBeAfter,
  dateMustBeBefore,
  EVENT_NAME_REQUIRED,
  PROJECT_NAME_REQUIRED,
  SESSION_AMPM_REQUIRED,
  SESSION_DATE_REQUIRED,
  SESSION_HOUR_REQUIRED,
  SESSION_MINUTE_REQUIRED,
  SPEAKER_NAME_REQUIRED,
  SPONSOR_COMPANY_REQUIRED,
  UPLOAD_FILE_REQUIRED,
} from '../messages.js';
import { bounded, dateOnly, numberInput, optionalText, requiredText } from './common.js';

export const UPLOAD_FORM_TYPES = ['creative', 'event', 'sponsor'] as const;
export type UploadFormType = (typeof UPLOAD_FORM_TYPES)[number];
export const UPLOAD_ACTIONS = ['init', 'part', 'finish', 'send'] as const;
export type UploadAction = (typeof UPLOAD_ACTIONS)[number];
export const MERIDIEMS = ['AM', 'PM'] as const;
export type Meridiem = (typeof MERIDIEMS)[number];

const SESSION_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

export const creativeAssetSchema = z.object({
  project_name: z.string(),
  description: z.string(),
});
export type CreativeAsset = z.infer<typeof creativeAssetSchema>;

export const eventAssetSchema = z.object({
  event_name: z.string(),
  /** 'YYYY-MM-DD HH:mm:ss', wall-clock time at the event (no zone, as the spec sends it). */
  session_datetime: z
    .string()
    .refine((v) => SESSION_DATETIME.test(v) && dayjs(v, SESSION_DATETIME_FORMAT, true).isValid()),
  speaker_name: z.string(),
  room_no: z.string(),
  description: z.string(),
});
export type EventAsset = z.infer<typeof eventAssetSchema>;

export const sponsorCommercialSchema = z.object({
  event_name: z.string(),
  sponsor_company: z.string(),
  description: z.string(),
});
export type SponsorCommercial = z.infer<typeof sponsorCommercialSchema>;

/**
 * A file chosen in a form: from the local machine (name, size, type of the File) or from a cloud picker
 * (name and link). The browser's File object itself stays with the form; only these facts are validated.
 */
export const uploadFileRefSchema = z.object({
  name: z.string().min(1),
  size: z.number().int().nonnegative().optional(),
  type: z.string().optional(),
  link: z.url().optional(),
});
export type UploadFileRef = z.infer<typeof uploadFileRefSchema>;

const files = z.array(uploadFileRefSchema, { error: UPLOAD_FILE_REQUIRED }).min(1, UPLOAD_FILE_REQUIRED);

export const creativeUploadFormSchema = z.object({
  form_type: z.literal('creative'),
  files,
  project_name: requiredText(PROJECT_NAME_REQUIRED, NAME_LONG_MAX),
  description: optionalText(UPLOAD_DESCRIPTION_MAX),
});

export const eventUploadFormSchema = z.object({
  form_type: z.literal('event'),
  files,
  event_name: requiredText(EVENT_NAME_REQUIRED, NAME_LONG_MAX),
  date: dateOnly(SESSION_DATE_REQUIRED, SESSION_DATE_REQUIRED),
  hour: numberInput(
    z
      .number({ error: SESSION_HOUR_REQUIRED })
      .int(SESSION_HOUR_REQUIRED)
      .min(UPLOAD_HOUR_MIN, SESSION_HOUR_REQUIRED)
      .max(UPLOAD_HOUR_MAX, SESSION_HOUR_REQUIRED),
  ),
  minute: numberInput(
    z
      .number({ error: SESSION_MINUTE_REQUIRED })
      .int(SESSION_MINUTE_REQUIRED)
      .min(0, SESSION_MINUTE_REQUIRED)
      .max(UPLOAD_MINUTE_MAX, SESSION_MINUTE_REQUIRED)
      .multipleOf(UPLOAD_MINUTE_STEP, SESSION_MINUTE_REQUIRED),
  ),
  ampm: z.enum(MERIDIEMS, { error: SESSION_AMPM_REQUIRED }),
  speaker_name: requiredText(SPEAKER_NAME_REQUIRED, NAME_LONG_MAX),
  room_no: optionalText(NAME_LONG_MAX),
  description: optionalText(UPLOAD_DESCRIPTION_MAX),
});

export const sponsorUploadFormSchema = z.object({
  form_type: z.literal('sponsor'),
  files,
  event_name: requiredText(EVENT_NAME_REQUIRED, NAME_LONG_MAX),
  sponsor_company: requiredText(SPONSOR_COMPANY_REQUIRED, NAME_LONG_MAX),
  description: optionalText(UPLOAD_DESCRIPTION_MAX),
});

export const uploadFormSchema = z.discriminatedUnion('form_type', [
  creativeUploadFormSchema,
  eventUploadFormSchema,
  sponsorUploadFormSchema,
]);

export type CreativeUploadForm = z.infer<typeof creativeUploadFormSchema>;
export type EventUploadForm = z.infer<typeof eventUploadFormSchema>;
export type SponsorUploadForm = z.infer<typeof sponsorUploadFormSchema>;
export type UploadForm = z.infer<typeof uploadFormSchema>;

/** The event form's date and 12-hour time as the 'session_datetime' the event asset carries. */
export function toSessionDateTime(date: string, hour: number, minute: number, ampm: Meridiem): string {
  assertDateOnly(date);
  if (!Number.isInteger(hour) || hour < UPLOAD_HOUR_MIN || hour > UPLOAD_HOUR_MAX) {
    throw new RangeError(`Hour must be a whole number from 1 to 12 (got ${hour})`);
  }
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) {
    throw new RangeError(`Minute must be a whole number from 0 to 59 (got ${minute})`);
  }
  // 12 AM is midnight and 12 PM is noon.
  const hour24 = (hour % 12) + (ampm === 'PM' ? 12 : 0);
  return `${date} ${String(hour24).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00`;
}

/**
 * SPEC §2: the upload date picker runs from today to two years ahead, today being the client's own:
 * pass the zone of the person choosing (localTimeZone() in their browser or app), not the company's.
 */
export function uploadDateRange(now: Date, timeZone: string): { min: string; max: string } {
  const min = dateInZone(now, timeZone);
  const max = dayjs
    .utc(min, DATE_ONLY_FORMAT, true)
    .add(UPLOAD_DATE_YEARS_AHEAD, 'year')
    .format(DATE_ONLY_FORMAT);
  return { min, max };
}

// The zones where the calendar day begins last (UTC−12) and first (UTC+14).
const LATEST_ZONE = 'Etc/GMT+12';
const EARLIEST_ZONE = 'Pacific/Kiritimati';

/**
 * The server's check of a session date: inside the picker's range for a client somewhere on Earth. The
 * server cannot know the client's zone, so 'today' runs from the day in UTC−12 to the day in UTC+14.
 * Worded as the date input words its limits (SPEC §5), dates as SPEC §9 shows them.
 */
export function sessionDateError(date: string, now: Date): string | undefined {
  const min = uploadDateRange(now, LATEST_ZONE).min;
  const max = uploadDateRange(now, EARLIEST_ZONE).max;
  if (date < min) return dateMustBeAfter(formatDate(addDays(min, -1)));
  if (date > max) return dateMustBeBefore(formatDate(addDays(max, 1)));
  return undefined;
}

/** The legacy /api/submitForm.php body (SPEC §3, §7): one call per action, with base64 chunks. */
export const uploadSubmissionSchema = z.object({
  form_type: z.enum(UPLOAD_FORM_TYPES),
  action: z.enum(UPLOAD_ACTIONS),
  file_name: bounded(z.string(), NAME_LONG_MAX).optional(),
  /** One base64 chunk (action 'part'); decoding, data-URL prefix included, is the server's job. */
  file: z.string().optional(),
  files: z.record(z.string(), z.unknown()).optional(),
  /** Cloud-picked files: file name to the provider's link and access token. */
  auth_file_url: z
    .record(z.string(), z.object({ link: z.string(), token: z.string().optional() }))
    .optional(),
  project_name: bounded(z.string(), NAME_LONG_MAX).optional(),
  event_name: bounded(z.string(), NAME_LONG_MAX).optional(),
  session_datetime: bounded(z.string(), NAME_LONG_MAX).optional(),
  speaker_name: bounded(z.string(), NAME_LONG_MAX).optional(),
  room_no: bounded(z.string(), NAME_LONG_MAX).optional(),
  sponsor_company: bounded(z.string(), NAME_LONG_MAX).optional(),
  description: bounded(z.string(), UPLOAD_DESCRIPTION_MAX).optional(),
});
export type UploadSubmission = z.infer<typeof uploadSubmissionSchema>;

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Registering one file with the multipart protocol (DESIGN 'Uploads'). The name is a bare file name: a
 * path separator or NUL could otherwise steer where the storage driver writes.
 */
export const uploadFileRegistrationSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(255)
    .refine((v) => !/[/\\\0]/.test(v) && v !== '.' && v !== '..', 'Invalid file name.'),
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  type: bounded(z.string(), NAME_LONG_MAX).default('application/octet-stream'),
  sha256: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.string().regex(SHA256_HEX))
    .optional(),
});
export type UploadFileRegistration = z.infer<typeof uploadFileRegistrationSchema>;

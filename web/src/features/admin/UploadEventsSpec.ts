/**
 * The Upload events dialog's values as staff type them (texts, ticked lists, rows of width and height)
 * and the API's UploadEventInput, both ways. The shared uploadEventInputSchema checks the converted input,
 * so its messages are the server's; what cannot even be converted (a duration that is no m:ss, a width
 * that is no number) gets its message here, on the field that holds it.
 */
import {
  uploadEventInputSchema,
  type MediaSpec,
  type UploadEventInput,
  type UploadEventStaff,
  type UploadFormType,
} from '@avp/shared';

export const FORM_TYPES: readonly UploadFormType[] = ['creative', 'event', 'sponsor'];

export const FORM_TYPE_LABELS: Record<UploadFormType, string> = {
  creative: 'Creative Asset',
  event: 'Event Asset',
  sponsor: 'Sponsor Commercial',
};

/** Size units as formatBytes prints them (binary: a GB is 1024³ bytes, as every size the portal shows). */
export const SIZE_UNITS = { MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 } as const;
export type SizeUnit = keyof typeof SIZE_UNITS;

export const FRAME_RATE_CHOICES = ['23.976', '24', '25', '29.97', '30', '50', '59.94', '60'] as const;
export const CHANNEL_CHOICES = [
  { id: '1', label: 'Mono' },
  { id: '2', label: 'Stereo' },
  { id: '6', label: '5.1' },
  { id: '8', label: '7.1' },
] as const;
export const SAMPLE_RATE_CHOICES = [
  { id: '44100', label: '44.1 kHz' },
  { id: '48000', label: '48 kHz' },
  { id: '96000', label: '96 kHz' },
] as const;

export const DURATION_INVALID = 'Enter a duration as m:ss, e.g. 0:30 or 1:30.';
export const WIDTH_INVALID = 'Enter the width in pixels.';
export const HEIGHT_INVALID = 'Enter the height in pixels.';
export const SIZE_INVALID = 'Enter a size, e.g. 2 (with its unit).';
export const MIN_OVER_MAX = 'The shortest cannot be longer than the longest.';
export const RESOLUTION_REPEATED = 'This resolution is listed twice.';
export const TIME_INVALID = 'Enter a time, e.g. 5:00 PM.';

export interface ResolutionDraft {
  width: string;
  height: string;
}

/** One form type's media spec as the dialog holds it. */
export interface SpecDraft {
  enabled: boolean;
  containers: string[];
  videoCodecs: string[];
  resolutions: ResolutionDraft[];
  frameRates: string[];
  /** m:ss ('' for none). */
  minDuration: string;
  maxDuration: string;
  audio: 'any' | 'none' | 'some';
  audioCodecs: string[];
  audioChannels: string[];
  audioSampleRates: string[];
  maxSize: string;
  maxSizeUnit: SizeUnit;
  onMismatch: 'block' | 'warn';
}

export interface EventDraft {
  name: string;
  startsOn: string;
  endsOn: string;
  timeZone: string;
  /** The deadline's day 'YYYY-MM-DD' and time as the kit's 12-hour TimeInput holds it ('5:00 PM'). */
  deadlineDate: string;
  deadlineTime: string;
  specs: Record<UploadFormType, SpecDraft>;
}

/** '1:30' → 90, '0:05' → 5, '1:02:03' → 3723, '45' → 45 s; '' → null; anything else → undefined. */
export function parseDuration(text: string): number | null | undefined {
  const entry = text.trim();
  if (entry === '') return null;
  const match = /^(?:(\d+):)?(?:(\d+):)?(\d+(?:\.\d+)?)$/.exec(entry);
  if (!match) return undefined;
  const [, first, second, last] = match;
  const hours = second !== undefined ? Number(first) : 0;
  const minutes = second !== undefined ? Number(second) : first !== undefined ? Number(first) : 0;
  const seconds = Number(last);
  if ((first !== undefined && seconds >= 60) || (second !== undefined && minutes >= 60)) return undefined;
  return hours * 3600 + minutes * 60 + seconds;
}

/** 90 → '1:30', 5 → '0:05', 3723 → '1:02:03' (as describeMediaFacts and the check's sentences write it). */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Bytes as the largest unit that gives a round-ish amount: 2 GiB → { '2', 'GB' }. */
export function sizeDraft(bytes: number | null): { maxSize: string; maxSizeUnit: SizeUnit } {
  if (bytes === null) return { maxSize: '', maxSizeUnit: 'GB' };
  const units = Object.entries(SIZE_UNITS).reverse() as [SizeUnit, number][];
  // The largest unit whose amount (to three decimals) reads back as exactly these bytes.
  for (const [unit, factor] of units) {
    const amount = Math.round((bytes / factor) * 1000) / 1000;
    if (amount >= 1 && Math.round(amount * factor) === bytes)
      return { maxSize: String(amount), maxSizeUnit: unit };
  }
  const [unit, factor] = units.find(([, f]) => bytes >= f) ?? ['MB', SIZE_UNITS.MB];
  return { maxSize: String(Math.round((bytes / factor) * 1000) / 1000), maxSizeUnit: unit };
}

/** '2' GB → 2147483648; '' → null; no positive number → undefined. */
export function parseSize(amount: string, unit: SizeUnit): number | null | undefined {
  const entry = amount.trim().replace(',', '.');
  if (entry === '') return null;
  if (!/^\d+(\.\d+)?$/.test(entry)) return undefined;
  const bytes = Math.round(Number(entry) * SIZE_UNITS[unit]);
  return bytes > 0 ? bytes : undefined;
}

/** '5:00 PM' → '17:00', '12:30 AM' → '00:30'; anything else → null. */
export function to24h(time: string): string | null {
  const match = /^(\d{1,2}):(\d{2})\s*([AP])\.?M\.?$/i.exec(time.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  if (hour < 1 || hour > 12 || Number(match[2]) > 59) return null;
  const pm = match[3]!.toUpperCase() === 'P';
  const h24 = (hour % 12) + (pm ? 12 : 0);
  return `${String(h24).padStart(2, '0')}:${match[2]}`;
}

/** '17:00' → '5:00 PM' (the kit's TimeInput value). */
export function from24h(time: string): string {
  const [h = 0, m = 0] = time.split(':').map(Number);
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h >= 12 ? 'PM' : 'AM'}`;
}

function numberText(value: number): string {
  return String(value);
}

export function emptySpecDraft(): SpecDraft {
  return {
    enabled: false,
    containers: [],
    videoCodecs: [],
    resolutions: [],
    frameRates: [],
    minDuration: '',
    maxDuration: '',
    audio: 'any',
    audioCodecs: [],
    audioChannels: [],
    audioSampleRates: [],
    maxSize: '',
    maxSizeUnit: 'GB',
    onMismatch: 'block',
  };
}

export function specDraft(spec: MediaSpec | null): SpecDraft {
  if (spec === null) return emptySpecDraft();
  const audio = spec.audio;
  return {
    enabled: true,
    containers: [...spec.containers],
    videoCodecs: [...spec.videoCodecs],
    resolutions: spec.resolutions.map((r) => ({ width: String(r.width), height: String(r.height) })),
    frameRates: spec.frameRates.map(numberText),
    minDuration: spec.minDurationSeconds === null ? '' : formatDuration(spec.minDurationSeconds),
    maxDuration: spec.maxDurationSeconds === null ? '' : formatDuration(spec.maxDurationSeconds),
    audio: audio === null ? 'any' : audio === 'none' ? 'none' : 'some',
    audioCodecs: audio !== null && audio !== 'none' ? [...audio.codecs] : [],
    audioChannels: audio !== null && audio !== 'none' ? audio.channels.map(numberText) : [],
    audioSampleRates: audio !== null && audio !== 'none' ? audio.sampleRates.map(numberText) : [],
    ...sizeDraft(spec.maxSizeBytes),
    onMismatch: spec.onMismatch,
  };
}

export function eventDraft(event: UploadEventStaff | null, defaultZone: string): EventDraft {
  const [date = '', time = ''] = event?.deadlineLocal.split('T') ?? [];
  return {
    name: event?.name ?? '',
    startsOn: event?.startsOn ?? '',
    endsOn: event?.endsOn ?? '',
    timeZone: event?.timeZone ?? defaultZone,
    deadlineDate: date,
    deadlineTime: time ? from24h(time) : '5:00 PM',
    specs: {
      creative: specDraft(event?.specs.creative ?? null),
      event: specDraft(event?.specs.event ?? null),
      sponsor: specDraft(event?.specs.sponsor ?? null),
    },
  };
}

/** A field's message, by its path in EventDraft ('specs.event.resolutions.0.width'). */
export type DraftErrors = Record<string, string>;

function uniqueNumbers(texts: string[]): number[] {
  return [...new Set(texts.map(Number))];
}

/**
 * One form type's spec from the draft: null when not enabled. Texts that are no number or duration are
 * reported under their field (`prefix` + name); the shared schema checks the bounds afterwards.
 */
export function specFromDraft(draft: SpecDraft, prefix: string, errors: DraftErrors): MediaSpec | null {
  if (!draft.enabled) return null;
  const resolutions: MediaSpec['resolutions'] = [];
  const seen = new Set<string>();
  draft.resolutions.forEach((row, index) => {
    const width = row.width.trim();
    const height = row.height.trim();
    if (width === '' && height === '') return;
    const w = /^\d+$/.test(width) ? Number(width) : NaN;
    const h = /^\d+$/.test(height) ? Number(height) : NaN;
    if (Number.isNaN(w)) errors[`${prefix}resolutions.${index}.width`] = WIDTH_INVALID;
    if (Number.isNaN(h)) errors[`${prefix}resolutions.${index}.height`] = HEIGHT_INVALID;
    if (Number.isNaN(w) || Number.isNaN(h)) return;
    const key = `${w}x${h}`;
    if (seen.has(key)) {
      errors[`${prefix}resolutions.${index}.width`] = RESOLUTION_REPEATED;
      return;
    }
    seen.add(key);
    resolutions.push({ width: w, height: h });
  });
  const min = parseDuration(draft.minDuration);
  const max = parseDuration(draft.maxDuration);
  if (min === undefined) errors[`${prefix}minDuration`] = DURATION_INVALID;
  if (max === undefined) errors[`${prefix}maxDuration`] = DURATION_INVALID;
  if (typeof min === 'number' && typeof max === 'number' && min > max) {
    errors[`${prefix}minDuration`] = MIN_OVER_MAX;
  }
  const size = parseSize(draft.maxSize, draft.maxSizeUnit);
  if (size === undefined) errors[`${prefix}maxSize`] = SIZE_INVALID;
  return {
    containers: [...draft.containers],
    videoCodecs: [...draft.videoCodecs],
    resolutions,
    frameRates: uniqueNumbers(draft.frameRates).sort((a, b) => a - b),
    minDurationSeconds: min ?? null,
    maxDurationSeconds: max ?? null,
    audio:
      draft.audio === 'any'
        ? null
        : draft.audio === 'none'
          ? 'none'
          : {
              codecs: [...draft.audioCodecs],
              channels: uniqueNumbers(draft.audioChannels).sort((a, b) => a - b),
              sampleRates: uniqueNumbers(draft.audioSampleRates).sort((a, b) => a - b),
            },
    maxSizeBytes: size ?? null,
    onMismatch: draft.onMismatch,
  };
}

/** Where a message about the API's field (zod path or server field name) shows in the dialog. */
export function draftPath(apiPath: string): string {
  const parts = apiPath.split('.');
  if (parts[0] === 'deadline') return 'deadlineDate';
  if (parts[0] !== 'specs' || parts.length < 3) return parts[0] ?? apiPath;
  const [, type, field, ...rest] = parts;
  const at = `specs.${type}.`;
  switch (field) {
    case 'minDurationSeconds':
      return `${at}minDuration`;
    case 'maxDurationSeconds':
      return `${at}maxDuration`;
    case 'maxSizeBytes':
      return `${at}maxSize`;
    case 'resolutions':
      return rest.length >= 2 ? `${at}resolutions.${rest[0]}.${rest[1]}` : `${at}resolutions`;
    case 'audio':
      if (rest[0] === 'codecs') return `${at}audioCodecs`;
      if (rest[0] === 'channels') return `${at}audioChannels`;
      if (rest[0] === 'sampleRates') return `${at}audioSampleRates`;
      return `${at}audio`;
    default:
      return `${at}${field}`;
  }
}

/**
 * The API's input from the dialog's values, checked with the shared schema: { input } when valid, else
 * { errors } keyed by the dialog's field paths (the first message of each field).
 */
export function inputFromDraft(
  draft: EventDraft,
): { input: UploadEventInput; errors?: undefined } | { input?: undefined; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const specs = {} as Record<UploadFormType, MediaSpec | null>;
  for (const type of FORM_TYPES) specs[type] = specFromDraft(draft.specs[type], `specs.${type}.`, errors);
  let deadline = '';
  if (draft.deadlineDate !== '') {
    const time = to24h(draft.deadlineTime);
    if (time === null) errors.deadlineTime = TIME_INVALID;
    deadline = `${draft.deadlineDate}T${time ?? ''}`;
  }
  const input: UploadEventInput = {
    name: draft.name,
    startsOn: draft.startsOn,
    endsOn: draft.endsOn,
    timeZone: draft.timeZone,
    deadline,
    specs,
  };
  const parsed = uploadEventInputSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = draftPath(issue.path.map(String).join('.'));
      // A part that could not be converted keeps its own, more precise message.
      if (!(path in errors)) errors[path] = issue.message;
    }
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { input };
}

function either(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** A spec in one line for the events list: "MP4 or MOV · H.264 · 1920×1080 · 29.97 fps · 0:10–0:30 · no audio · ≤ 2 GB". */
export function describeSpec(spec: MediaSpec): string {
  const parts: string[] = [];
  if (spec.containers.length > 0) parts.push(either(spec.containers));
  if (spec.videoCodecs.length > 0) parts.push(either(spec.videoCodecs));
  if (spec.resolutions.length > 0) parts.push(either(spec.resolutions.map((r) => `${r.width}×${r.height}`)));
  if (spec.frameRates.length > 0) parts.push(`${either(spec.frameRates.map(String))} fps`);
  const min = spec.minDurationSeconds;
  const max = spec.maxDurationSeconds;
  if (min !== null && max !== null) parts.push(`${formatDuration(min)}–${formatDuration(max)}`);
  else if (min !== null) parts.push(`at least ${formatDuration(min)}`);
  else if (max !== null) parts.push(`at most ${formatDuration(max)}`);
  if (spec.audio === 'none') parts.push('no audio');
  else if (spec.audio !== null) {
    const { codecs, channels, sampleRates } = spec.audio;
    const words = [
      either(codecs),
      either(
        sampleRates.map((hz) => SAMPLE_RATE_CHOICES.find((c) => c.id === String(hz))?.label ?? `${hz} Hz`),
      ),
      either(
        channels.map(
          (n) => CHANNEL_CHOICES.find((c) => c.id === String(n))?.label.toLowerCase() ?? `${n} channels`,
        ),
      ),
    ].filter((w) => w !== '');
    parts.push(words.length > 0 ? `audio ${words.join(' ')}` : 'with audio');
  }
  if (spec.maxSizeBytes !== null) {
    const { maxSize, maxSizeUnit } = sizeDraft(spec.maxSizeBytes);
    parts.push(`up to ${maxSize} ${maxSizeUnit}`);
  }
  if (parts.length === 0) parts.push('any file');
  return `${parts.join(' · ')} (${spec.onMismatch === 'block' ? 'blocks' : 'warns'})`;
}

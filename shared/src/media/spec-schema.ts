/**
 * A media spec as staff enter it (the event form, the staff API): bounded lists, names turned into the
 * display names the reader gives ('h264' → 'H.264', 'quicktime' → 'MOV'), duplicates dropped, and the
 * cross-field rule that a slot's shortest length is not above its longest.
 */
import { z } from 'zod';
import { audioCodecDisplayName, containerDisplayName, sameName, videoCodecDisplayName } from './names.js';
import type { MediaSpec } from './types.js';

export const MEDIA_SPEC_LIST_MAX = 20;
export const MEDIA_SPEC_NAME_MAX = 40;
export const MEDIA_SPEC_PIXELS_MAX = 16384;
export const MEDIA_SPEC_FPS_MIN = 1;
export const MEDIA_SPEC_FPS_MAX = 240;
export const MEDIA_SPEC_DURATION_MAX = 86400;
/** 10 TiB. */
export const MEDIA_SPEC_SIZE_MAX = 10 * 1024 ** 4;

export const MEDIA_SPEC_LIST_TOO_LONG = `Please list at most ${MEDIA_SPEC_LIST_MAX} values.`;
export const MEDIA_SPEC_NAME_INVALID = `Please enter a name of 1 to ${MEDIA_SPEC_NAME_MAX} characters.`;
export const MEDIA_SPEC_RESOLUTION_INVALID = `Please enter a resolution as width×height, each 1 to ${MEDIA_SPEC_PIXELS_MAX} pixels (e.g. 1920×1080).`;
export const MEDIA_SPEC_FPS_INVALID = `Please enter a frame rate from ${MEDIA_SPEC_FPS_MIN} to ${MEDIA_SPEC_FPS_MAX} fps.`;
export const MEDIA_SPEC_DURATION_INVALID = `Please enter a length from 0 to ${MEDIA_SPEC_DURATION_MAX} seconds.`;
export const MEDIA_SPEC_DURATION_ORDER = 'The shortest length cannot be above the longest.';
export const MEDIA_SPEC_SIZE_INVALID = 'Please enter a largest file size from 1 byte to 10 TB.';
export const MEDIA_SPEC_CHANNELS_INVALID = 'Please enter a channel count from 1 to 64.';
export const MEDIA_SPEC_SAMPLE_RATE_INVALID = 'Please enter a sample rate from 8000 to 384000 Hz.';
export const MEDIA_SPEC_ON_MISMATCH_INVALID = 'Please choose whether a mismatch blocks the file or warns.';

/** '1920x1080', '1920×1080', '1920 X 1080' → { width, height }; null when it is no resolution. */
export function parseResolution(text: string): { width: number; height: number } | null {
  const match = /^\s*(\d{1,5})\s*[x×X]\s*(\d{1,5})\s*$/.exec(text);
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  const fits = (n: number) => n >= 1 && n <= MEDIA_SPEC_PIXELS_MAX;
  return fits(width) && fits(height) ? { width, height } : null;
}

function uniqueBy<T>(items: T[], same: (a: T, b: T) => boolean): T[] {
  const out: T[] = [];
  for (const item of items) if (!out.some((seen) => same(seen, item))) out.push(item);
  return out;
}

function nameList(display: (name: string) => string) {
  return z
    .array(
      z
        .string({ error: MEDIA_SPEC_NAME_INVALID })
        .trim()
        .min(1, MEDIA_SPEC_NAME_INVALID)
        .max(MEDIA_SPEC_NAME_MAX, MEDIA_SPEC_NAME_INVALID)
        .refine((value) => !value.includes('\u0000'), MEDIA_SPEC_NAME_INVALID)
        .transform(display),
    )
    .max(MEDIA_SPEC_LIST_MAX, MEDIA_SPEC_LIST_TOO_LONG)
    .transform((names) => uniqueBy(names, sameName));
}

const pixels = z
  .number({ error: MEDIA_SPEC_RESOLUTION_INVALID })
  .int(MEDIA_SPEC_RESOLUTION_INVALID)
  .min(1, MEDIA_SPEC_RESOLUTION_INVALID)
  .max(MEDIA_SPEC_PIXELS_MAX, MEDIA_SPEC_RESOLUTION_INVALID);

const resolution = z.union(
  [
    z.object({ width: pixels, height: pixels }),
    z.string().transform((text, ctx) => {
      const parsed = parseResolution(text);
      if (parsed === null) {
        ctx.addIssue({ code: 'custom', message: MEDIA_SPEC_RESOLUTION_INVALID });
        return z.NEVER;
      }
      return parsed;
    }),
  ],
  { error: MEDIA_SPEC_RESOLUTION_INVALID },
);

const duration = z
  .number({ error: MEDIA_SPEC_DURATION_INVALID })
  .min(0, MEDIA_SPEC_DURATION_INVALID)
  .max(MEDIA_SPEC_DURATION_MAX, MEDIA_SPEC_DURATION_INVALID)
  .nullable()
  .default(null);

function numberList(schema: z.ZodNumber) {
  return z
    .array(schema)
    .max(MEDIA_SPEC_LIST_MAX, MEDIA_SPEC_LIST_TOO_LONG)
    .transform((values) => uniqueBy(values, (a, b) => a === b));
}

const audioNeed = z.union([
  z.literal('none'),
  z.object({
    codecs: nameList(audioCodecDisplayName).default([]),
    channels: numberList(
      z
        .number({ error: MEDIA_SPEC_CHANNELS_INVALID })
        .int(MEDIA_SPEC_CHANNELS_INVALID)
        .min(1, MEDIA_SPEC_CHANNELS_INVALID)
        .max(64, MEDIA_SPEC_CHANNELS_INVALID),
    ).default([]),
    sampleRates: numberList(
      z
        .number({ error: MEDIA_SPEC_SAMPLE_RATE_INVALID })
        .int(MEDIA_SPEC_SAMPLE_RATE_INVALID)
        .min(8000, MEDIA_SPEC_SAMPLE_RATE_INVALID)
        .max(384000, MEDIA_SPEC_SAMPLE_RATE_INVALID),
    ).default([]),
  }),
  z.null(),
]);

/** Validates and normalises a MediaSpec; absent lists are "any" (empty), absent limits null. */
export const mediaSpecSchema = z
  .object({
    containers: nameList(containerDisplayName).default([]),
    videoCodecs: nameList(videoCodecDisplayName).default([]),
    resolutions: z
      .array(resolution)
      .max(MEDIA_SPEC_LIST_MAX, MEDIA_SPEC_LIST_TOO_LONG)
      .transform((list) => uniqueBy(list, (a, b) => a.width === b.width && a.height === b.height))
      .default([]),
    frameRates: numberList(
      z
        .number({ error: MEDIA_SPEC_FPS_INVALID })
        .min(MEDIA_SPEC_FPS_MIN, MEDIA_SPEC_FPS_INVALID)
        .max(MEDIA_SPEC_FPS_MAX, MEDIA_SPEC_FPS_INVALID),
    ).default([]),
    minDurationSeconds: duration,
    maxDurationSeconds: duration,
    audio: audioNeed.default(null),
    maxSizeBytes: z
      .number({ error: MEDIA_SPEC_SIZE_INVALID })
      .int(MEDIA_SPEC_SIZE_INVALID)
      .min(1, MEDIA_SPEC_SIZE_INVALID)
      .max(MEDIA_SPEC_SIZE_MAX, MEDIA_SPEC_SIZE_INVALID)
      .nullable()
      .default(null),
    onMismatch: z.enum(['block', 'warn'], { error: MEDIA_SPEC_ON_MISMATCH_INVALID }),
  })
  .superRefine((spec, ctx) => {
    if (
      spec.minDurationSeconds !== null &&
      spec.maxDurationSeconds !== null &&
      spec.minDurationSeconds > spec.maxDurationSeconds
    ) {
      ctx.addIssue({ code: 'custom', path: ['minDurationSeconds'], message: MEDIA_SPEC_DURATION_ORDER });
    }
  }) satisfies z.ZodType<MediaSpec, unknown>;

export type MediaSpecInput = z.input<typeof mediaSpecSchema>;

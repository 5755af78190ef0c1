import { describe, expect, it } from 'vitest';
import {
  MEDIA_SPEC_DURATION_ORDER,
  MEDIA_SPEC_FPS_INVALID,
  MEDIA_SPEC_LIST_TOO_LONG,
  MEDIA_SPEC_RESOLUTION_INVALID,
  MEDIA_SPEC_SIZE_INVALID,
  mediaSpecSchema,
  parseResolution,
} from './spec-schema.js';
import { audioCodecDisplayName, containerDisplayName, videoCodecDisplayName } from './names.js';

function messages(input: unknown): string[] {
  const result = mediaSpecSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('mediaSpecSchema', () => {
  it('fills what is left out with "any"', () => {
    expect(mediaSpecSchema.parse({ onMismatch: 'warn' })).toEqual({
      containers: [],
      videoCodecs: [],
      resolutions: [],
      frameRates: [],
      minDurationSeconds: null,
      maxDurationSeconds: null,
      audio: null,
      maxSizeBytes: null,
      onMismatch: 'warn',
    });
  });

  it('turns typed names into display names and drops repeats', () => {
    const spec = mediaSpecSchema.parse({
      containers: [' mp4 ', 'quicktime', 'MOV'],
      videoCodecs: ['h264', 'AVC', 'h.265', 'Apple ProRes'],
      resolutions: ['1920x1080', { width: 1920, height: 1080 }, '3840 × 2160'],
      frameRates: [29.97, 29.97, 25],
      audio: { codecs: ['aac'], channels: [2], sampleRates: [48000] },
      onMismatch: 'block',
    });
    expect(spec.containers).toEqual(['MP4', 'MOV']);
    expect(spec.videoCodecs).toEqual(['H.264', 'HEVC', 'ProRes']);
    expect(spec.resolutions).toEqual([
      { width: 1920, height: 1080 },
      { width: 3840, height: 2160 },
    ]);
    expect(spec.frameRates).toEqual([29.97, 25]);
    expect(spec.audio).toEqual({ codecs: ['AAC'], channels: [2], sampleRates: [48000] });
    expect(mediaSpecSchema.parse({ audio: 'none', onMismatch: 'block' }).audio).toBe('none');
  });

  it('keeps every bound', () => {
    expect(messages({ resolutions: [{ width: 0, height: 1080 }], onMismatch: 'block' })).toEqual([
      MEDIA_SPEC_RESOLUTION_INVALID,
    ]);
    expect(messages({ resolutions: ['16385x100'], onMismatch: 'block' })).toEqual([
      MEDIA_SPEC_RESOLUTION_INVALID,
    ]);
    expect(messages({ resolutions: [{ width: 16384, height: 16384 }], onMismatch: 'block' })).toEqual([]);
    expect(messages({ frameRates: [0.5], onMismatch: 'block' })).toEqual([MEDIA_SPEC_FPS_INVALID]);
    expect(messages({ frameRates: [241], onMismatch: 'block' })).toEqual([MEDIA_SPEC_FPS_INVALID]);
    expect(messages({ frameRates: [240, 1], onMismatch: 'block' })).toEqual([]);
    expect(messages({ maxDurationSeconds: 86401, onMismatch: 'block' })).toHaveLength(1);
    expect(messages({ minDurationSeconds: -1, onMismatch: 'block' })).toHaveLength(1);
    expect(messages({ maxSizeBytes: 10 * 1024 ** 4, onMismatch: 'block' })).toEqual([]);
    expect(messages({ maxSizeBytes: 10 * 1024 ** 4 + 1, onMismatch: 'block' })).toEqual([
      MEDIA_SPEC_SIZE_INVALID,
    ]);
    expect(messages({ maxSizeBytes: 0, onMismatch: 'block' })).toEqual([MEDIA_SPEC_SIZE_INVALID]);
    expect(
      messages({ containers: Array.from({ length: 21 }, (_, i) => `F${i}`), onMismatch: 'block' }),
    ).toEqual([MEDIA_SPEC_LIST_TOO_LONG]);
    expect(
      messages({ containers: Array.from({ length: 20 }, (_, i) => `F${i}`), onMismatch: 'block' }),
    ).toEqual([]);
    expect(messages({ containers: [''], onMismatch: 'block' })).toHaveLength(1);
    expect(messages({ containers: ['x'.repeat(41)], onMismatch: 'block' })).toHaveLength(1);
    expect(messages({ audio: { channels: [0] }, onMismatch: 'block' })).toHaveLength(1);
    expect(messages({ audio: { sampleRates: [1000] }, onMismatch: 'block' })).toHaveLength(1);
    expect(messages({})).toHaveLength(1);
    expect(messages({ onMismatch: 'ignore' })).toHaveLength(1);
  });

  it('refuses a shortest length above the longest', () => {
    const result = mediaSpecSchema.safeParse({
      minDurationSeconds: 40,
      maxDurationSeconds: 30,
      onMismatch: 'warn',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['minDurationSeconds'],
      message: MEDIA_SPEC_DURATION_ORDER,
    });
    expect(messages({ minDurationSeconds: 30, maxDurationSeconds: 30, onMismatch: 'warn' })).toEqual([]);
  });
});

describe('parseResolution', () => {
  it('reads width×height however the x is typed', () => {
    expect(parseResolution('1920x1080')).toEqual({ width: 1920, height: 1080 });
    expect(parseResolution(' 1280 × 720 ')).toEqual({ width: 1280, height: 720 });
    expect(parseResolution('3840X2160')).toEqual({ width: 3840, height: 2160 });
    expect(parseResolution('1920')).toBeNull();
    expect(parseResolution('0x10')).toBeNull();
  });
});

describe('display names', () => {
  it('say what MediaInfoLib and people call things as the screens do', () => {
    expect(videoCodecDisplayName('AVC')).toBe('H.264');
    expect(videoCodecDisplayName('HEVC')).toBe('HEVC');
    expect(videoCodecDisplayName('ProRes')).toBe('ProRes');
    expect(containerDisplayName('MPEG-4')).toBe('MP4');
    expect(containerDisplayName('QuickTime')).toBe('MOV');
    expect(containerDisplayName('Matroska')).toBe('MKV');
    expect(audioCodecDisplayName('AAC LC')).toBe('AAC');
    expect(videoCodecDisplayName('Something New')).toBe('Something New');
  });
});

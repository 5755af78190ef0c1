import { describe, expect, it } from 'vitest';
import {
  MEDIA_UNREADABLE,
  describeMediaFacts,
  formatChannels,
  formatDuration,
  formatFrameRate,
  formatSampleRate,
} from './describe.js';
import type { MediaFacts } from './types.js';

const base: MediaFacts = {
  kind: 'video',
  container: 'MP4',
  videoCodec: 'H.264',
  width: 1920,
  height: 1080,
  fps: 30000 / 1001,
  durationSeconds: 29.97,
  audio: { codec: 'AAC', channels: 2, sampleRate: 48000 },
  sizeBytes: 1000,
};

describe('describeMediaFacts', () => {
  it('words a video as a file row shows it', () => {
    expect(describeMediaFacts(base)).toBe('1920×1080 · H.264 · 29.97 fps · 0:30 · AAC 48 kHz stereo');
    expect(describeMediaFacts({ ...base, audio: null, fps: 25, durationSeconds: 2 })).toBe(
      '1920×1080 · H.264 · 25 fps · 0:02 · no audio',
    );
  });

  it('leaves out what the file does not give', () => {
    expect(describeMediaFacts({ ...base, fps: null, durationSeconds: null })).toBe(
      '1920×1080 · H.264 · AAC 48 kHz stereo',
    );
    expect(
      describeMediaFacts({
        ...base,
        width: null,
        height: null,
        videoCodec: null,
        fps: null,
        durationSeconds: null,
        audio: null,
        sizeBytes: 2_516_582,
      }),
    ).toBe('Video · 2.4 MB');
  });

  it('words an image by its pixels and format', () => {
    expect(
      describeMediaFacts({
        ...base,
        kind: 'image',
        container: 'JPEG',
        videoCodec: null,
        width: 3000,
        height: 2000,
        fps: null,
        durationSeconds: null,
        audio: null,
      }),
    ).toBe('3000×2000 · JPEG');
  });

  it('words an audio file by its audio and length', () => {
    expect(
      describeMediaFacts({
        ...base,
        kind: 'audio',
        container: 'M4A',
        videoCodec: null,
        width: null,
        height: null,
        fps: null,
        durationSeconds: 192,
      }),
    ).toBe('AAC 48 kHz stereo · 3:12');
  });

  it('words anything else by kind and size', () => {
    expect(
      describeMediaFacts({
        ...base,
        kind: 'other',
        container: null,
        videoCodec: null,
        width: null,
        height: null,
        fps: null,
        durationSeconds: null,
        audio: null,
        sizeBytes: 2_516_582,
      }),
    ).toBe('Document · 2.4 MB');
  });

  it('leaves out the audio facts and the pieces the file does not give, down to kind and size', () => {
    const audioFile: MediaFacts = {
      ...base,
      kind: 'audio',
      videoCodec: null,
      width: null,
      height: null,
      fps: null,
    };
    expect(describeMediaFacts({ ...audioFile, audio: { codec: 'PCM', channels: 2, sampleRate: null } })).toBe(
      'PCM stereo · 0:30',
    );
    expect(describeMediaFacts({ ...audioFile, audio: { codec: 'PCM', channels: 0, sampleRate: 0 } })).toBe(
      'PCM · 0:30',
    );
    expect(
      describeMediaFacts({ ...audioFile, audio: { codec: 'AAC', channels: null, sampleRate: 44100 } }),
    ).toBe('AAC 44.1 kHz · 0:30');
    expect(
      describeMediaFacts({ ...audioFile, audio: null, durationSeconds: null, sizeBytes: 2_516_582 }),
    ).toBe('Audio · 2.4 MB');
    const imageFile: MediaFacts = { ...audioFile, kind: 'image', audio: null, durationSeconds: null };
    expect(describeMediaFacts({ ...imageFile, container: null, width: 3000, height: 2000 })).toBe(
      '3000×2000',
    );
    expect(describeMediaFacts({ ...imageFile, container: null, sizeBytes: 2_516_582 })).toBe(
      'Image · 2.4 MB',
    );
    // A size that is no size is left out too.
    expect(describeMediaFacts({ ...imageFile, container: null, sizeBytes: -1 })).toBe('Image');
    expect(describeMediaFacts({ ...imageFile, container: null, sizeBytes: Number.NaN })).toBe('Image');
  });

  it('says it could not read a file it could not', () => {
    expect(describeMediaFacts(null)).toBe("Could not read this file's details");
    expect(MEDIA_UNREADABLE).toBe("Could not read this file's details");
  });
});

describe('the pieces', () => {
  it('rounds frame rates to three decimals, without trailing zeros', () => {
    expect(formatFrameRate(25)).toBe('25');
    expect(formatFrameRate(30000 / 1001)).toBe('29.97');
    expect(formatFrameRate(24000 / 1001)).toBe('23.976');
    expect(formatFrameRate(60000 / 1001)).toBe('59.94');
    expect(formatFrameRate(59.9999)).toBe('60');
  });

  it('rounds durations to the nearest second', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(0.49)).toBe('0:00');
    expect(formatDuration(4.5)).toBe('0:05');
    expect(formatDuration(59.6)).toBe('1:00');
    expect(formatDuration(720)).toBe('12:00');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(-1)).toBe('0:00');
  });

  it('words sample rates and channels', () => {
    expect(formatSampleRate(48000)).toBe('48 kHz');
    expect(formatSampleRate(44100)).toBe('44.1 kHz');
    expect(formatSampleRate(96000)).toBe('96 kHz');
    expect([1, 2, 4, 6, 8].map(formatChannels)).toEqual(['mono', 'stereo', '4 channels', '5.1', '7.1']);
  });
});

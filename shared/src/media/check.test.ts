import { describe, expect, it } from 'vitest';
import { checkMediaFacts, orList } from './check.js';
import type { MediaFacts, MediaSpec } from './types.js';

const GB = 1024 ** 3;

function facts(over: Partial<MediaFacts> = {}): MediaFacts {
  return {
    kind: 'video',
    container: 'MP4',
    videoCodec: 'H.264',
    width: 1920,
    height: 1080,
    fps: 29.97002997,
    durationSeconds: 30.03,
    audio: { codec: 'AAC', channels: 2, sampleRate: 48000 },
    sizeBytes: 40 * 1024 * 1024,
    ...over,
  };
}

function spec(over: Partial<MediaSpec> = {}): MediaSpec {
  return {
    containers: [],
    videoCodecs: [],
    resolutions: [],
    frameRates: [],
    minDurationSeconds: null,
    maxDurationSeconds: null,
    audio: null,
    maxSizeBytes: null,
    onMismatch: 'block',
    ...over,
  };
}

const full = spec({
  containers: ['MP4', 'MOV'],
  videoCodecs: ['H.264'],
  resolutions: [{ width: 1920, height: 1080 }],
  frameRates: [29.97],
  minDurationSeconds: 10,
  maxDurationSeconds: 30,
  audio: { codecs: ['AAC'], channels: [2], sampleRates: [48000] },
  maxSizeBytes: 2 * GB,
});

describe('checkMediaFacts', () => {
  it('passes anything when there is no spec, even a file it could not read', () => {
    expect(checkMediaFacts(null, facts({ width: 1, height: 1 }))).toEqual({ verdict: 'ok', issues: [] });
    expect(checkMediaFacts(null, null)).toEqual({ verdict: 'ok', issues: [] });
  });

  it('calls a file it could not read unreadable, with no issues, whatever the spec', () => {
    expect(checkMediaFacts(full, null)).toEqual({ verdict: 'unreadable', issues: [] });
  });

  it('passes a file that meets every rule (29.97 fps as 30000/1001, 30.03 s as 0:30)', () => {
    expect(checkMediaFacts(full, facts())).toEqual({ verdict: 'ok', issues: [] });
  });

  it('names the resolution needed and the file’s', () => {
    const check = checkMediaFacts(full, facts({ width: 1280, height: 720 }));
    expect(check).toEqual({
      verdict: 'block',
      issues: ['The screens need 1920×1080; this file is 1280×720.'],
    });
    const two = spec({
      resolutions: [
        { width: 1920, height: 1080 },
        { width: 3840, height: 2160 },
      ],
    });
    expect(checkMediaFacts(two, facts({ width: 1280, height: 720 })).issues).toEqual([
      'The screens need 1920×1080 or 3840×2160; this file is 1280×720.',
    ]);
    expect(checkMediaFacts(two, facts({ width: 3840, height: 2160 })).verdict).toBe('ok');
    // Portrait is another resolution.
    expect(checkMediaFacts(two, facts({ width: 1080, height: 1920 })).verdict).toBe('block');
  });

  it('names the codec and the container, matching names however they are spelt', () => {
    expect(checkMediaFacts(full, facts({ videoCodec: 'ProRes' })).issues).toEqual([
      'The screens need H.264; this file is ProRes.',
    ]);
    expect(checkMediaFacts(full, facts({ container: 'MKV' })).issues).toEqual([
      'The screens need MP4 or MOV; this file is MKV.',
    ]);
    const typed = spec({ containers: ['mp4', 'quicktime'], videoCodecs: ['h264', 'hevc'] });
    expect(checkMediaFacts(typed, facts({ container: 'MOV', videoCodec: 'HEVC' })).verdict).toBe('ok');
  });

  it('compares frame rates to 0.01 and words them as engineers do', () => {
    expect(checkMediaFacts(full, facts({ fps: 25 })).issues).toEqual([
      'The screens need 29.97 fps; this file is 25 fps.',
    ]);
    expect(checkMediaFacts(spec({ frameRates: [23.98] }), facts({ fps: 23.976 })).verdict).toBe('ok');
    expect(checkMediaFacts(spec({ frameRates: [29.97] }), facts({ fps: 29.98 })).verdict).toBe('ok');
    expect(checkMediaFacts(spec({ frameRates: [29.97] }), facts({ fps: 29.985 })).verdict).toBe('block');
    expect(checkMediaFacts(spec({ frameRates: [25, 29.97, 50] }), facts({ fps: 60 })).issues).toEqual([
      'The screens need 25, 29.97 or 50 fps; this file is 60 fps.',
    ]);
    expect(checkMediaFacts(spec({ frameRates: [30] }), facts({ fps: 23.976 })).issues).toEqual([
      'The screens need 30 fps; this file is 23.976 fps.',
    ]);
  });

  it('words the slot’s length and the file’s, rounded to the second', () => {
    expect(checkMediaFacts(full, facts({ durationSeconds: 90 })).issues).toEqual([
      'The slot is at most 0:30; this file runs 1:30.',
    ]);
    expect(checkMediaFacts(full, facts({ durationSeconds: 5 })).issues).toEqual([
      'The slot is at least 0:10; this file runs 0:05.',
    ]);
    expect(checkMediaFacts(full, facts({ durationSeconds: 30.49 })).verdict).toBe('ok');
    expect(checkMediaFacts(full, facts({ durationSeconds: 30.5 })).issues).toEqual([
      'The slot is at most 0:30; this file runs 0:31.',
    ]);
    expect(
      checkMediaFacts(spec({ maxDurationSeconds: 3600 }), facts({ durationSeconds: 3723 })).issues,
    ).toEqual(['The slot is at most 1:00:00; this file runs 1:02:03.']);
  });

  it('checks the audio: none wanted, none there, or the wrong kind', () => {
    expect(checkMediaFacts(spec({ audio: 'none' }), facts()).issues).toEqual([
      'The screens need no audio; this file has AAC 48 kHz stereo.',
    ]);
    expect(checkMediaFacts(spec({ audio: 'none' }), facts({ audio: null })).verdict).toBe('ok');
    expect(checkMediaFacts(full, facts({ audio: null })).issues).toEqual([
      'The screens need AAC 48 kHz stereo audio; this file has none.',
    ]);
    const aac = spec({ audio: { codecs: ['AAC'], channels: [], sampleRates: [] } });
    expect(checkMediaFacts(aac, facts({ audio: null })).issues).toEqual([
      'The screens need AAC audio; this file has none.',
    ]);
    const any = spec({ audio: { codecs: [], channels: [], sampleRates: [] } });
    expect(checkMediaFacts(any, facts({ audio: null })).issues).toEqual([
      'The screens need audio; this file has none.',
    ]);
    expect(
      checkMediaFacts(full, facts({ audio: { codec: 'PCM', channels: 6, sampleRate: 44100 } })).issues,
    ).toEqual([
      'The screens need AAC audio; this file has PCM audio.',
      'The screens need 48 kHz audio; this file has 44.1 kHz audio.',
      'The screens need stereo audio; this file has 5.1 audio.',
    ]);
    // Channels and rate the file does not give are no mismatch.
    expect(
      checkMediaFacts(full, facts({ audio: { codec: 'AAC', channels: null, sampleRate: null } })).verdict,
    ).toBe('ok');
  });

  it('names the largest size in the units of the size formatter', () => {
    expect(checkMediaFacts(full, facts({ sizeBytes: Math.round(3.1 * GB) })).issues).toEqual([
      'The largest file the event takes is 2 GB; this file is 3.1 GB.',
    ]);
    // Sizes that round alike are said in bytes, so the sentence still shows the difference.
    expect(checkMediaFacts(spec({ maxSizeBytes: 2 * GB }), facts({ sizeBytes: 2 * GB + 1 })).issues).toEqual([
      'The largest file the event takes is 2,147,483,648 bytes; this file is 2,147,483,649 bytes.',
    ]);
    expect(checkMediaFacts(spec({ maxSizeBytes: 2 * GB }), facts({ sizeBytes: 2 * GB })).verdict).toBe('ok');
  });

  it('does not count a fact the file does not give as a mismatch', () => {
    const unknown = facts({
      container: null,
      videoCodec: null,
      width: null,
      height: null,
      fps: null,
      durationSeconds: null,
    });
    expect(checkMediaFacts(full, unknown)).toEqual({ verdict: 'ok', issues: [] });
  });

  it('lists every mismatch in order; a warning spec warns instead of blocking', () => {
    const wrong = facts({ container: 'MOV', videoCodec: 'ProRes', width: 1280, height: 720, fps: 25 });
    const blocked = checkMediaFacts(full, wrong);
    expect(blocked.verdict).toBe('block');
    expect(blocked.issues).toEqual([
      'The screens need H.264; this file is ProRes.',
      'The screens need 1920×1080; this file is 1280×720.',
      'The screens need 29.97 fps; this file is 25 fps.',
    ]);
    expect(checkMediaFacts({ ...full, onMismatch: 'warn' }, wrong)).toEqual({
      verdict: 'warn',
      issues: blocked.issues,
    });
  });

  it('holds images, audio files and documents to the size only', () => {
    const image = facts({
      kind: 'image',
      container: 'PNG',
      videoCodec: null,
      fps: null,
      durationSeconds: null,
      audio: null,
      width: 3000,
      height: 2000,
    });
    expect(checkMediaFacts(full, image).verdict).toBe('ok');
    const track = facts({
      kind: 'audio',
      container: 'WAV',
      videoCodec: null,
      width: null,
      height: null,
      fps: null,
      durationSeconds: 192,
      audio: { codec: 'PCM', channels: 2, sampleRate: 44100 },
    });
    expect(checkMediaFacts(full, track).verdict).toBe('ok');
    const doc = facts({
      kind: 'other',
      container: null,
      videoCodec: null,
      width: null,
      height: null,
      fps: null,
      durationSeconds: null,
      audio: null,
      sizeBytes: 3 * GB,
    });
    expect(checkMediaFacts(full, doc)).toEqual({
      verdict: 'block',
      issues: ['The largest file the event takes is 2 GB; this file is 3 GB.'],
    });
  });
});

describe('orList', () => {
  it('joins as a sentence does', () => {
    expect(orList([])).toBe('');
    expect(orList(['MP4'])).toBe('MP4');
    expect(orList(['MP4', 'MOV'])).toBe('MP4 or MOV');
    expect(orList(['MP4', 'MOV', 'MXF'])).toBe('MP4, MOV or MXF');
  });
});

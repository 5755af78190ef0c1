import type { MediaSpec, UploadEventPublic } from '@avp/shared';
import { describe, expect, it } from 'vitest';
import { blockedReason } from './UploadForms';
import { appliedSpec, describeNeeds, specNote } from './media-spec';

const SPEC: MediaSpec = {
  containers: ['MP4', 'MOV'],
  videoCodecs: ['H.264'],
  resolutions: [
    { width: 1920, height: 1080 },
    { width: 3840, height: 2160 },
  ],
  frameRates: [29.97],
  minDurationSeconds: null,
  maxDurationSeconds: 30,
  audio: 'none',
  maxSizeBytes: 2 * 1024 ** 3,
  onMismatch: 'block',
};

const EVENT: UploadEventPublic = {
  id: 'ev1',
  name: 'Spring Summit',
  startsOn: '2027-03-01',
  endsOn: '2027-03-03',
  timeZone: 'America/Chicago',
  deadline: '2027-02-25T23:00:00.000Z',
  deadlineText: 'Feb 25, 2027, 5:00 PM CST',
  specs: { creative: null, event: null, sponsor: SPEC },
};

describe('which event’s spec a form’s files meet', () => {
  it('is the open event named by trimmed, case-insensitive equality (the server’s rule)', () => {
    expect(appliedSpec([EVENT], '  spring SUMMIT ', 'sponsor')).toEqual({ event: EVENT, spec: SPEC });
    expect(appliedSpec([EVENT], 'Spring Summit', 'event')).toEqual({ event: EVENT, spec: null });
  });

  it('is none for free text, a part of a name, the creative form or no events', () => {
    expect(appliedSpec([EVENT], 'Spring Summit 2027', 'sponsor')).toBeNull();
    expect(appliedSpec([EVENT], 'Spring', 'sponsor')).toBeNull();
    expect(appliedSpec([EVENT], '', 'sponsor')).toBeNull();
    expect(appliedSpec([EVENT], 'Spring Summit', 'creative')).toBeNull();
    expect(appliedSpec(undefined, 'Spring Summit', 'sponsor')).toBeNull();
  });
});

describe('what the screens need, in words', () => {
  it('lists every need of the spec', () => {
    expect(describeNeeds(SPEC)).toBe(
      'MP4 or MOV · H.264 · 1920×1080 or 3840×2160 · 29.97 fps · at most 0:30 long · no audio · up to 2 GB',
    );
  });

  it('names the event, the rule and the deadline under the field; nothing for free text', () => {
    expect(specNote({ event: EVENT, spec: SPEC })).toBe(
      'Spring Summit’s screens need MP4 or MOV · H.264 · 1920×1080 or 3840×2160 · 29.97 fps · at most 0:30 long · no audio · up to 2 GB. A file that does not match cannot be sent. Uploads close Feb 25, 2027, 5:00 PM CST.',
    );
    expect(specNote({ event: EVENT, spec: { ...SPEC, onMismatch: 'warn' } })).toContain(
      'A file that does not match is sent with a note for our team.',
    );
    expect(specNote({ event: EVENT, spec: null })).toBe(
      'Spring Summit does not check these files. Uploads close Feb 25, 2027, 5:00 PM CST.',
    );
    expect(specNote(null)).toBeNull();
  });
});

describe('why the form cannot be sent', () => {
  const file = (name: string) => new File(['x'], name);
  it('names the blocked file, or counts and names several', () => {
    const applied = { event: EVENT, spec: SPEC };
    expect(blockedReason([file('spot.mp4')], applied)).toBe(
      'spot.mp4 does not meet what Spring Summit’s screens need, so it cannot be sent. Remove it or choose another file.',
    );
    expect(blockedReason([file('a.mp4'), file('b.mov')], applied)).toBe(
      '2 files do not meet what Spring Summit’s screens need, so they cannot be sent: a.mp4, b.mov. Remove them or choose other files.',
    );
    expect(blockedReason([], applied)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  deadlineInstant,
  deadlineLocal,
  eventNameKey,
  formatDeadline,
  isTimeZone,
  mediaFactsSchema,
  UPLOAD_EVENT_DEADLINE_INVALID,
  UPLOAD_EVENT_DEADLINE_REQUIRED,
  UPLOAD_EVENT_DEADLINE_SKIPPED,
  UPLOAD_EVENT_ENDS_BEFORE_START,
  UPLOAD_EVENT_NAME_REQUIRED,
  UPLOAD_EVENT_ZONE_REQUIRED,
  UPLOAD_EVENT_ZONE_UNKNOWN,
  uploadEventInputSchema,
  uploadsClosed,
} from './upload-event.js';

const VALID = {
  name: '  Expo   2027 ',
  startsOn: '2027-03-03',
  endsOn: '2027-03-05',
  timeZone: 'America/New_York',
  deadline: '2027-03-01T17:00',
};

function messages(input: unknown): Record<string, string> {
  const result = uploadEventInputSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('upload event input', () => {
  it('takes a valid event, tidies its name and gives each form type no spec by default', () => {
    expect(uploadEventInputSchema.parse(VALID)).toEqual({
      ...VALID,
      name: 'Expo 2027',
      specs: { creative: null, event: null, sponsor: null },
    });
  });

  it('names each missing or wrong field', () => {
    expect(messages({})).toMatchObject({
      name: UPLOAD_EVENT_NAME_REQUIRED,
      timeZone: UPLOAD_EVENT_ZONE_REQUIRED,
      deadline: UPLOAD_EVENT_DEADLINE_REQUIRED,
    });
    expect(
      messages({ ...VALID, endsOn: '2027-03-02', timeZone: 'Mars/Base', deadline: '2027-02-30T17:00' }),
    ).toEqual({
      endsOn: UPLOAD_EVENT_ENDS_BEFORE_START,
      timeZone: UPLOAD_EVENT_ZONE_UNKNOWN,
      deadline: UPLOAD_EVENT_DEADLINE_INVALID,
    });
    expect(messages({ ...VALID, name: 'x'.repeat(121) })).toEqual({
      name: 'Please use at most 120 characters.',
    });
    // New York's clocks skip from 2:00 to 3:00 on 14 March 2027.
    expect(messages({ ...VALID, deadline: '2027-03-14T02:30' })).toEqual({
      deadline: UPLOAD_EVENT_DEADLINE_SKIPPED,
    });
  });

  it('checks each spec with the shared spec schema', () => {
    const result = messages({ ...VALID, specs: { sponsor: { onMismatch: 'maybe' } } });
    expect(Object.keys(result)).toEqual(['specs.sponsor.onMismatch']);
  });
});

describe('deadlines in the event’s zone', () => {
  it('turns a wall-clock time into an instant and back, and says it in words with the zone', () => {
    const instant = deadlineInstant('2027-03-03T17:00', 'America/New_York')!;
    expect(instant.toISOString()).toBe('2027-03-03T22:00:00.000Z');
    expect(deadlineLocal(instant, 'America/New_York')).toBe('2027-03-03T17:00');
    expect(formatDeadline(instant, 'America/New_York')).toBe('Mar 3, 2027, 5:00 PM EST');
    expect(formatDeadline(new Date('2027-07-01T16:00:00Z'), 'America/New_York')).toBe(
      'Jul 1, 2027, 12:00 PM EDT',
    );
    expect(uploadsClosed('Expo 2027', 'Mar 3, 2027, 5:00 PM EST')).toBe(
      'Uploads for Expo 2027 closed on Mar 3, 2027, 5:00 PM EST.',
    );
  });

  it('refuses what is no such time', () => {
    expect(deadlineInstant('2027-03-14T02:30', 'America/New_York')).toBeNull();
    expect(deadlineInstant('2027-03-03 17:00', 'America/New_York')).toBeNull();
    expect(deadlineInstant('2027-02-30T17:00', 'UTC')).toBeNull();
    expect(deadlineInstant('2027-03-03T17:00', 'Nowhere/City')).toBeNull();
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('Europe/London')).toBe(true);
  });

  it('compares names trimmed and case-folded', () => {
    expect(eventNameKey('  EXPO   2027 ')).toBe(eventNameKey('expo 2027'));
    expect(eventNameKey('Expo 2027')).not.toBe(eventNameKey('Expo 2028'));
  });
});

describe('media facts a client reports', () => {
  const facts = {
    kind: 'video',
    container: 'MP4',
    videoCodec: 'H.264',
    width: 1920,
    height: 1080,
    fps: 29.97,
    durationSeconds: 30,
    audio: { codec: 'AAC', channels: 2, sampleRate: 48000 },
    sizeBytes: 1000,
  };
  it('takes a reader’s facts and bounds them', () => {
    expect(mediaFactsSchema.parse(facts)).toEqual(facts);
    expect(mediaFactsSchema.safeParse({ ...facts, width: -1 }).success).toBe(false);
    expect(mediaFactsSchema.safeParse({ ...facts, container: 'x'.repeat(65) }).success).toBe(false);
    expect(mediaFactsSchema.safeParse({ ...facts, kind: 'hologram' }).success).toBe(false);
  });
});

import type { MediaSpec, UploadEventStaff } from '@avp/shared';
import { describe, expect, it } from 'vitest';
import {
  DURATION_INVALID,
  emptySpecDraft,
  eventDraft,
  formatDuration,
  from24h,
  HEIGHT_INVALID,
  inputFromDraft,
  MIN_OVER_MAX,
  parseDuration,
  parseSize,
  RESOLUTION_REPEATED,
  SIZE_INVALID,
  sizeDraft,
  specDraft,
  specFromDraft,
  to24h,
  WIDTH_INVALID,
  type EventDraft,
  type SpecDraft,
} from './UploadEventsSpec';

const GB = 1024 ** 3;

const SPEC: MediaSpec = {
  containers: ['MP4', 'MOV'],
  videoCodecs: ['H.264'],
  resolutions: [
    { width: 1920, height: 1080 },
    { width: 3840, height: 2160 },
  ],
  frameRates: [25, 29.97],
  minDurationSeconds: 10,
  maxDurationSeconds: 30,
  audio: { codecs: ['AAC'], channels: [2], sampleRates: [48000] },
  maxSizeBytes: 2 * GB,
  onMismatch: 'warn',
};

function draft(overrides: Partial<SpecDraft> = {}): SpecDraft {
  return { ...emptySpecDraft(), enabled: true, ...overrides };
}

function eventValues(overrides: Partial<EventDraft> = {}): EventDraft {
  return {
    ...eventDraft(null, 'America/New_York'),
    name: 'Spring Summit',
    startsOn: '2027-03-01',
    endsOn: '2027-03-03',
    deadlineDate: '2027-02-25',
    deadlineTime: '5:00 PM',
    ...overrides,
  };
}

describe('durations as staff type them (m:ss)', () => {
  it.each([
    ['0:30', 30],
    ['1:30', 90],
    ['0:05', 5],
    ['45', 45],
    ['1:02:03', 3723],
    [' 2:00 ', 120],
    ['', null],
  ])('%j is %j seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['1:75', 'abc', '1:', ':30', '-0:30', '1:60:00'])('%j is no duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('writes seconds back as m:ss (h:mm:ss past the hour), and reads back what it writes', () => {
    expect(formatDuration(30)).toBe('0:30');
    expect(formatDuration(90)).toBe('1:30');
    expect(formatDuration(3723)).toBe('1:02:03');
    for (const seconds of [0, 5, 59, 60, 599, 3600, 86400]) {
      expect(parseDuration(formatDuration(seconds))).toBe(seconds);
    }
  });
});

describe('sizes (binary units, as formatBytes prints them)', () => {
  it('reads an amount and its unit as bytes', () => {
    expect(parseSize('2', 'GB')).toBe(2 * GB);
    expect(parseSize('1.5', 'GB')).toBe(1.5 * GB);
    expect(parseSize('1,5', 'GB')).toBe(1.5 * GB);
    expect(parseSize('500', 'MB')).toBe(500 * 1024 ** 2);
    expect(parseSize('', 'GB')).toBeNull();
    expect(parseSize('0', 'GB')).toBeUndefined();
    expect(parseSize('two', 'GB')).toBeUndefined();
    expect(parseSize('-1', 'GB')).toBeUndefined();
  });

  it('shows bytes in the largest unit that reads back the same', () => {
    expect(sizeDraft(2 * GB)).toEqual({ maxSize: '2', maxSizeUnit: 'GB' });
    expect(sizeDraft(1024 ** 4)).toEqual({ maxSize: '1', maxSizeUnit: 'TB' });
    expect(sizeDraft(1536 * 1024 ** 2)).toEqual({ maxSize: '1.5', maxSizeUnit: 'GB' });
    expect(sizeDraft(700 * 1024 ** 2)).toEqual({ maxSize: '700', maxSizeUnit: 'MB' });
    expect(sizeDraft(null)).toEqual({ maxSize: '', maxSizeUnit: 'GB' });
    for (const bytes of [GB, 3 * GB, 250 * 1024 ** 2, 10 * 1024 ** 4]) {
      const { maxSize, maxSizeUnit } = sizeDraft(bytes);
      expect(parseSize(maxSize, maxSizeUnit)).toBe(bytes);
    }
  });
});

describe('the deadline time (the kit’s 12-hour field, the API’s 24-hour clock)', () => {
  it.each([
    ['5:00 PM', '17:00'],
    ['12:00 PM', '12:00'],
    ['12:30 AM', '00:30'],
    ['9:05 am', '09:05'],
  ])('%s is %s', (twelve, twentyFour) => {
    expect(to24h(twelve)).toBe(twentyFour);
    expect(to24h(from24h(twentyFour))).toBe(twentyFour);
  });

  it('refuses what is no 12-hour time', () => {
    expect(to24h('17:00')).toBeNull();
    expect(to24h('13:00 PM')).toBeNull();
    expect(to24h('')).toBeNull();
  });
});

describe('a form type’s spec, from the dialog and back', () => {
  it('is null while not enabled', () => {
    expect(specFromDraft(emptySpecDraft(), 'x.', {})).toBeNull();
  });

  it('round-trips every field of a spec', () => {
    const errors = {};
    expect(specFromDraft(specDraft(SPEC), 'x.', errors)).toEqual(SPEC);
    expect(errors).toEqual({});
  });

  it('round-trips "no audio" and "any audio"', () => {
    for (const audio of ['none', null] as const) {
      expect(specFromDraft(specDraft({ ...SPEC, audio }), 'x.', {})).toEqual({ ...SPEC, audio });
    }
  });

  it('keeps the resolution rows in order, skipping blank ones, refusing repeats and non-numbers', () => {
    const errors: Record<string, string> = {};
    const spec = specFromDraft(
      draft({
        resolutions: [
          { width: '3840', height: '2160' },
          { width: '', height: '' },
          { width: '1920', height: '1080' },
          { width: '1920', height: '1080' },
          { width: 'wide', height: '' },
        ],
      }),
      'specs.event.',
      errors,
    );
    expect(spec?.resolutions).toEqual([
      { width: 3840, height: 2160 },
      { width: 1920, height: 1080 },
    ]);
    expect(errors).toEqual({
      'specs.event.resolutions.3.width': RESOLUTION_REPEATED,
      'specs.event.resolutions.4.width': WIDTH_INVALID,
      'specs.event.resolutions.4.height': HEIGHT_INVALID,
    });
  });

  it('says which duration or size could not be read, and a minimum above the maximum', () => {
    const errors: Record<string, string> = {};
    specFromDraft(draft({ minDuration: '1:75', maxDuration: 'soon', maxSize: 'big' }), 'p.', errors);
    expect(errors).toEqual({
      'p.minDuration': DURATION_INVALID,
      'p.maxDuration': DURATION_INVALID,
      'p.maxSize': SIZE_INVALID,
    });
    const order: Record<string, string> = {};
    specFromDraft(draft({ minDuration: '1:00', maxDuration: '0:30' }), 'p.', order);
    expect(order).toEqual({ 'p.minDuration': MIN_OVER_MAX });
  });
});

describe('the whole event, checked by the shared schema', () => {
  it('gives the API input with the deadline on the 24-hour clock', () => {
    const result = inputFromDraft(
      eventValues({ specs: { ...eventValues().specs, sponsor: specDraft(SPEC) } }),
    );
    expect(result.errors).toBeUndefined();
    expect(result.input).toMatchObject({
      name: 'Spring Summit',
      timeZone: 'America/New_York',
      deadline: '2027-02-25T17:00',
      specs: { creative: null, event: null, sponsor: SPEC },
    });
  });

  it('puts the schema’s messages on the dialog’s fields', () => {
    const result = inputFromDraft(
      eventValues({
        name: '  ',
        endsOn: '2027-02-01',
        deadlineDate: '',
        specs: {
          ...eventValues().specs,
          event: draft({ resolutions: [{ width: '99999', height: '1080' }] }),
        },
      }),
    );
    expect(Object.keys(result.errors ?? {}).sort()).toEqual([
      'deadlineDate',
      'endsOn',
      'name',
      'specs.event.resolutions.0.width',
    ]);
    expect(result.errors?.name).toBe('Please enter the event name.');
    expect(result.errors?.endsOn).toBe('The last day cannot be before the first day.');
  });

  it('reads a staff event back into the dialog', () => {
    const event = {
      id: 'ev1',
      name: 'Spring Summit',
      startsOn: '2027-03-01',
      endsOn: '2027-03-03',
      timeZone: 'America/Chicago',
      deadline: '2027-02-25T23:00:00.000Z',
      deadlineText: 'Feb 25, 2027, 5:00 PM CST',
      deadlineLocal: '2027-02-25T17:00',
      specs: { creative: null, event: SPEC, sponsor: null },
      open: true,
      archivedAt: null,
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    } satisfies UploadEventStaff;
    const values = eventDraft(event, 'America/New_York');
    expect(values).toMatchObject({
      timeZone: 'America/Chicago',
      deadlineDate: '2027-02-25',
      deadlineTime: '5:00 PM',
    });
    expect(values.specs.creative.enabled).toBe(false);
    expect(inputFromDraft(values).input).toMatchObject({
      deadline: '2027-02-25T17:00',
      specs: { event: SPEC },
    });
  });
});

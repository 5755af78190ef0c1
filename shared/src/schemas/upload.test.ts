import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fieldErrors } from './common.js';
import {
  creativeAssetSchema,
  creativeUploadFormSchema,
  eventAssetSchema,
  eventUploadFormSchema,
  sponsorCommercialSchema,
  sponsorUploadFormSchema,
  toSessionDateTime,
  sessionDateError,
  uploadDateRange,
  uploadFileRegistrationSchema,
  uploadFormSchema,
  uploadSubmissionSchema,
} from './upload.js';

function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
}

const files = [{ name: 'keynote.mp4', size: 1_000, type: 'video/mp4' }];

describe('SPEC §5 Upload: creative asset form (at least one file, project name)', () => {
  const valid = { form_type: 'creative', files, project_name: 'Spring Gala', description: 'Opener' };

  it.each([
    ['complete', {}, {}],
    ['no description', { description: undefined }, {}],
    ['cloud-picked file', { files: [{ name: 'a.mov', link: 'https://files.example.com/a.mov' }] }, {}],
    ['no files', { files: [] }, { files: 'Please Add a File.' }],
    ['files absent', { files: undefined }, { files: 'Please Add a File.' }],
    [
      'file without a name',
      { files: [{ name: '' }] },
      { 'files.0.name': 'Too small: expected string to have >=1 characters' },
    ],
    ['no project name', { project_name: '  ' }, { project_name: 'Please enter a project name.' }],
  ] as const)('%s', (_name, change, errors) => {
    expect(errorsOf(creativeUploadFormSchema, { ...valid, ...change })).toEqual(errors);
  });
});

describe('SPEC §5 Upload: event asset form (event name, date, hour, minutes, AM/PM, speaker)', () => {
  const valid = {
    form_type: 'event',
    files,
    event_name: 'MedTech Summit',
    date: '2024-05-02',
    hour: 9,
    minute: 30,
    ampm: 'AM',
    speaker_name: 'Dr. Ada',
    room_no: '101B',
  };

  it('parses select values given as text', () => {
    expect(eventUploadFormSchema.parse({ ...valid, hour: '12', minute: '05' })).toMatchObject({
      hour: 12,
      minute: 5,
    });
  });

  it.each([
    ['complete', {}, {}],
    ['no room or description', { room_no: undefined }, {}],
    ['no files', { files: [] }, { files: 'Please Add a File.' }],
    ['no event name', { event_name: '' }, { event_name: 'Please enter an event name.' }],
    ['no date', { date: '' }, { date: 'Please choose a date.' }],
    ['impossible date', { date: '2024-02-30' }, { date: 'Please choose a date.' }],
    ['no hour', { hour: '' }, { hour: 'Please choose an hour.' }],
    ['hour 0', { hour: 0 }, { hour: 'Please choose an hour.' }],
    ['hour 13', { hour: 13 }, { hour: 'Please choose an hour.' }],
    ['hour 1', { hour: 1 }, {}],
    ['hour 12', { hour: 12 }, {}],
    ['fractional hour', { hour: 1.5 }, { hour: 'Please choose an hour.' }],
    ['hour as words', { hour: 'nine' }, { hour: 'Please choose an hour.' }],
    ['no minutes', { minute: undefined }, { minute: 'Please choose the minutes.' }],
    ['minute 0', { minute: 0 }, {}],
    ['minute 55', { minute: 55 }, {}],
    ['minute 60', { minute: 60 }, { minute: 'Please choose the minutes.' }],
    ['minute 7 (not a step of 5)', { minute: 7 }, { minute: 'Please choose the minutes.' }],
    ['minute -5', { minute: -5 }, { minute: 'Please choose the minutes.' }],
    ['no AM/PM', { ampm: '' }, { ampm: 'Please choose AM or PM.' }],
    ['lowercase am', { ampm: 'am' }, { ampm: 'Please choose AM or PM.' }],
    ['PM', { ampm: 'PM' }, {}],
    ['no speaker', { speaker_name: undefined }, { speaker_name: 'Please enter a speaker name.' }],
  ] as const)('%s', (_name, change, errors) => {
    expect(errorsOf(eventUploadFormSchema, { ...valid, ...change })).toEqual(errors);
  });
});

describe('SPEC §5 Upload: sponsor commercial form (event name, sponsor company)', () => {
  const valid = { form_type: 'sponsor', files, event_name: 'MedTech Summit', sponsor_company: 'Acme' };

  it.each([
    ['complete', {}, {}],
    ['no files', { files: [] }, { files: 'Please Add a File.' }],
    ['no event name', { event_name: '' }, { event_name: 'Please enter an event name.' }],
    ['no sponsor company', { sponsor_company: ' ' }, { sponsor_company: 'Please enter a sponsor company.' }],
  ] as const)('%s', (_name, change, errors) => {
    expect(errorsOf(sponsorUploadFormSchema, { ...valid, ...change })).toEqual(errors);
  });

  it('the union picks the form by form_type', () => {
    expect(uploadFormSchema.parse(valid).form_type).toBe('sponsor');
    expect(errorsOf(uploadFormSchema, { ...valid, form_type: 'creative' })).toEqual({
      project_name: 'Please enter a project name.',
    });
    expect(uploadFormSchema.safeParse({ ...valid, form_type: 'other' }).success).toBe(false);
  });
});

describe('SPEC §3 Event asset session_datetime (YYYY-MM-DD HH:mm:ss) from the 12-hour picker', () => {
  it.each([
    ['2024-05-02', 9, 30, 'AM', '2024-05-02 09:30:00'],
    ['2024-05-02', 12, 0, 'AM', '2024-05-02 00:00:00'],
    ['2024-05-02', 12, 5, 'PM', '2024-05-02 12:05:00'],
    ['2024-05-02', 1, 0, 'PM', '2024-05-02 13:00:00'],
    ['2024-05-02', 11, 55, 'PM', '2024-05-02 23:55:00'],
  ] as const)('%s %i:%i %s -> %s', (date, hour, minute, ampm, expected) => {
    expect(toSessionDateTime(date, hour, minute, ampm)).toBe(expected);
    expect(eventAssetSchema.shape.session_datetime.safeParse(expected).success).toBe(true);
  });

  it.each([
    ['bad date', '2024-13-01', 9, 0],
    ['hour 0', '2024-05-02', 0, 0],
    ['hour 13', '2024-05-02', 13, 0],
    ['minute 60', '2024-05-02', 9, 60],
    ['minute -1', '2024-05-02', 9, -1],
    ['fractional minute', '2024-05-02', 9, 2.5],
  ] as const)('rejects %s', (_name, date, hour, minute) => {
    expect(() => toSessionDateTime(date, hour, minute, 'AM')).toThrow(RangeError);
  });
});

describe('SPEC §2 upload date picker: today to two years ahead', () => {
  it.each([
    ['2024-05-02T12:00:00Z', 'America/New_York', { min: '2024-05-02', max: '2026-05-02' }],
    ['2024-05-02T02:00:00Z', 'America/New_York', { min: '2024-05-01', max: '2026-05-01' }],
    ['2024-02-29T12:00:00Z', 'UTC', { min: '2024-02-29', max: '2026-02-28' }],
  ] as const)('%s in %s -> %j', (now, zone, range) => {
    expect(uploadDateRange(new Date(now), zone)).toEqual(range);
  });

  it("starts on the client's own today, wherever the company is", () => {
    // 20:00 UTC: already the 3rd in Tokyo, still the 2nd in New York and Honolulu.
    const now = new Date('2024-05-02T20:00:00Z');
    expect(uploadDateRange(now, 'Asia/Tokyo').min).toBe('2024-05-03');
    expect(uploadDateRange(now, 'Pacific/Honolulu').min).toBe('2024-05-02');
  });
});

describe("the server's check of a session date: the picker's range for a client in any time zone", () => {
  // 10:00 UTC on May 2: the 1st is still today in UTC−12 (until 12:00 UTC), the 3rd already in UTC+14.
  const now = new Date('2024-05-02T10:00:00Z');
  it.each([
    ['2024-04-30', 'Date must be after Apr 30, 2024'],
    ['2024-05-01', undefined],
    ['2024-05-02', undefined],
    ['2026-05-03', undefined],
    ['2026-05-04', 'Date must be before May 4, 2026'],
  ])('%s: %j', (date, message) => {
    expect(sessionDateError(date, now)).toBe(message);
  });

  it('no longer takes the day before once it has ended everywhere', () => {
    expect(sessionDateError('2024-05-01', new Date('2024-05-02T12:00:00Z'))).toBe(
      'Date must be after May 1, 2024',
    );
  });
});

describe('SPEC §3 asset entities', () => {
  it.each([
    [creativeAssetSchema, { project_name: 'P', description: '' }, true],
    [creativeAssetSchema, { project_name: 'P' }, false],
    [
      eventAssetSchema,
      {
        event_name: 'E',
        session_datetime: '2024-05-02 09:30:00',
        speaker_name: 'S',
        room_no: '',
        description: '',
      },
      true,
    ],
    [
      eventAssetSchema,
      {
        event_name: 'E',
        session_datetime: '2024-05-02 9:30',
        speaker_name: 'S',
        room_no: '',
        description: '',
      },
      false,
    ],
    [
      eventAssetSchema,
      {
        event_name: 'E',
        session_datetime: '2024-05-02 25:30:00',
        speaker_name: 'S',
        room_no: '',
        description: '',
      },
      false,
    ],
    [sponsorCommercialSchema, { event_name: 'E', sponsor_company: 'C', description: '' }, true],
    [sponsorCommercialSchema, { event_name: 'E', description: '' }, false],
  ] as const)('%#', (schema, input, ok) => {
    expect(schema.safeParse(input).success).toBe(ok);
  });
});

describe('SPEC §3/§7 legacy upload submission (/api/submitForm.php)', () => {
  it.each([
    [
      { form_type: 'creative', action: 'init', project_name: 'P', description: '', files: { 'a.mp4': 10 } },
      true,
    ],
    [{ form_type: 'event', action: 'part', file_name: 'a.mp4', file: 'AAEC' }, true],
    [{ form_type: 'sponsor', action: 'finish', file_name: 'a.mp4' }, true],
    [
      {
        form_type: 'creative',
        action: 'send',
        auth_file_url: { 'b.mov': { link: 'https://example.com/b', token: 't' } },
      },
      true,
    ],
    [{ form_type: 'creative', action: 'upload' }, false],
    [{ form_type: 'video', action: 'init' }, false],
    [{ action: 'init' }, false],
  ] as const)('%j -> %s', (input, ok) => {
    expect(uploadSubmissionSchema.safeParse(input).success).toBe(ok);
  });
});

describe('DESIGN Uploads: registering a file (name, size, type, optional sha-256)', () => {
  const sha = 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855';

  it('normalises the checksum and defaults the type', () => {
    expect(uploadFileRegistrationSchema.parse({ name: 'a.mp4', size: 0, sha256: sha })).toEqual({
      name: 'a.mp4',
      size: 0,
      type: 'application/octet-stream',
      sha256: sha.toLowerCase(),
    });
  });

  it.each([
    [{ name: 'keynote final.mov', size: 5, type: 'video/quicktime' }, true],
    [{ name: 'a.mp4', size: Number.MAX_SAFE_INTEGER }, true],
    [{ name: '', size: 5 }, false],
    [{ name: 'x'.repeat(256), size: 5 }, false],
    [{ name: '../etc/passwd', size: 5 }, false],
    [{ name: 'dir\\file.mp4', size: 5 }, false],
    [{ name: 'nul\0.mp4', size: 5 }, false],
    [{ name: '.', size: 5 }, false],
    [{ name: '..', size: 5 }, false],
    [{ name: 'a.mp4', size: -1 }, false],
    [{ name: 'a.mp4', size: 1.5 }, false],
    [{ name: 'a.mp4', size: 2 ** 53 }, false],
    [{ name: 'a.mp4', size: 5, sha256: 'abc' }, false],
  ] as const)('%j -> %s', (input, ok) => {
    expect(uploadFileRegistrationSchema.safeParse(input).success).toBe(ok);
  });

  it('names a bad file name', () => {
    expect(errorsOf(uploadFileRegistrationSchema, { name: 'a/b', size: 1 })).toEqual({
      name: 'Invalid file name.',
    });
  });
});

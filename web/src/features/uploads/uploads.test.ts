import { UploadError } from '@avp/shared';
import { describe, expect, it } from 'vitest';
import { isInternetExplorer } from './ie';
import { fromSubmissionFields, toSubmissionFields } from './UploadForms';
import { canContinueText, retryingText, stepOf } from './UploadUtility';

describe('the upload flow', () => {
  it.each([
    ['', 'choose'],
    ['#creative', 'creative'],
    ['#event', 'event'],
    ['#eventForm', 'eventForm'],
    ['#sponsor', 'sponsor'],
    ['#other', 'choose'],
  ])('hash %j is the %s step', (hash, step) => {
    expect(stepOf(hash)).toBe(step);
  });

  const base = {
    files: [],
    project_name: ' Launch ',
    event_name: 'Expo',
    date: '2027-03-04',
    hour: '12',
    minute: '05',
    ampm: 'AM',
    speaker_name: 'Ada',
    room_no: ' 101 ',
    sponsor_company: 'Acme',
    description: ' notes ',
  };

  it.each([
    ['creative', { form_type: 'creative', project_name: ' Launch ', description: 'notes' }],
    ['sponsor', { form_type: 'sponsor', event_name: 'Expo', sponsor_company: 'Acme', description: 'notes' }],
    [
      'event',
      {
        form_type: 'event',
        event_name: 'Expo',
        session_datetime: '2027-03-04 00:05:00',
        speaker_name: 'Ada',
        room_no: '101',
        description: 'notes',
      },
    ],
  ] as const)('sends the %s form as its submission fields', (formType, expected) => {
    expect(toSubmissionFields({ ...base, form_type: formType })).toEqual(expected);
  });

  it('says which attempt comes next, of how many, and in how many seconds', () => {
    const notice = {
      attempt: 3,
      attempts: 9,
      nextAt: 10_000,
      error: new UploadError(0, 'network', 'x'),
      what: 'part' as const,
      reason: 'unreachable' as const,
    };
    expect(retryingText(notice, 6_200)).toBe(
      'Connection problem: retrying (attempt 3 of 9), next try in 4 s.',
    );
    expect(retryingText(notice, 10_000)).toBe('Connection problem: retrying (attempt 3 of 9) now.');
  });

  it.each([
    [
      'part',
      'unreachable',
      'clip.mov',
      undefined,
      'Connection problem: retrying clip.mov (attempt 2 of 9), next try in 1 s.',
    ],
    [
      'register',
      'unreachable',
      'clip.mov',
      undefined,
      'Connection problem: retrying the registration of clip.mov (attempt 2 of 9), next try in 1 s.',
    ],
    [
      'register',
      'server-error',
      undefined,
      'The database is restarting.',
      'Server problem: retrying the start of this upload (attempt 2 of 9), next try in 1 s. The database is restarting.',
    ],
    [
      'complete',
      'busy',
      'clip.mov',
      undefined,
      'Server busy: retrying the completion of clip.mov (attempt 2 of 9), next try in 1 s.',
    ],
    [
      'complete',
      'busy',
      undefined,
      undefined,
      'Server busy: retrying the completion of a file (attempt 2 of 9), next try in 1 s.',
    ],
    [
      'submit',
      'unreachable',
      undefined,
      undefined,
      'Connection problem: retrying the submission (attempt 2 of 9), next try in 1 s.',
    ],
    [
      'other',
      'unreachable',
      undefined,
      undefined,
      'Connection problem: retrying (attempt 2 of 9), next try in 1 s.',
    ],
    [
      'part',
      'unreachable',
      undefined,
      undefined,
      'Connection problem: retrying (attempt 2 of 9), next try in 1 s.',
    ],
  ] as const)('names a %s call retried (%s)', (what, reason, name, message, expected) => {
    const notice = {
      attempt: 2,
      attempts: 9,
      nextAt: 1_000,
      error: new UploadError(0, 'network', 'x'),
      what,
      reason,
      ...(message ? { message } : {}),
    };
    expect(retryingText(notice, 0, name)).toBe(expected);
  });

  it('names a file an upload cut off can go on with', () => {
    expect(canContinueText({ name: 'opening-reel.mp4', size: 150 * 1024 * 1024 })).toBe(
      'This upload can continue: choose the same file again (opening-reel.mp4, 150 MB)',
    );
  });

  it.each([
    ['2027-03-04 00:05:00', '12', '05', 'AM'],
    ['2027-03-04 12:30:00', '12', '30', 'PM'],
    ['2027-03-04 21:45:00', '9', '45', 'PM'],
  ])('brings an open event submission %s back into the form', (sessionDateTime, hour, minute, ampm) => {
    const values = fromSubmissionFields('event', {
      event_name: 'Expo',
      session_datetime: sessionDateTime,
      speaker_name: 'Ada',
      room_no: '101',
      description: 'notes',
    });
    expect(values).toEqual({
      form_type: 'event',
      event_name: 'Expo',
      date: '2027-03-04',
      hour,
      minute,
      ampm,
      speaker_name: 'Ada',
      room_no: '101',
      description: 'notes',
    });
    // Round trip: the same fields go out again.
    expect(toSubmissionFields({ ...base, ...values, form_type: 'event' })).toMatchObject({
      session_datetime: sessionDateTime,
    });
  });

  it('brings a sponsor submission back, ignoring fields of other forms', () => {
    expect(
      fromSubmissionFields('sponsor', { event_name: 'Expo', sponsor_company: 'Acme', project_name: 'x' }),
    ).toEqual({ form_type: 'sponsor', event_name: 'Expo', sponsor_company: 'Acme' });
  });

  it.each([
    ['Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0) like Gecko', true],
    ['Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1)', true],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', false],
  ])('detects Internet Explorer in %s', (agent, expected) => {
    expect(isInternetExplorer(agent)).toBe(expected);
  });
});

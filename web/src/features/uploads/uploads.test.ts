import { UploadError } from '@avp/shared';
import { describe, expect, it } from 'vitest';
import { isInternetExplorer } from './ie';
import { toSubmissionFields } from './UploadForms';
import { retryingText, stepOf } from './UploadUtility';

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
    ['Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0) like Gecko', true],
    ['Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1)', true],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36', false],
  ])('detects Internet Explorer in %s', (agent, expected) => {
    expect(isInternetExplorer(agent)).toBe(expected);
  });
});

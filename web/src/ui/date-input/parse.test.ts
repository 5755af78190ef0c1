import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import {
  boundsFromRange,
  dateBoundsError,
  formatDateEntry,
  isDateValue,
  mergeBounds,
  parseDateEntry,
  selectableRange,
} from './parse';

// A fixed 'now' (local time) so that 'current year' is known.
const NOW = new Date(2031, 5, 15, 10, 30);

describe('parseDateEntry (SPEC §5: M/D/YYYY, single slash, timestamps)', () => {
  it.each([
    ['1/5/2024', '2024-01-05'],
    ['01/05/2024', '2024-01-05'],
    ['12/31/1999', '1999-12-31'],
    ['2/29/2024', '2024-02-29'],
    ['  3/4/2025 ', '2025-03-04'],
  ])('reads %j as %s', (text, value) => {
    expect(parseDateEntry(text, NOW)).toEqual({ kind: 'date', value });
  });

  it.each([
    ['3/4', '2031-03-04'],
    ['12/25', '2031-12-25'],
    ['02/09', '2031-02-09'],
  ])('a single slash appends the current year: %j → %s', (text, value) => {
    expect(parseDateEntry(text, NOW)).toEqual({ kind: 'date', value });
  });

  it('checks the single-slash day against the current year (2/29 in a non-leap year is invalid)', () => {
    expect(parseDateEntry('2/29', NOW)).toEqual({ kind: 'invalid' });
    expect(parseDateEntry('2/29', new Date(2032, 0, 1))).toEqual({ kind: 'date', value: '2032-02-29' });
  });

  it.each([
    // 13 digits: milliseconds since 1970
    ['1704412800000'],
    ['1893456000000'],
    // 12 digits: still a millisecond timestamp (1973 to 2001)
    ['999999999999'],
    ['100000000000'],
  ])('a 12 to 13 digit number %s is a timestamp, read as its local day', (text) => {
    expect(parseDateEntry(text, NOW)).toEqual({
      kind: 'date',
      value: dayjs(Number(text)).format('YYYY-MM-DD'),
    });
  });

  it.each([
    ['11 digits', '17044128000'],
    ['14 digits', '17044128000000'],
    ['two-digit year', '1/5/24'],
    ['month 13', '13/1/2024'],
    ['day 0', '1/0/2024'],
    ['Feb 30', '2/30/2024'],
    ['dashes', '2024-01-05'],
    ['words', 'tomorrow'],
    ['three slashes', '1/2/3/4'],
    ['trailing slash', '1/'],
    ['five-digit year', '1/5/20245'],
  ])('refuses %s (%j)', (_what, text) => {
    expect(parseDateEntry(text, NOW)).toEqual({ kind: 'invalid' });
  });

  it.each(['', '   '])('reads %j as empty', (text) => {
    expect(parseDateEntry(text, NOW)).toEqual({ kind: 'empty' });
  });
});

describe('isDateValue (no dayjs plugin needed)', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2031-13-45', false],
    ['2024-04-31', false],
    ['2024-1-5', false],
    ['', false],
  ])('%j → %s', (value, valid) => {
    expect(isDateValue(value)).toBe(valid);
  });
});

describe('formatDateEntry', () => {
  it.each([
    ['2024-01-05', '1/5/2024'],
    ['2024-12-31', '12/31/2024'],
    ['', ''],
    ['2024-02-30', ''],
  ])('%j → %j', (value, text) => {
    expect(formatDateEntry(value)).toBe(text);
  });
});

describe('dateBoundsError (SPEC §5: on or before the lower, on or after the upper; dates as MMM D, YYYY, §9)', () => {
  const bounds = { after: '2024-01-05', before: '2024-01-10' };
  it.each([
    ['2024-01-04', 'Date must be after Jan 5, 2024'],
    ['2024-01-05', 'Date must be after Jan 5, 2024'],
    ['2024-01-06', undefined],
    ['2024-01-09', undefined],
    ['2024-01-10', 'Date must be before Jan 10, 2024'],
    ['2024-02-01', 'Date must be before Jan 10, 2024'],
  ])('%s → %j', (value, message) => {
    expect(dateBoundsError(value, bounds)).toBe(message);
  });

  it('has no message without bounds', () => {
    expect(dateBoundsError('1900-01-01', {})).toBeUndefined();
  });
});

describe('inclusive ranges', () => {
  it('boundsFromRange turns inclusive days into the exclusive bounds around them', () => {
    expect(boundsFromRange('2024-03-01', '2024-03-31')).toEqual({
      after: '2024-02-29',
      before: '2024-04-01',
    });
    expect(boundsFromRange(undefined, '')).toEqual({ after: undefined, before: undefined });
  });

  it('an inclusive minimum of 1/5 accepts 1/5 and names Jan 4, 2024 in its message', () => {
    const bounds = boundsFromRange('2024-01-05', undefined);
    expect(dateBoundsError('2024-01-05', bounds)).toBeUndefined();
    expect(dateBoundsError('2024-01-04', bounds)).toBe('Date must be after Jan 4, 2024');
  });

  it('mergeBounds keeps the tighter bound on each side', () => {
    expect(mergeBounds({ after: '2024-01-01', before: '2024-12-31' }, { after: '2024-02-01' })).toEqual({
      after: '2024-02-01',
      before: '2024-12-31',
    });
    expect(mergeBounds({ before: '2024-06-01' }, { before: '2024-05-01' })).toEqual({
      after: undefined,
      before: '2024-05-01',
    });
  });

  it('selectableRange gives the calendar its first and last selectable days', () => {
    expect(selectableRange({ after: '2024-01-05', before: '2024-01-10' })).toEqual({
      min: '2024-01-06',
      max: '2024-01-09',
    });
    expect(selectableRange({})).toEqual({ min: undefined, max: undefined });
  });
});

import { describe, expect, it } from 'vitest';
import {
  addDays,
  assertDateOnly,
  assertTimeZone,
  dateInZone,
  localTimeZone,
  isDateOnly,
  isOnOrBeforeDay,
  startOfDayIn,
} from './dates.js';

describe('Calendar dates (YYYY-MM-DD), the wire format of SPEC §3 dates', () => {
  it.each([
    ['2024-01-05', true],
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-13-01', false],
    ['2024-04-31', false],
    ['2024-00-10', false],
    ['2024-1-5', false],
    ['1/5/2024', false],
    ['2024-01-05T00:00:00Z', false],
    [' 2024-01-05', false],
    ['', false],
  ] as const)('isDateOnly(%j) is %s', (value, expected) => {
    expect(isDateOnly(value)).toBe(expected);
  });

  it('assertDateOnly throws a RangeError naming the value', () => {
    expect(() => assertDateOnly('2024-02-30', 'deadline')).toThrow(
      new RangeError("Invalid deadline '2024-02-30': expected YYYY-MM-DD"),
    );
    expect(() => assertDateOnly('2024-02-29')).not.toThrow();
  });

  it.each([
    ['2024-01-31', 1, '2024-02-01'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2023-12-31', 1, '2024-01-01'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2024-03-10', 1, '2024-03-11'],
    ['2024-11-03', 1, '2024-11-04'],
    ['2024-01-05', 0, '2024-01-05'],
  ] as const)('addDays(%s, %i) is %s, whatever DST does', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it('addDays rejects a malformed date', () => {
    expect(() => addDays('2024-1-1', 1)).toThrow(RangeError);
  });
});

describe('Days in a time zone (DESIGN Pricing: end of the deadline day in TZ_STORE)', () => {
  it.each([
    ['2024-06-15', 'America/New_York', '2024-06-15T04:00:00.000Z'],
    ['2024-01-15', 'America/New_York', '2024-01-15T05:00:00.000Z'],
    ['2024-03-11', 'America/New_York', '2024-03-11T04:00:00.000Z'],
    ['2024-11-04', 'America/New_York', '2024-11-04T05:00:00.000Z'],
    ['2024-06-15', 'Pacific/Auckland', '2024-06-14T12:00:00.000Z'],
    ['2024-09-30', 'Pacific/Auckland', '2024-09-29T11:00:00.000Z'],
    ['2024-01-01', 'UTC', '2024-01-01T00:00:00.000Z'],
    // Santiago skips midnight when DST starts: the day begins at 01:00 local (-03).
    ['2024-09-08', 'America/Santiago', '2024-09-08T04:00:00.000Z'],
  ] as const)('%s begins in %s at %s', (date, zone, iso) => {
    expect(startOfDayIn(date, zone).toISOString()).toBe(iso);
  });

  it('defaults to America/New_York', () => {
    expect(startOfDayIn('2024-06-15').toISOString()).toBe('2024-06-15T04:00:00.000Z');
    expect(isOnOrBeforeDay('2024-06-15', new Date('2024-06-16T03:59:59.999Z'))).toBe(true);
    expect(dateInZone(new Date('2024-06-16T03:59:59.999Z'))).toBe('2024-06-15');
  });

  it.each([
    ['2024-06-15', '2024-06-16T03:59:59.999Z', 'America/New_York', true],
    ['2024-06-15', '2024-06-16T04:00:00.000Z', 'America/New_York', false],
    ['2024-06-15', '2024-06-14T12:00:00.000Z', 'Pacific/Auckland', true],
    ['2024-06-15', '2024-06-15T12:00:00.000Z', 'Pacific/Auckland', false],
  ] as const)('isOnOrBeforeDay(%s, %s, %s) is %s', (date, now, zone, expected) => {
    expect(isOnOrBeforeDay(date, new Date(now), zone)).toBe(expected);
  });

  it.each([
    ['2024-06-16T03:59:59.999Z', 'America/New_York', '2024-06-15'],
    ['2024-06-16T04:00:00.000Z', 'America/New_York', '2024-06-16'],
    ['2024-06-15T11:59:59.999Z', 'Pacific/Auckland', '2024-06-15'],
    ['2024-06-15T12:00:00.000Z', 'Pacific/Auckland', '2024-06-16'],
  ] as const)('dateInZone(%s, %s) is %s', (now, zone, expected) => {
    expect(dateInZone(new Date(now), zone)).toBe(expected);
  });

  it("localTimeZone is this machine's zone, one dateInZone accepts", () => {
    const zone = localTimeZone();
    expect(zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(dateInZone(new Date('2024-06-15T12:00:00Z'), zone)).toMatch(/^2024-06-1[456]$/);
  });

  it.each([
    ['an unknown zone', () => startOfDayIn('2024-01-01', 'Mars/Olympus_Mons')],
    ['an invalid Date', () => isOnOrBeforeDay('2024-01-01', new Date('nope'), 'UTC')],
    ['an invalid Date in dateInZone', () => dateInZone(new Date(Number.NaN), 'UTC')],
    ['a malformed date', () => startOfDayIn('01/01/2024', 'UTC')],
  ])('throws a RangeError for %s', (_what, call) => {
    expect(call).toThrow(RangeError);
  });

  it('assertTimeZone accepts IANA names', () => {
    expect(() => assertTimeZone('Europe/Paris')).not.toThrow();
  });

  it('assertTimeZone refuses an unknown name every time, before and after accepting known ones', () => {
    for (let i = 0; i < 3; i++) {
      expect(() => assertTimeZone('Mars/Olympus_Mons')).toThrow(RangeError);
      expect(() => assertTimeZone('America/Chicago')).not.toThrow();
    }
  });
});

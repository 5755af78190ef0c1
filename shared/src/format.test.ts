import { afterEach, describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCardNumber,
  formatDate,
  formatDateTime,
  formatExpiry,
  formatWallDateTime,
  formatDateRange,
  formatPrice,
  formatSpeed,
  formatTimeLeft,
  truncateFileName,
} from './format.js';

describe('SPEC §9 prices: cents shown with two decimals and thousands separators', () => {
  it.each([
    [0, '$0.00'],
    [-0, '$0.00'],
    [1, '$0.01'],
    [99, '$0.99'],
    [100, '$1.00'],
    [123_456, '$1,234.56'],
    [100_000_000, '$1,000,000.00'],
    [-100, '-$1.00'],
    [-1, '-$0.01'],
    [-123_456, '-$1,234.56'],
    [Number.MAX_SAFE_INTEGER, '$90,071,992,547,409.91'],
  ] as const)('%i cents -> %s', (cents, text) => {
    expect(formatPrice(cents)).toBe(text);
  });

  it.each([
    ['usd', '$12.34'],
    ['USD', '$12.34'],
    ['eur', '€12.34'],
    ['cad', 'CA$12.34'],
  ] as const)('currency %s -> %s', (currency, text) => {
    expect(formatPrice(1_234, currency)).toBe(text);
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('rejects %s', (cents) => {
    expect(() => formatPrice(cents)).toThrow(RangeError);
  });
});

describe('SPEC §9 dates shown as MMM D, YYYY', () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    // Assigning undefined would store the string 'undefined', itself a (broken) zone name.
    if (originalTz === undefined) delete process.env.TZ;
    else process.env.TZ = originalTz;
  });

  it.each([
    ['2024-01-05', 'Jan 5, 2024'],
    ['2024-12-31', 'Dec 31, 2024'],
    ['2024-02-29', 'Feb 29, 2024'],
    ['1999-07-04', 'Jul 4, 1999'],
  ] as const)('%s -> %s', (value, text) => {
    expect(formatDate(value)).toBe(text);
  });

  it.each(['Pacific/Pago_Pago', 'Pacific/Kiritimati', 'America/New_York', 'UTC', 'Asia/Kolkata'])(
    'a date-only string never shifts a day when the process runs in %s',
    (zone) => {
      process.env.TZ = zone;
      expect(formatDate('2024-01-05')).toBe('Jan 5, 2024');
      expect(formatDate('2024-03-10')).toBe('Mar 10, 2024');
      expect(formatDate('2024-11-03')).toBe('Nov 3, 2024');
    },
  );

  it.each([
    [new Date('2024-01-06T03:00:00Z'), 'America/New_York', 'Jan 5, 2024'],
    [new Date('2024-01-06T03:00:00Z'), 'UTC', 'Jan 6, 2024'],
    [new Date('2024-01-05T12:00:00Z'), 'Pacific/Kiritimati', 'Jan 6, 2024'],
    ['2024-01-06T03:00:00Z', 'America/New_York', 'Jan 5, 2024'],
  ] as const)('an instant (%s) is printed as the day it falls on in %s', (value, zone, text) => {
    expect(formatDate(value, zone)).toBe(text);
  });

  it('prints an instant in the local zone when none is given', () => {
    process.env.TZ = 'America/New_York';
    expect(formatDate(new Date('2024-01-06T03:00:00Z'))).toBe('Jan 5, 2024');
    process.env.TZ = 'UTC';
    expect(formatDate(new Date('2024-01-06T03:00:00Z'))).toBe('Jan 6, 2024');
  });

  it.each(['not a date', '', new Date(Number.NaN)])('rejects %j', (value) => {
    expect(() => formatDate(value)).toThrow(RangeError);
  });

  it('formats the store header range (SPEC §2: Jan 5, 2024 - Jan 7, 2024)', () => {
    expect(formatDateRange('2024-01-05', '2024-01-07')).toBe('Jan 5, 2024 - Jan 7, 2024');
    expect(formatDateRange(new Date('2024-01-06T03:00:00Z'), '2024-01-07', 'America/New_York')).toBe(
      'Jan 5, 2024 - Jan 7, 2024',
    );
  });
});

describe('formatDateTime: one date-time format for staff screens and mails, its zone named', () => {
  it.each([
    ['2026-11-26T02:39:35.000Z', 'America/New_York', 'Nov 25, 2026, 9:39 PM EST'],
    ['2026-07-04T16:05:00Z', 'America/New_York', 'Jul 4, 2026, 12:05 PM EDT'],
    ['2026-11-26T02:39:35.000Z', 'America/Los_Angeles', 'Nov 25, 2026, 6:39 PM PST'],
    ['2026-11-26T02:39:35.000Z', 'UTC', 'Nov 26, 2026, 2:39 AM UTC'],
  ] as const)('%s in %s reads %s', (value, zone, text) => {
    expect(formatDateTime(value, zone)).toBe(text);
    expect(formatDateTime(new Date(value), zone)).toBe(text);
  });

  it('uses the local zone when none is given, read at each call', () => {
    process.env.TZ = 'America/Chicago';
    expect(formatDateTime('2026-11-26T02:39:35Z')).toBe('Nov 25, 2026, 8:39 PM CST');
    process.env.TZ = 'UTC';
    expect(formatDateTime('2026-11-26T02:39:35Z')).toBe('Nov 26, 2026, 2:39 AM UTC');
  });

  it.each(['not a date', '', new Date(Number.NaN)])('rejects %j', (value) => {
    expect(() => formatDateTime(value, 'UTC')).toThrow(RangeError);
  });
});

describe('formatWallDateTime: a typed date and time, on no zone', () => {
  it.each([
    ['2026-12-15 09:30:00', 'Dec 15, 2026, 9:30 AM'],
    ['2026-12-15T21:05', 'Dec 15, 2026, 9:05 PM'],
    ['2024-02-29 00:00:00', 'Feb 29, 2024, 12:00 AM'],
  ])('%s reads %s wherever it runs', (text, shown) => {
    process.env.TZ = 'Pacific/Kiritimati';
    expect(formatWallDateTime(text)).toBe(shown);
    process.env.TZ = 'America/Los_Angeles';
    expect(formatWallDateTime(text)).toBe(shown);
  });

  it.each(['tomorrow morning', '2023-02-29 10:00:00', '2026-12-15 24:00:00', '2026-12-15 10:60', ''])(
    'leaves %j as typed',
    (text) => {
      expect(formatWallDateTime(text)).toBe(text);
    },
  );
});

describe('SPEC §2 Upload page flow: displayed file names are cut at 24 characters', () => {
  it.each([
    ['', ''],
    ['clip.mp4', 'clip.mp4'],
    ['exactly-24-characters.mp', 'exactly-24-characters.mp'],
    ['twenty-five-characters.mp', 'twenty-five-characters.m…'],
    ['a-very-long-keynote-recording-final-v2.mov', 'a-very-long-keynote-reco…'],
    ['😀'.repeat(25), `${'😀'.repeat(24)}…`],
    ['😀'.repeat(24), '😀'.repeat(24)],
  ] as const)('%j -> %j', (name, shown) => {
    expect(truncateFileName(name)).toBe(shown);
  });

  it('takes another maximum when given', () => {
    expect(truncateFileName('abcdefgh', 4)).toBe('abcd…');
    expect(truncateFileName('abcd', 4)).toBe('abcd');
  });
});

describe('formatBytes (upload progress)', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1_023, '1023 B'],
    [1_024, '1 KB'],
    [1_536, '1.5 KB'],
    [1_048_575, '1 MB'], // 1023.999 KB would round to 1024 KB
    [6_291_456, '6 MB'],
    [1.5 * 2 ** 30, '1.5 GB'],
    [200 * 2 ** 30, '200 GB'],
    [2 ** 40, '1 TB'],
    [2 ** 50, '1 PB'],
    [Number.MAX_SAFE_INTEGER, '8 PB'],
  ] as const)('%i -> %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 53])('rejects %s', (bytes) => {
    expect(() => formatBytes(bytes)).toThrow(RangeError);
  });
});

describe('formatSpeed (upload and import progress)', () => {
  it.each([
    [1, '1 B/s'],
    [0.6, '1 B/s'],
    [0.4, '0 B/s'],
    [1_023, '1023 B/s'],
    [1_023.6, '1 KB/s'],
    [1_024, '1 KB/s'],
    [2_000_000, '1.9 MB/s'],
    [6_291_456, '6 MB/s'],
    [125 * 2 ** 20 + 0.25, '125 MB/s'],
    [2 ** 60, '8 PB/s'],
  ] as const)('%d bytes a second -> %s', (rate, text) => {
    expect(formatSpeed(rate)).toBe(text);
  });

  it.each([0, -0, -1, -1_024, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'shows a dash for %s (not measured, or no speed at all)',
    (rate) => {
      expect(formatSpeed(rate)).toBe('—');
    },
  );
});

describe('formatTimeLeft (upload and import progress)', () => {
  it.each([
    [0, ''],
    [0.2, '1 s left'],
    [1, '1 s left'],
    [59, '59 s left'],
    [59.5, '1 min 0 s left'],
    [60, '1 min 0 s left'],
    [61, '1 min 1 s left'],
    [3_599, '59 min 59 s left'],
    [3_600, '1 h 0 min left'],
    [3_661, '1 h 1 min left'],
    [100 * 3_600 + 59, '100 h 0 min left'],
  ] as const)('%d s -> %j', (seconds, text) => {
    expect(formatTimeLeft(seconds)).toBe(text);
  });

  it.each([null, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'shows a dash while unknown or for no duration (%s)',
    (seconds) => {
      expect(formatTimeLeft(seconds)).toBe('—');
    },
  );
});

describe('card fields as typed (the store and the staff payment test alike)', () => {
  it.each([
    ['4242424242424242', '4242 4242 4242 4242'],
    ['4242-4242 4242x4242', '4242 4242 4242 4242'],
    ['378282246310005', '3782 822463 10005'],
    ['42', '42'],
    ['', ''],
    ['12345678901234567890123', '1234 5678 9012 3456 789'],
  ])('number %j reads %j', (typed, shown) => {
    expect(formatCardNumber(typed)).toBe(shown);
  });

  it.each([
    ['1229', '12 / 29'],
    ['12/29', '12 / 29'],
    ['12 / 29', '12 / 29'],
    ['1', '1'],
    ['12', '12'],
    ['12 / ', '12'],
    ['122', '12 / 2'],
    ['122934', '12 / 29'],
  ])('expiry %j reads %j', (typed, shown) => {
    expect(formatExpiry(typed)).toBe(shown);
  });
});

/** Display formatting shared by the web app, the e-mails, the desktop app and av-upload (SPEC §2, §9). */
import {
  DATE_DISPLAY_FORMAT,
  DATE_ONLY_FORMAT,
  DEFAULT_CURRENCY,
  FILE_NAME_DISPLAY_MAX,
} from './constants.js';
import { cardBrand } from './card.js';
import { isDateOnly } from './dates.js';
import { dayjs } from './day.js';

const priceFormats = new Map<string, Intl.NumberFormat>();

function priceFormat(currency: string): Intl.NumberFormat {
  const code = currency.toUpperCase();
  let format = priceFormats.get(code);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: code,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    priceFormats.set(code, format);
  }
  return format;
}

/**
 * Integer cents as '$1,234.56' (negative: '-$1.00'). The amount is handed to Intl as an exact decimal
 * string rather than cents / 100, so even amounts beyond what a double holds to the cent print exactly.
 */
export function formatPrice(cents: number, currency: string = DEFAULT_CURRENCY): string {
  if (!Number.isSafeInteger(cents))
    throw new RangeError(`Price must be a whole number of cents (got ${cents})`);
  const abs = Math.abs(cents);
  const sign = cents < 0 ? '-' : '';
  const decimal = `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}` as `${number}`;
  return priceFormat(currency).format(decimal);
}

/**
 * 'MMM D, YYYY'. A 'YYYY-MM-DD' string is a calendar day and is printed as that day wherever the code
 * runs; a Date (or a date-time string) is an instant, printed as the day it falls on in `timeZone`, or in
 * the local zone when none is given.
 */
export function formatDate(value: string | Date, timeZone?: string): string {
  if (typeof value === 'string' && isDateOnly(value)) {
    return dayjs.utc(value, DATE_ONLY_FORMAT, true).format(DATE_DISPLAY_FORMAT);
  }
  const instant = dayjs(value);
  if (!instant.isValid()) throw new RangeError(`Invalid date '${String(value)}'`);
  return (timeZone ? instant.tz(timeZone) : instant).format(DATE_DISPLAY_FORMAT);
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

const DATE_TIME_PARTS: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};

function dateTimeFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  // The local zone is not cached: it is whatever the process's TZ says at the time.
  if (!timeZone) return new Intl.DateTimeFormat('en-US', DATE_TIME_PARTS);
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { ...DATE_TIME_PARTS, timeZone });
    dateTimeFormats.set(timeZone, format);
  }
  return format;
}

/**
 * An instant for staff screens and mails, with its zone named so that nobody has to guess whose clock it
 * is: 'Nov 25, 2026, 9:39 PM EST' in `timeZone` (the store's or the company's), else the local zone. The
 * date part reads like formatDate's.
 */
export function formatDateTime(value: string | Date, timeZone?: string): string {
  const instant = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Invalid date-time '${String(value)}'`);
  // Intl separates the time from the zone with a narrow no-break space in newer ICU: one plain space reads
  // (and searches) the same everywhere.
  return dateTimeFormat(timeZone)
    .format(instant)
    .replace(/[\u202f\u00a0]/g, ' ');
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A date and time as someone typed it, with no zone ('2026-12-15 09:30:00': a session at the event, on
 * the event's clock), in formatDateTime's words but without a zone, since none was given:
 * 'Dec 15, 2026, 9:30 AM'. Text of any other shape is returned as it is.
 */
export function formatWallDateTime(text: string): string {
  const match = WALL_CLOCK.exec(text.trim());
  if (!match) return text;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const instant = new Date(Date.UTC(y, mo - 1, d, h, mi));
  if (instant.getUTCMonth() !== mo - 1 || instant.getUTCDate() !== d || h > 23 || mi > 59) return text;
  return new Intl.DateTimeFormat('en-US', { ...DATE_TIME_PARTS, timeZone: 'UTC', timeZoneName: undefined })
    .format(instant)
    .replace(/[\u202f\u00a0]/g, ' ');
}

/** SPEC §2: the event dates in the store header, e.g. 'Jan 5, 2024 - Jan 7, 2024'. */
export function formatDateRange(start: string | Date, end: string | Date, timeZone?: string): string {
  return `${formatDate(start, timeZone)} - ${formatDate(end, timeZone)}`;
}

/**
 * SPEC §2: displayed file names are cut at 24 characters, marked with an ellipsis. Characters are counted
 * as code points so that an emoji or other astral character is never split in half.
 */
export function truncateFileName(name: string, max: number = FILE_NAME_DISPLAY_MAX): string {
  const chars = Array.from(name);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : name;
}

const BINARY_UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/**
 * A byte count for people, in binary units with at most one decimal: '512 B', '1.5 KB', '1.5 GB'. A value
 * that would round up to 1024 of a unit is shown as 1 of the next one instead. Binary because the spec's
 * own figures are: its '6 MB chunks' are 6,291,456 bytes (SPEC §4, §9), so a size reads the same
 * everywhere the product shows one (web, desktop app, av-upload, e-mails).
 */
export function formatBytes(bytes: number): string {
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    throw new RangeError(`Byte count must be a whole, non-negative number (got ${bytes})`);
  }
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes;
  for (const unit of BINARY_UNITS) {
    value /= 1024;
    const rounded = Math.round(value * 10) / 10;
    if (rounded < 1024) return `${rounded} ${unit}`;
  }
  // The largest safe integer is about 8 PB, so petabytes are the last unit ever needed.
  return `${Math.round((value / 1024) * 10) / 10} PB`;
}

/** What a speed or a time left shows while it is not known yet. */
const UNKNOWN = '—';

/**
 * A transfer speed in formatBytes' units: '1.5 MB/s'. Until a speed is measured (0) or when the figure is
 * no real speed (NaN, infinite, negative) it shows '—' rather than a wrong number.
 */
export function formatSpeed(bytesPerSecond: number): string {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return UNKNOWN;
  return `${formatBytes(Math.min(Math.round(bytesPerSecond), Number.MAX_SAFE_INTEGER))}/s`;
}

/**
 * Time left of a transfer: '45 s left', '3 min 20 s left', '2 h 5 min left'. Nothing once nothing is left
 * (0); '—' while unknown (null: no speed measured yet) or for a figure that is no duration. A fraction of
 * a second is rounded up, so a transfer never claims to be done early.
 */
export function formatTimeLeft(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return UNKNOWN;
  const whole = Math.ceil(seconds);
  if (whole === 0) return '';
  if (whole < 60) return `${whole} s left`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${whole % 60} s left`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/**
 * A card number as typed, grouped as card fields show it: '4242 4242 4242 4242' (American Express: 4-6-5).
 * Anything but digits is dropped; at most 19 digits are kept. One formatter for the store's card field and
 * the staff payment test, so the same keystrokes give the same field in both.
 */
export function formatCardNumber(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 19);
  const groups = cardBrand(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const out: string[] = [];
  let rest = digits;
  for (const size of groups) {
    if (rest === '') break;
    out.push(rest.slice(0, size));
    rest = rest.slice(size);
  }
  return out.join(' ');
}

/**
 * A card expiry as typed, as 'MM / YY': '1229' reads '12 / 29'. The separator comes with the third digit,
 * so that deleting back over it is never undone by the formatter ('12 / ' would come back after a backspace).
 */
export function formatExpiry(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 4);
  if (digits.length <= 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

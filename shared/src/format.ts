/** Display formatting shared by the web app, the e-mails and the desktop uploader (SPEC §2, §9). */
import {
  DATE_DISPLAY_FORMAT,
  DATE_ONLY_FORMAT,
  DEFAULT_CURRENCY,
  FILE_NAME_DISPLAY_MAX,
} from './constants.js';
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
 * that would round up to 1024 of a unit is shown as 1 of the next one instead.
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

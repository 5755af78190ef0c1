/**
 * Pure rules of the date input (SPEC §5 'Form widget rules'). Values are calendar days written
 * 'YYYY-MM-DD' (DATE_ONLY_FORMAT, the wire format of every date in the product); people type and read
 * them as M/D/YYYY (DATE_INPUT_FORMAT). '' is 'no date'.
 */
import {
  DATE_DISPLAY_FORMAT,
  DATE_INPUT_FORMAT,
  DATE_ONLY_FORMAT,
  dateMustBeAfter,
  dateMustBeBefore,
} from '@avp/shared';
import dayjs from 'dayjs';

export type DateEntry = { kind: 'empty' } | { kind: 'date'; value: string } | { kind: 'invalid' };

const TIMESTAMP = /^\d{12,13}$/;
const MONTH_DAY = /^(\d{1,2})\/(\d{1,2})$/;
const MONTH_DAY_YEAR = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

const DATE_VALUE = /^(\d{4})-(\d{2})-(\d{2})$/;

function pad(n: string): string {
  return n.padStart(2, '0');
}

/**
 * True for a real calendar day written 'YYYY-MM-DD' (so '2023-02-29' is false). Checked by building the
 * day and reading it back, which needs no dayjs plugin (a plugin registered by another module can be
 * dropped from a production bundle by tree-shaking).
 */
export function isDateValue(value: string): boolean {
  const match = DATE_VALUE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
}

/**
 * Reads what was typed: M/D/YYYY (leading zeros allowed); M/D with a single slash takes the current year
 * of `now`; a 12 or 13 digit number is a timestamp in milliseconds, read as the local day it falls on.
 */
export function parseDateEntry(text: string, now: Date = new Date()): DateEntry {
  const entry = text.trim();
  if (entry === '') return { kind: 'empty' };

  if (TIMESTAMP.test(entry)) {
    const instant = dayjs(Number(entry));
    return instant.isValid()
      ? { kind: 'date', value: instant.format(DATE_ONLY_FORMAT) }
      : { kind: 'invalid' };
  }

  const monthDay = MONTH_DAY.exec(entry);
  const full = monthDay ? MONTH_DAY_YEAR.exec(`${entry}/${now.getFullYear()}`) : MONTH_DAY_YEAR.exec(entry);
  if (!full) return { kind: 'invalid' };
  const [, month = '', day = '', year = ''] = full;
  const value = `${year}-${pad(month)}-${pad(day)}`;
  // 2/30 or 13/1 are refused rather than rolled over.
  return isDateValue(value) ? { kind: 'date', value } : { kind: 'invalid' };
}

/** 'YYYY-MM-DD' as people read and type it: M/D/YYYY ('' stays ''). */
export function formatDateEntry(value: string): string {
  if (!isDateValue(value)) return '';
  return dayjs(value).format(DATE_INPUT_FORMAT);
}

/**
 * The constraints as SPEC §5 words them: a date on or before `after` breaks the lower one, a date on or
 * after `before` the upper one. Both are 'YYYY-MM-DD' and exclusive.
 */
export interface DateBounds {
  after?: string | undefined;
  before?: string | undefined;
}

/** Inclusive limits (as shared's DateRange and the calendar use them) turned into the exclusive bounds. */
export function boundsFromRange(minDate?: string, maxDate?: string): DateBounds {
  const shift = (date: string | undefined, days: number) =>
    date && isDateValue(date) ? dayjs(date).add(days, 'day').format(DATE_ONLY_FORMAT) : undefined;
  return { after: shift(minDate, -1), before: shift(maxDate, 1) };
}

/** Both kinds of bound together: the tighter one wins on each side. */
export function mergeBounds(a: DateBounds, b: DateBounds): DateBounds {
  const later = (x?: string, y?: string) => (x && y ? (x > y ? x : y) : x || y);
  const earlier = (x?: string, y?: string) => (x && y ? (x < y ? x : y) : x || y);
  return { after: later(a.after, b.after), before: earlier(a.before, b.before) };
}

/**
 * The message for a date outside the bounds, or undefined when it is inside. The bound is written as
 * SPEC §9 shows dates ('Date must be after Jan 4, 2024'), not as it is typed.
 */
export function dateBoundsError(value: string, { after, before }: DateBounds): string | undefined {
  const shown = (date: string) => dayjs(date).format(DATE_DISPLAY_FORMAT);
  // 'YYYY-MM-DD' strings order as the days they name, so plain comparison is enough.
  if (after && value <= after) return dateMustBeAfter(shown(after));
  if (before && value >= before) return dateMustBeBefore(shown(before));
  return undefined;
}

/** The inclusive first and last selectable days, for the calendar. */
export function selectableRange({ after, before }: DateBounds): { min?: string; max?: string } {
  const shift = (date: string, days: number) => dayjs(date).add(days, 'day').format(DATE_ONLY_FORMAT);
  return { min: after ? shift(after, 1) : undefined, max: before ? shift(before, -1) : undefined };
}

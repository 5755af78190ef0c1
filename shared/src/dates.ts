/**
 * Calendar dates ('YYYY-MM-DD') and the instants at which they begin and end in a time zone. Dates in this
 * product are days, not instants: a deadline means the whole of that day where the store is, so every
 * comparison between a date and a moment goes through the zone (DESIGN 'Pricing', deviation 6).
 */
import { DATE_ONLY_FORMAT, DEFAULT_TZ_STORE } from './constants.js';
import { dayjs } from './day.js';

const DATE_ONLY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar day written YYYY-MM-DD (so '2023-02-29' is false). */
export function isDateOnly(value: string): boolean {
  // The shape test pins the exact wire format; strict parsing then rejects days the calendar lacks.
  return DATE_ONLY_SHAPE.test(value) && dayjs(value, DATE_ONLY_FORMAT, true).isValid();
}

export function assertDateOnly(value: string, what = 'date'): void {
  if (!isDateOnly(value)) throw new RangeError(`Invalid ${what} '${value}': expected YYYY-MM-DD`);
}

// Building an Intl.DateTimeFormat costs tens of microseconds, and pricing one cart asks about the same
// zone many times: a name Intl accepted once is taken as known (a process meets only a few zones).
const knownZones = new Set<string>();

export function assertTimeZone(timeZone: string): void {
  if (knownZones.has(timeZone)) return;
  // Intl is the authority on zone names; it throws a RangeError for unknown ones.
  new Intl.DateTimeFormat('en-US', { timeZone });
  knownZones.add(timeZone);
}

function assertInstant(now: Date): void {
  if (Number.isNaN(now.getTime())) throw new RangeError('Invalid Date');
}

// Every intent creation asks for the same few days' boundaries (the store's cut-off, its early-bird
// deadline) several times, and dayjs's parsing and zone arithmetic cost tens of microseconds a time: a
// fifth of the server's CPU under bench:store's 50 connections. Both answers depend on their arguments
// alone, so the latest few hundred are kept.
const MEMO_SIZE = 512;
const dayAdditions = new Map<string, string>();
const dayStarts = new Map<string, number>();

function remember<V>(memo: Map<string, V>, key: string, value: V): V {
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(key, value);
  return value;
}

/** Calendar arithmetic in UTC, where days never have 23 or 25 hours. */
export function addDays(date: string, days: number): string {
  const key = `${date} ${days}`;
  const known = dayAdditions.get(key);
  if (known !== undefined) return known;
  assertDateOnly(date);
  return remember(
    dayAdditions,
    key,
    dayjs.utc(date, DATE_ONLY_FORMAT, true).add(days, 'day').format(DATE_ONLY_FORMAT),
  );
}

/** The first instant of `date` in `timeZone` (not always 00:00 local: some zones skip midnight for DST). */
export function startOfDayIn(date: string, timeZone: string = DEFAULT_TZ_STORE): Date {
  const key = `${date} ${timeZone}`;
  const known = dayStarts.get(key);
  if (known !== undefined) return new Date(known);
  assertDateOnly(date);
  assertTimeZone(timeZone);
  return new Date(remember(dayStarts, key, dayjs.tz(date, timeZone).toDate().getTime()));
}

/** Whether `now` is on or before `date` as the calendar reads in `timeZone` (before the next day begins). */
export function isOnOrBeforeDay(date: string, now: Date, timeZone: string = DEFAULT_TZ_STORE): boolean {
  assertInstant(now);
  return now.getTime() < startOfDayIn(addDays(date, 1), timeZone).getTime();
}

/** The calendar date `now` falls on in `timeZone`. */
export function dateInZone(now: Date, timeZone: string = DEFAULT_TZ_STORE): string {
  assertInstant(now);
  assertTimeZone(timeZone);
  return dayjs(now).tz(timeZone).format(DATE_ONLY_FORMAT);
}

/** The time zone of the machine or browser this runs on: where its user's 'today' is. */
export function localTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

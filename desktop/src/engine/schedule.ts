/**
 * Scheduled bandwidth: limits that apply in chosen hours (office hours throttled, nights unlimited).
 * A window names days of the week, a start and an end time in the machine's local time, and the rate in
 * effect inside it; outside every window the plain limit applies. A window whose end is before its start
 * runs over midnight (22:00–06:00), and belongs to the day it starts on.
 */
import { z } from 'zod';
import { describeRate, parseRate } from './rate.js';

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

export const bandwidthWindowSchema = z
  .object({
    /** 0 = Sunday … 6 = Saturday, as Date.getDay(). */
    days: z.array(z.number().int().min(0).max(6)).min(1).max(7),
    from: z.string().regex(TIME, 'a time as HH:MM'),
    to: z.string().regex(TIME, 'a time as HH:MM'),
    /** Bytes per second inside the window; 0 = unlimited. */
    bytesPerSecond: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .refine((w) => w.from !== w.to, { message: 'A window must not start and end at the same time.' });
export type BandwidthWindow = z.infer<typeof bandwidthWindowSchema>;

export const MAX_WINDOWS = 14;

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Whether `at` (local time) falls inside the window. */
export function inWindow(window: BandwidthWindow, at: Date): boolean {
  const now = at.getHours() * 60 + at.getMinutes();
  const from = minutes(window.from);
  const to = minutes(window.to);
  const today = at.getDay();
  if (from < to) return window.days.includes(today) && now >= from && now < to;
  // Over midnight: the evening of a listed day, or the early hours after one.
  const yesterday = (today + 6) % 7;
  return (window.days.includes(today) && now >= from) || (window.days.includes(yesterday) && now < to);
}

/** The limit in effect at `at`: the first window that holds, else the plain limit. */
export function rateAt(
  settings: { bandwidthBytesPerSecond: number; schedule?: BandwidthWindow[] | undefined },
  at: Date,
): number {
  const window = settings.schedule?.find((w) => inWindow(w, at));
  return window ? window.bytesPerSecond : settings.bandwidthBytesPerSecond;
}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * A window as the command line writes it: 'Mon-Fri 09:00-18:00 2MB' (days as a range or a comma list,
 * 'daily' for all; the rate as `--bandwidth` takes it, in the progress line's units (rate.ts: '2M',
 * '2 MB/s', '500k'; 1 MB = 1,048,576 bytes), or 0 or 'unlimited'). Throws a readable error.
 */
export function parseWindow(text: string): BandwidthWindow {
  const match = /^\s*(\S+)\s+(\d{2}:\d{2})-(\d{2}:\d{2})\s+(\S.*?)\s*$/.exec(text);
  if (!match) throw new Error(`'${text}' is not a schedule window like 'Mon-Fri 09:00-18:00 2MB'.`);
  const [, dayText, from, to, rateText] = match;
  const dayOf = (name: string) => {
    const index = DAY_NAMES.findIndex((d) => d.toLowerCase() === name.slice(0, 3).toLowerCase());
    if (index < 0) throw new Error(`'${name}' is not a day of the week.`);
    return index;
  };
  let days: number[];
  if (/^daily$/i.test(dayText!)) days = [0, 1, 2, 3, 4, 5, 6];
  else {
    days = [];
    for (const part of dayText!.split(',')) {
      const [a, b] = part.split('-');
      if (b === undefined) days.push(dayOf(a!));
      else
        for (let d = dayOf(a!); ; d = (d + 1) % 7) {
          days.push(d);
          if (d === dayOf(b)) break;
        }
    }
  }
  let bytesPerSecond: number;
  try {
    // 'unlimited' as describeWindow says it, so what it prints reads back.
    bytesPerSecond = /^unlimited$/i.test(rateText!) ? 0 : parseRate(rateText!);
  } catch (error) {
    throw new Error(`'${text}': ${(error as Error).message}`, { cause: error });
  }
  const parsed = bandwidthWindowSchema.safeParse({
    days: [...new Set(days)].sort(),
    from,
    to,
    bytesPerSecond,
  });
  if (!parsed.success)
    throw new Error(`'${text}': ${parsed.error.issues[0]?.message ?? 'not a valid window'}`);
  return parsed.data;
}

/** 'Mon,Tue,Wed,Thu,Fri 09:00-18:00 2 MB/s': the rate in the progress line's units, as parseWindow reads it. */
export function describeWindow(window: BandwidthWindow): string {
  const days = window.days.length === 7 ? 'daily' : window.days.map((d) => DAY_NAMES[d]).join(',');
  return `${days} ${window.from}-${window.to} ${describeRate(window.bytesPerSecond)}`;
}

/**
 * Pure rules of the time input (SPEC §5 'Form widget rules'). Three modes:
 * - 12-hour with AM/PM (the default): shown 'hh:mm a', stored 'h:mm A' (like shared's DEFAULT_DELIVERY_TIME
 *   '8:00 AM'); a bad entry reads 'Invalid Time Format (h:mm A)';
 * - 12-hour without AM/PM (the form asks for AM/PM separately): shown and stored 'hh:mm', error '(hh:mm)';
 * - 24-hour: shown and stored 'HH:mm', error '(HH:mm)'.
 */
import {
  INVALID_TIME_FORMAT_12H,
  INVALID_TIME_FORMAT_12H_MERIDIEM,
  INVALID_TIME_FORMAT_24H,
  UPLOAD_MINUTE_STEP,
} from '@avp/shared';
import dayjs from 'dayjs';
import { widgetDefaults } from '../theme';

export type Clock = '12h' | '24h';

export interface TimeMode {
  clock: Clock;
  /** 12-hour clock only: whether the entry carries AM/PM. */
  meridiem: boolean;
}

export const DEFAULT_TIME_MODE: TimeMode = { clock: '12h', meridiem: true };

/** A time of day. `hour` is 0-23, except in 12-hour mode without AM/PM, where it is the 1-12 shown. */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

export type TimeEntry = { kind: 'empty' } | ({ kind: 'time' } & TimeOfDay) | { kind: 'invalid' };

const WITH_MERIDIEM = /^(\d{1,2}):(\d{2})\s*([ap])\.?\s*(?:m\.?)?$/i;
const HOURS_MINUTES = /^(\d{1,2}):(\d{2})$/;

export function timeFormatError({ clock, meridiem }: TimeMode): string {
  if (clock === '24h') return INVALID_TIME_FORMAT_24H;
  return meridiem ? INVALID_TIME_FORMAT_12H_MERIDIEM : INVALID_TIME_FORMAT_12H;
}

export function parseTimeEntry(text: string, { clock, meridiem }: TimeMode): TimeEntry {
  const entry = text.trim();
  if (entry === '') return { kind: 'empty' };
  const twelve = clock === '12h';
  const match = (twelve && meridiem ? WITH_MERIDIEM : HOURS_MINUTES).exec(entry);
  if (!match) return { kind: 'invalid' };
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (minute > 59) return { kind: 'invalid' };
  if (twelve ? hour < 1 || hour > 12 : hour > 23) return { kind: 'invalid' };
  if (twelve && meridiem) {
    const pm = match[3]?.toLowerCase() === 'p';
    return { kind: 'time', hour: (hour % 12) + (pm ? 12 : 0), minute };
  }
  return { kind: 'time', hour, minute };
}

function format(time: TimeOfDay, pattern: string): string {
  return dayjs().startOf('day').hour(time.hour).minute(time.minute).format(pattern);
}

/** The stored form of a time: 'h:mm A', 'hh:mm' or 'HH:mm' by mode. */
export function formatTimeValue(time: TimeOfDay, { clock, meridiem }: TimeMode): string {
  if (clock === '24h') return format(time, 'HH:mm');
  return format(time, meridiem ? 'h:mm A' : 'hh:mm');
}

/** The shown form of a time: 'hh:mm a', 'hh:mm' or 'HH:mm' by mode (widgetDefaults.time). */
export function formatTimeDisplay(time: TimeOfDay, { clock, meridiem }: TimeMode): string {
  const { displayFormat12h, displayFormat12hNoMeridiem, displayFormat24h } = widgetDefaults.time;
  if (clock === '24h') return format(time, displayFormat24h);
  return format(time, meridiem ? displayFormat12h : displayFormat12hNoMeridiem);
}

/** A stored value as shown in the input ('' when empty or unreadable). */
export function displayTimeValue(value: string, mode: TimeMode): string {
  const entry = parseTimeEntry(value, mode);
  return entry.kind === 'time' ? formatTimeDisplay(entry, mode) : '';
}

/** Choices of the hour list: 1-12 on the 12-hour clock, 0-23 on the 24-hour one. */
export function hourOptions(clock: Clock): string[] {
  return clock === '12h'
    ? Array.from({ length: 12 }, (_, i) => String(i + 1))
    : Array.from({ length: 24 }, (_, i) => String(i).padStart(2, '0'));
}

/** Choices of the minute list: '00', '05', ... '55' for the default step of 5 (SPEC §2). */
export function minuteOptions(step: number = UPLOAD_MINUTE_STEP): string[] {
  const safe = Math.max(1, Math.floor(step));
  return Array.from({ length: Math.ceil(60 / safe) }, (_, i) => String(i * safe).padStart(2, '0'));
}

export const MERIDIEM_OPTIONS = ['AM', 'PM'] as const;

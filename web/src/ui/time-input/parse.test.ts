import { describe, expect, it } from 'vitest';
import {
  displayTimeValue,
  formatTimeDisplay,
  formatTimeValue,
  hourOptions,
  MERIDIEM_OPTIONS,
  minuteOptions,
  parseTimeEntry,
  timeFormatError,
  type TimeMode,
} from './parse';

const H12: TimeMode = { clock: '12h', meridiem: true };
const H12_PLAIN: TimeMode = { clock: '12h', meridiem: false };
const H24: TimeMode = { clock: '24h', meridiem: false };

describe('timeFormatError (SPEC §5: per clock)', () => {
  it.each([
    [H12, 'Invalid Time Format (h:mm A)'],
    [H12_PLAIN, 'Invalid Time Format (hh:mm)'],
    [H24, 'Invalid Time Format (HH:mm)'],
  ])('%j → %s', (mode, message) => {
    expect(timeFormatError(mode)).toBe(message);
  });
});

describe('parseTimeEntry', () => {
  it.each([
    ['8:00 AM', 8, 0],
    ['08:05 am', 8, 5],
    ['8:05am', 8, 5],
    ['8:05 a.m.', 8, 5],
    ['12:00 AM', 0, 0],
    ['12:30 PM', 12, 30],
    ['1:15 pm', 13, 15],
    ['11:59 P', 23, 59],
  ])('12-hour with AM/PM reads %j as %i:%i', (text, hour, minute) => {
    expect(parseTimeEntry(text, H12)).toEqual({ kind: 'time', hour, minute });
  });

  it.each(['13:00 PM', '0:30 AM', '8:60 AM', '8:00', '8 AM', '8:0 AM', 'noon', '8:00 XM'])(
    '12-hour with AM/PM refuses %j',
    (text) => {
      expect(parseTimeEntry(text, H12)).toEqual({ kind: 'invalid' });
    },
  );

  it.each([
    ['08:05', 8, 5],
    ['12:00', 12, 0],
    ['1:30', 1, 30],
  ])('12-hour without AM/PM reads %j as %i:%i', (text, hour, minute) => {
    expect(parseTimeEntry(text, H12_PLAIN)).toEqual({ kind: 'time', hour, minute });
  });

  it.each(['00:30', '13:00', '8:00 AM', '8'])('12-hour without AM/PM refuses %j', (text) => {
    expect(parseTimeEntry(text, H12_PLAIN)).toEqual({ kind: 'invalid' });
  });

  it.each([
    ['00:00', 0, 0],
    ['8:05', 8, 5],
    ['23:59', 23, 59],
  ])('24-hour reads %j as %i:%i', (text, hour, minute) => {
    expect(parseTimeEntry(text, H24)).toEqual({ kind: 'time', hour, minute });
  });

  it.each(['24:00', '12:60', '8:00 PM', '0800'])('24-hour refuses %j', (text) => {
    expect(parseTimeEntry(text, H24)).toEqual({ kind: 'invalid' });
  });

  it('reads blank as empty', () => {
    expect(parseTimeEntry('  ', H12)).toEqual({ kind: 'empty' });
  });
});

describe('formatting', () => {
  it.each([
    [H12, { hour: 8, minute: 0 }, '8:00 AM', '08:00 am'],
    [H12, { hour: 20, minute: 5 }, '8:05 PM', '08:05 pm'],
    [H12, { hour: 0, minute: 0 }, '12:00 AM', '12:00 am'],
    [H12_PLAIN, { hour: 8, minute: 5 }, '08:05', '08:05'],
    [H24, { hour: 20, minute: 5 }, '20:05', '20:05'],
  ])('%j %j is stored %j and shown %j', (mode, time, stored, shown) => {
    expect(formatTimeValue(time, mode)).toBe(stored);
    expect(formatTimeDisplay(time, mode)).toBe(shown);
  });

  it("shows shared's DEFAULT_DELIVERY_TIME '8:00 AM' as '08:00 am' (12-hour default 'hh:mm a')", () => {
    expect(displayTimeValue('8:00 AM', H12)).toBe('08:00 am');
    expect(displayTimeValue('', H12)).toBe('');
  });
});

describe('picker choices (SPEC §2: hours 1 to 12, minutes in steps of 5, AM/PM)', () => {
  it('hours run 1 to 12 on the 12-hour clock and 00 to 23 on the 24-hour one', () => {
    expect(hourOptions('12h')).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
    expect(hourOptions('24h')).toHaveLength(24);
    expect(hourOptions('24h')[0]).toBe('00');
    expect(hourOptions('24h')[23]).toBe('23');
  });

  it('minutes come in steps of 5 by default', () => {
    expect(minuteOptions()).toEqual(['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55']);
    expect(minuteOptions(15)).toEqual(['00', '15', '30', '45']);
  });

  it('AM/PM choices', () => {
    expect(MERIDIEM_OPTIONS).toEqual(['AM', 'PM']);
  });
});

/** The command line's units: rates as the progress line prints them, durations, schedule windows. */
import { describe, expect, it } from 'vitest';
import { describeDuration, parseDuration } from '../src/cli/duration.js';
import { chosenSettings, describeSettings } from '../src/cli/run-settings.js';
import { parseRate } from '../src/engine/rate.js';
import { describeWindow } from '../src/engine/schedule.js';
import { formatSpeed } from '@avp/shared';

const MIB = 1024 * 1024;

describe('av-upload units', () => {
  it('a rate means what the progress line prints: 2M shows as 2 MB/s', () => {
    expect(parseRate('2M')).toBe(2 * MIB);
    expect(formatSpeed(parseRate('2M'))).toBe('2 MB/s');
    expect(parseRate('20MB')).toBe(20 * MIB);
    expect(parseRate('1.5 MB/s')).toBe(1.5 * MIB);
    expect(parseRate('500k')).toBe(500 * 1024);
    expect(formatSpeed(parseRate('10000KB'))).toBe('9.8 MB/s');
    expect(parseRate('2Mi')).toBe(2 * MIB);
    expect(parseRate('1G')).toBe(1024 * MIB);
    expect(parseRate('2000000')).toBe(2_000_000);
    expect(parseRate('0')).toBe(0);
    expect(() => parseRate('fast')).toThrow('Not a rate: fast (e.g. 2M for 2 MB/s, 500k, 0 for unlimited).');
  });

  it('durations: 90s, 2m, 1h, 1m30s, plain seconds; said back in words', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('2m')).toBe(120_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('3')).toBe(3_000);
    expect(() => parseDuration('soon')).toThrow('Not a duration: soon (e.g. 2m, 90s, 1h).');
    expect(() => parseDuration('')).toThrow();
    expect(describeDuration(3_000)).toBe('3 s');
    expect(describeDuration(90_000)).toBe('90 s');
    expect(describeDuration(120_000)).toBe('2 min');
    expect(describeDuration(125_000)).toBe('2 min 5 s');
    expect(describeDuration(3_600_000)).toBe('1 h');
  });

  it("--schedule: a window's rate in the same units as --bandwidth", () => {
    const schedule = (...windows: string[]) => chosenSettings({ schedule: windows }).schedule;
    const [window] = schedule('Mon-Fri 09:00-18:00 2MB')!;
    expect(window).toEqual({ days: [1, 2, 3, 4, 5], from: '09:00', to: '18:00', bytesPerSecond: 2 * MIB });
    expect(window!.bytesPerSecond).toBe(chosenSettings({ bandwidth: '2M' }).bandwidth);
    expect(schedule('daily 22:00-06:00 0')![0]!.bytesPerSecond).toBe(0);
    expect(schedule('Sat,Sun 10:00-12:00 1.5 MB/s')![0]!.bytesPerSecond).toBe(1.5 * MIB);
    expect(schedule('none')).toBeNull();
    expect(describeWindow(window!)).toBe('Mon,Tue,Wed,Thu,Fri 09:00-18:00 2 MB/s');
    expect(() => schedule('weekdays')).toThrow(/is not a schedule window like/);
    expect(() => schedule('Someday 09:00-18:00 2MB')).toThrow("'Someday' is not a day of the week.");
    expect(() => schedule('Mon 09:00-18:00 fast')).toThrow(
      "'Mon 09:00-18:00 fast': Not a rate: fast (e.g. 2M for 2 MB/s, 500k, 0 for unlimited).",
    );
    expect(
      describeSettings({ bandwidthBytesPerSecond: 20 * MIB, partConcurrency: 4, schedule: [window!] }),
    ).toEqual(['Bandwidth: 20 MB/s', 'Parts at once: 4', 'Schedule: Mon,Tue,Wed,Thu,Fri 09:00-18:00 2 MB/s']);
  });
});

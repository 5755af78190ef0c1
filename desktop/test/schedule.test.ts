import { formatSpeed } from '@avp/shared';
import { describe, expect, it } from 'vitest';
import {
  clampSettings,
  describeWindow,
  inWindow,
  MemoryStore,
  parseRate,
  parseWindow,
  rateAt,
  UploadEngine,
} from '../src/engine/index.js';

const KIB = 1024;
const MIB = 1024 * KIB;

/** Scheduled bandwidth: the limit in effect depends on the local day and hour. */
const officeHours = parseWindow('Mon-Fri 09:00-18:00 2MB');
const nights = parseWindow('daily 22:00-06:00 0');
// 2026-11-23 is a Monday.
const at = (day: number, hour: number, minute = 0) => new Date(2026, 10, 23 + day, hour, minute);

describe('bandwidth windows', () => {
  it('reads the command line form', () => {
    expect(officeHours).toEqual({
      days: [1, 2, 3, 4, 5],
      from: '09:00',
      to: '18:00',
      bytesPerSecond: 2 * MIB,
    });
    expect(parseWindow('sat,sun 00:00-23:59 500KB')).toMatchObject({
      days: [0, 6],
      bytesPerSecond: 500 * KIB,
    });
    expect(parseWindow('Fri-Mon 10:00-11:00 1.5MB').days).toEqual([0, 1, 5, 6]);
    expect(describeWindow(officeHours)).toBe('Mon,Tue,Wed,Thu,Fri 09:00-18:00 2 MB/s');
    expect(describeWindow(nights)).toBe('daily 22:00-06:00 unlimited');
  });

  it('counts a rate as everything else does: KB and MB of 1024, as --bandwidth, the progress line and the KB/s field', () => {
    for (const rate of ['2M', '2MB', '2 MB/s', '2Mi', '500k', '500 KB/s', '1.5G', '2000000', '0'])
      expect(parseWindow(`Mon 09:00-18:00 ${rate}`).bytesPerSecond).toBe(parseRate(rate));
    // Said back as it was meant, and read back to the same bytes.
    for (const rate of ['2M', '500k', '1.5G', '0']) {
      const window = parseWindow(`Mon 09:00-18:00 ${rate}`);
      expect(parseWindow(describeWindow(window))).toEqual(window);
    }
    expect(parseWindow('Mon 09:00-18:00 2M').bytesPerSecond).toBe(2_097_152);
    expect(formatSpeed(parseWindow('Mon 09:00-18:00 2M').bytesPerSecond)).toBe('2 MB/s');
    // The window's field in KB/s: 10000 typed there is the window written with 10000KB.
    expect(parseWindow('Mon 09:00-18:00 10000KB').bytesPerSecond).toBe(10_000 * KIB);
    expect(() => parseWindow('Mon 09:00-18:00 2 Mbit')).toThrow(
      "'Mon 09:00-18:00 2 Mbit': Not a rate: 2 Mbit (e.g. 2M for 2 MB/s, 500k, 0 for unlimited).",
    );
  });

  it.each([
    'Mon-Fri 9:00-18:00 2MB',
    'Funday 09:00-10:00 1MB',
    'Mon 09:00-09:00 1MB',
    'Mon 25:00-26:00 1MB',
    '',
  ])('refuses %j with a readable error', (text) => {
    expect(() => parseWindow(text)).toThrow(/schedule window|not a day|same time|HH:MM/);
  });

  it.each([
    [at(0, 9), true],
    [at(0, 8, 59), false],
    [at(0, 17, 59), true],
    [at(0, 18), false],
    [at(5, 12), false], // Saturday
  ])('office hours hold at %s: %s', (date, expected) => {
    expect(inWindow(officeHours, date)).toBe(expected);
  });

  it('runs a window over midnight into the next day', () => {
    const fridayNight = parseWindow('Fri 22:00-06:00 1MB');
    expect(inWindow(fridayNight, at(4, 23))).toBe(true);
    expect(inWindow(fridayNight, at(5, 5, 59))).toBe(true); // Saturday early hours
    expect(inWindow(fridayNight, at(5, 6))).toBe(false);
    expect(inWindow(fridayNight, at(0, 3))).toBe(false); // Monday early hours: Sunday is not listed
  });

  it('applies the first window that holds, else the plain limit', () => {
    const settings = { bandwidthBytesPerSecond: 5 * MIB, schedule: [officeHours, nights] };
    expect(rateAt(settings, at(0, 10))).toBe(2 * MIB);
    expect(rateAt(settings, at(0, 23))).toBe(0);
    expect(rateAt(settings, at(0, 20))).toBe(5 * MIB);
  });

  it('drops windows that do not parse from saved settings, and keeps the rest', () => {
    const clamped = clampSettings({
      bandwidthBytesPerSecond: 1,
      schedule: [officeHours, { days: [9], from: 'x', to: 'y', bytesPerSecond: -1 } as never],
    });
    expect(clamped.schedule).toEqual([officeHours]);
  });

  it("sets the engine's bucket from the schedule as the clock moves", () => {
    let now = at(0, 8, 59);
    const engine = new UploadEngine({
      baseUrl: 'http://127.0.0.1:9',
      store: new MemoryStore(),
      token: () => null,
      clock: () => now,
    });
    engine.setSettings({ bandwidthBytesPerSecond: 0, schedule: [officeHours] });
    expect(engine.bucket.bytesPerSecond).toBe(0);
    now = at(0, 9);
    engine.applySchedule();
    expect(engine.bucket.bytesPerSecond).toBe(2 * MIB);
    now = at(0, 18);
    engine.applySchedule();
    expect(engine.bucket.bytesPerSecond).toBe(0);
  });
});

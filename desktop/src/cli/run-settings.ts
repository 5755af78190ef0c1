/**
 * --bandwidth, --parallel and --schedule: on `upload`, `resume` and `watch` they apply to that run only
 * (engine.setRunOverrides); on `settings` they are saved as the defaults of every later run. Rates are in
 * the progress line's units (rate.ts), in --schedule windows too.
 */
import { formatSpeed } from '@avp/shared';
import { parseWindow } from '../engine/schedule.js';
import type { BandwidthWindow } from '../engine/schedule.js';
import type { EngineSettings } from '../engine/state.js';
import { CliError, EXIT } from './errors.js';
import { parseRate } from './rate.js';

export interface ChosenSettings {
  bandwidth?: number;
  parallel?: number;
  /** null: no schedule (`--schedule none`). */
  schedule?: BandwidthWindow[] | null;
}

/** A window as 'Mon-Fri 09:00-18:00 2MB': days and hours read by the engine, the rate in our units. */
export function parseScheduleWindow(text: string): BandwidthWindow {
  const match = /^(.*?)\s+(\d+(?:\.\d+)?\s*(?:[kmg]i?)?b?(?:\/s)?)$/i.exec(text.trim());
  if (!match) throw new Error(`'${text}' is not a schedule window like 'Mon-Fri 09:00-18:00 2MB'.`);
  // The days and hours are the engine's to read; the rate is given to it in bytes.
  const window = parseWindow(`${match[1]} 1`);
  return { ...window, bytesPerSecond: parseRate(match[2]!) };
}

export function chosenSettings(values: Record<string, unknown>): ChosenSettings {
  const chosen: ChosenSettings = {};
  try {
    if (values.bandwidth !== undefined) chosen.bandwidth = parseRate(String(values.bandwidth));
    const windows = values.schedule as string[] | undefined;
    if (windows !== undefined) {
      chosen.schedule = windows.some((w) => w.trim().toLowerCase() === 'none')
        ? null
        : windows.map(parseScheduleWindow);
    }
  } catch (error) {
    throw new CliError(EXIT.usage, (error as Error).message);
  }
  if (values.parallel !== undefined) {
    const n = Number(values.parallel);
    if (!Number.isInteger(n) || n < 1 || n > 8)
      throw new CliError(EXIT.usage, '--parallel takes a whole number from 1 to 8.');
    chosen.parallel = n;
  }
  return chosen;
}

/** The same choice as saved settings (`av-upload settings`). */
export function asSettings(chosen: ChosenSettings): Partial<EngineSettings> {
  return {
    ...(chosen.bandwidth !== undefined ? { bandwidthBytesPerSecond: chosen.bandwidth } : {}),
    ...(chosen.parallel !== undefined ? { partConcurrency: chosen.parallel } : {}),
    ...(chosen.schedule !== undefined ? { schedule: chosen.schedule ?? [] } : {}),
  };
}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export function describeRate(bytesPerSecond: number): string {
  return bytesPerSecond === 0 ? 'unlimited' : formatSpeed(bytesPerSecond);
}

/** 'Mon,Tue,Wed,Thu,Fri 09:00-18:00 2 MB/s', in the progress line's units. */
export function describeScheduleWindow(window: BandwidthWindow): string {
  const days = window.days.length === 7 ? 'daily' : window.days.map((d) => DAY_NAMES[d]).join(',');
  return `${days} ${window.from}-${window.to} ${describeRate(window.bytesPerSecond)}`;
}

/** Settings as lines: 'Bandwidth: 20 MB/s', 'Parts at once: 4', 'Schedule: …'. */
export function describeSettings(settings: EngineSettings): string[] {
  return [
    `Bandwidth: ${describeRate(settings.bandwidthBytesPerSecond)}`,
    `Parts at once: ${settings.partConcurrency}`,
    ...(settings.schedule?.length
      ? settings.schedule.map((w) => `Schedule: ${describeScheduleWindow(w)}`)
      : ['Schedule: none']),
  ];
}

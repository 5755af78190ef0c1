/**
 * --bandwidth, --parallel and --schedule: on `upload`, `resume` and `watch` they apply to that run only
 * (engine.setRunOverrides); on `settings` they are saved as the defaults of every later run. Rates are in
 * the progress line's units (engine/rate.ts), in --schedule windows too (the engine's parseWindow reads
 * them so).
 */
import { describeRate, parseRate } from '../engine/rate.js';
import { describeWindow, parseWindow } from '../engine/schedule.js';
import type { BandwidthWindow } from '../engine/schedule.js';
import type { EngineSettings } from '../engine/state.js';
import { CliError, EXIT } from './errors.js';

export interface ChosenSettings {
  bandwidth?: number;
  parallel?: number;
  /** null: no schedule (`--schedule none`). */
  schedule?: BandwidthWindow[] | null;
}

export function chosenSettings(values: Record<string, unknown>): ChosenSettings {
  const chosen: ChosenSettings = {};
  try {
    if (values.bandwidth !== undefined) chosen.bandwidth = parseRate(String(values.bandwidth));
    const windows = values.schedule as string[] | undefined;
    if (windows !== undefined) {
      chosen.schedule = windows.some((w) => w.trim().toLowerCase() === 'none')
        ? null
        : windows.map(parseWindow);
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

/** Settings as lines: 'Bandwidth: 20 MB/s', 'Parts at once: 4', 'Schedule: …'. */
export function describeSettings(settings: EngineSettings): string[] {
  return [
    `Bandwidth: ${describeRate(settings.bandwidthBytesPerSecond)}`,
    `Parts at once: ${settings.partConcurrency}`,
    ...(settings.schedule?.length
      ? settings.schedule.map((w) => `Schedule: ${describeWindow(w)}`)
      : ['Schedule: none']),
  ];
}

import { UploadEngine } from '../engine/engine.js';
import { parseWindow } from '../engine/schedule.js';
import { JsonFileStore } from '../engine/state.js';
import type { EngineSettings } from '../engine/state.js';
import { openCloud } from './cloud.js';
import { stateFile } from './config.js';
import type { Credentials } from './config.js';
import { CliError, EXIT } from './errors.js';
import { io } from './io.js';
import type { Io } from './io.js';
import { stopOnSignal } from './interrupt.js';
import { parseRate } from './rate.js';

/**
 * The upload engine on the queue in AV_UPLOAD_HOME, stopped by Ctrl-C, with this run's --bandwidth,
 * --schedule and --parallel saved into its settings. Without `o`, cloud sign-in pages are announced as
 * JSON events.
 */
export function openEngine(
  credentials: Credentials,
  home: string,
  values: Record<string, unknown>,
  o?: Io,
): UploadEngine {
  const engine = new UploadEngine({
    baseUrl: credentials.server,
    store: new JsonFileStore(stateFile(home)),
    token: () => credentials.token,
    cloud: openCloud(home, o ?? io(true)),
  });
  stopOnSignal(engine);
  const settings: Partial<EngineSettings> = {};
  try {
    if (values.bandwidth !== undefined)
      settings.bandwidthBytesPerSecond = parseRate(String(values.bandwidth));
    const windows = values.schedule as string[] | undefined;
    if (windows !== undefined) {
      settings.schedule = windows.some((w) => w.trim().toLowerCase() === 'none')
        ? []
        : windows.map(parseWindow);
    }
  } catch (error) {
    throw new CliError(EXIT.usage, (error as Error).message);
  }
  if (values.parallel !== undefined) {
    const n = Number(values.parallel);
    if (!Number.isInteger(n) || n < 1 || n > 8)
      throw new CliError(EXIT.usage, '--parallel takes a whole number from 1 to 8.');
    settings.partConcurrency = n;
  }
  if (Object.keys(settings).length > 0) engine.setSettings(settings);
  return engine;
}

import { UploadEngine } from '../engine/engine.js';
import { JsonFileStore } from '../engine/state.js';
import { timeoutsFromEnv } from '../engine/timeouts.js';
import { openCloud } from './cloud.js';
import { stateFile } from './config.js';
import type { Credentials } from './config.js';
import { parseDuration } from './duration.js';
import { CliError, EXIT } from './errors.js';
import { io } from './io.js';
import type { Io } from './io.js';
import { stopOnSignal } from './interrupt.js';
import { DEFAULT_GIVE_UP_AFTER } from './options.js';
import { chosenSettings } from './run-settings.js';

/**
 * The upload engine on the queue in AV_UPLOAD_HOME, stopped by Ctrl-C, with this run's --bandwidth,
 * --schedule and --parallel applied to this run only (the saved defaults are `av-upload settings`').
 * Without `o`, cloud sign-in pages are announced as JSON events.
 */
export function openEngine(
  credentials: Credentials,
  home: string,
  values: Record<string, unknown>,
  o?: Io,
): UploadEngine {
  const overrides = chosenSettings(values);
  let timeouts;
  try {
    timeouts = timeoutsFromEnv();
  } catch (error) {
    throw new CliError(EXIT.usage, (error as Error).message);
  }
  const engine = new UploadEngine({
    timeouts,
    baseUrl: credentials.server,
    store: new JsonFileStore(stateFile(home)),
    token: () => credentials.token,
    cloud: openCloud(home, o ?? io(true)),
  });
  stopOnSignal(engine);
  if (Object.keys(overrides).length > 0) engine.setRunOverrides(overrides);
  return engine;
}

/** How long this run keeps trying a server that does not answer: --give-up-after, else the environment's. */
export function giveUpAfterMs(values: Record<string, unknown>): number {
  const given = values['give-up-after'];
  const text =
    given !== undefined ? String(given) : (process.env.AV_UPLOAD_GIVE_UP_AFTER ?? DEFAULT_GIVE_UP_AFTER);
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (error) {
    throw new CliError(
      EXIT.usage,
      `${given !== undefined ? '--give-up-after' : 'AV_UPLOAD_GIVE_UP_AFTER'}: ${(error as Error).message}`,
    );
  }
  if (ms <= 0) throw new CliError(EXIT.usage, '--give-up-after takes a time above zero (e.g. 30s, 2m, 1h).');
  return ms;
}

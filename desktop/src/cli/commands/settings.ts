/**
 * `settings [--bandwidth R] [--parallel N] [--schedule W]…`: the defaults every later run starts with,
 * saved with the queue; without options, shows them. (The same options on upload, resume or watch run
 * apply to that run only.)
 */
import { UploadEngine } from '../../engine/engine.js';
import { JsonFileStore } from '../../engine/state.js';
import { readCredentials, stateFile } from '../config.js';
import { CliError, EXIT } from '../errors.js';
import { holdQueue } from '../queue-lock.js';
import { asSettings, chosenSettings, describeSettings } from '../run-settings.js';
import { defaultServer } from '../session.js';
import type { Command } from './command.js';

export const settings: Command = async ({ values, args, home, o }) => {
  const chosen = asSettings(chosenSettings(values));
  if (args.length > 0)
    throw new CliError(
      EXIT.usage,
      `settings takes no ${args.join(' ')}: only --bandwidth, --parallel and --schedule.`,
    );
  // Saved with the queue, which a running av-upload would write over: not while one runs.
  if (Object.keys(chosen).length > 0) holdQueue(home, 'settings');
  // Never started: it only reads and writes the saved settings, and needs neither sign-in nor server.
  const engine = new UploadEngine({
    baseUrl: readCredentials(home)?.server ?? defaultServer(),
    store: new JsonFileStore(stateFile(home)),
    token: () => null,
  });
  const changed = Object.keys(chosen).length > 0;
  const saved = changed ? engine.setSettings(chosen) : engine.settings;
  await engine.stop();
  if (o.json) o.event({ event: 'settings', saved: changed, settings: saved });
  else {
    o.out(changed ? 'Saved; every later run starts with:' : 'Every run starts with:');
    for (const line of describeSettings(saved)) o.out(`  ${line}`);
  }
  return EXIT.ok;
};

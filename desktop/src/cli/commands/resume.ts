/** `resume`: the saved queue goes on, paused, failed and waiting files included. */
import { EXIT } from '../errors.js';
import { follow } from '../follow.js';
import { giveUpAfterMs, openEngine } from '../open-engine.js';
import { holdQueue } from '../queue-lock.js';
import { signedIn } from '../session.js';
import type { Command } from './command.js';

export const resume: Command = async ({ values, home, o }) => {
  const giveUp = giveUpAfterMs(values);
  const credentials = signedIn(home);
  holdQueue(home, 'resume');
  const engine = openEngine(credentials, home, values, o);
  const pending = engine.snapshot().jobs.length;
  if (pending === 0) {
    await engine.stop();
    if (o.json) o.event({ event: 'idle', jobs: 0 });
    else o.out('Nothing to resume.');
    return EXIT.ok;
  }
  if (!o.json) o.out(`Resuming ${pending} submission(s).`);
  return follow(
    engine,
    o,
    async () => {
      await engine.start({ giveUpAfterMs: giveUp });
      await engine.resumeAll();
    },
    { home, server: credentials.server, command: 'resume', giveUpAfterMs: giveUp },
  );
};

/**
 * One av-upload at a time on a queue: the engine keeps the queue in memory and writes it whole, so two
 * processes on the same AV_UPLOAD_HOME (a `watch` running while an `upload` starts in another terminal,
 * say) would each overwrite the other's jobs and settings. The first takes AV_UPLOAD_HOME/queue.lock
 * (created exclusively, holding its process id); another is refused with who holds it. A lock left by a
 * process that is gone (killed, a crash) is taken over.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CliError, EXIT } from './errors.js';
import { alive } from './live-state.js';

interface Holder {
  pid: number;
  command: string;
}

let held: string | null = null;

export function holdQueue(home: string, command: string): void {
  if (held) return;
  const file = path.join(home, 'queue.lock');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify({ pid: process.pid, command } satisfies Holder), {
        flag: 'wx',
        mode: 0o600,
      });
      held = file;
      process.once('exit', release);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    if (holder && holder.pid !== process.pid && alive(holder.pid))
      throw new CliError(
        EXIT.usage,
        `Another av-upload (\`av-upload ${holder.command}\`, process ${holder.pid}) is using the queue in ${home}: ` +
          'wait for it to end, or stop it (Ctrl-C) first. (Two at once would overwrite each other’s jobs; ' +
          'a watched folder takes new files while `av-upload watch` runs.)',
      );
    // Gone: its lock is stale.
    try {
      unlinkSync(file);
    } catch {
      // Another process took it over first; the next attempt says who.
    }
  }
  throw new CliError(EXIT.usage, `The queue in ${home} is locked by another av-upload (queue.lock).`);
}

function release(): void {
  if (!held) return;
  try {
    if (readHolder(held)?.pid === process.pid) unlinkSync(held);
  } catch {
    // Already gone.
  }
  held = null;
}

function readHolder(file: string): Holder | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Holder;
  } catch {
    return null;
  }
}

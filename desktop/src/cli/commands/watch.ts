/** `watch add|list|remove|run`: folders whose new files are sent once they stop growing. */
import { stat } from 'node:fs/promises';
import { expandPaths } from '../../engine/paths.js';
import { FolderWatcher, identityOf } from '../../engine/watch.js';
import { CliError, EXIT } from '../errors.js';
import { checkForm, FLAG_OF } from '../form.js';
import { interrupted, signalStop } from '../interrupt.js';
import { openEngine } from '../open-engine.js';
import { holdQueue } from '../queue-lock.js';
import { announceConnection } from '../retry-lines.js';
import { signedIn } from '../session.js';
import type { Command } from './command.js';

export const watch: Command = async ({ values, args: [action = 'run', ...rest], home, o }) => {
  const credentials = signedIn(home);
  if (action !== 'list') holdQueue(home, action === 'run' ? 'watch' : `watch ${action}`);
  const engine = openEngine(credentials, home, values);
  const watcher = new FolderWatcher(engine, engine.watchStore(), {
    onError: (w, error) =>
      o.json
        ? o.event({ event: 'watch_error', folder: w.folder, message: error.message })
        : o.err(`${w.folder}: ${error.message}`),
  });
  switch (action) {
    case 'add': {
      const folder = rest[0];
      if (!folder || rest.length > 1) throw new CliError(EXIT.usage, 'watch add takes one FOLDER.');
      const check = checkForm(values, [{ name: folder }]);
      if (!check.ok) {
        for (const [field, message] of Object.entries(check.errors))
          o.err(`${FLAG_OF[field] ?? field}: ${message}`);
        return EXIT.usage;
      }
      const added = await watcher.add(folder, check.fields).catch((error: Error) => {
        throw new CliError(EXIT.usage, error.message);
      });
      // The files already there are sent too, unless --only-new: then they are recorded as sent.
      const existing = await expandPaths([added.folder]).catch(() => [] as string[]);
      if (values['only-new'] && existing.length > 0) {
        const identities: string[] = [];
        for (const file of existing) {
          const info = await stat(file).catch(() => null);
          if (info?.isFile()) identities.push(identityOf(file, info.size, info.mtimeMs));
        }
        engine.watchStore().markSent(added.id, identities);
      }
      const already = values['only-new']
        ? `the ${existing.length} file(s) already there are left alone`
        : `the ${existing.length} file(s) already there are sent too (add --only-new to leave them alone)`;
      if (o.json)
        o.event({
          event: 'watching',
          id: added.id,
          folder: added.folder,
          form: added.fields.form_type,
          existingFiles: existing.length,
          sendsExisting: !values['only-new'],
        });
      else
        o.out(
          `Watching ${added.folder} (${added.fields.form_type}); id ${added.id}. Every new file is sent once it has stopped growing; ${already}. Run \`av-upload watch\` to send.`,
        );
      await engine.stop();
      return EXIT.ok;
    }
    case 'list': {
      const all = watcher.list();
      if (o.json) o.event({ event: 'watches', watches: all });
      else if (all.length === 0) o.out('No watch folders.');
      else for (const w of all) o.out(`${w.id}  ${w.fields.form_type.padEnd(8)}  ${w.folder}`);
      await engine.stop();
      return EXIT.ok;
    }
    case 'remove': {
      const id = rest[0];
      if (!id || !watcher.list().some((w) => w.id === id))
        throw new CliError(EXIT.usage, `No watch folder with id ${id ?? '(none)'}.`);
      watcher.remove(id);
      if (!o.json) o.out('Stopped watching; files already queued still go.');
      await engine.stop();
      return EXIT.ok;
    }
    case 'run': {
      if (watcher.list().length === 0)
        throw new CliError(
          EXIT.usage,
          'No watch folders: add one with `av-upload watch add FOLDER --form …`.',
        );
      if (!o.json)
        for (const w of watcher.list())
          o.out(`Watching ${w.folder} (${w.fields.form_type}). Ctrl-C to stop.`);
      const connection = announceConnection(engine, o, home, 'watch');
      const off = engine.on((event) => {
        if (event.type === 'submitted') {
          if (o.json) o.event({ event: 'submitted', ...event.entry });
          else
            o.out(
              `Sent ${event.entry.files.map((f) => f.name).join(', ')} (submission ${event.entry.submissionId})`,
            );
        } else if (event.type === 'failed') {
          if (o.json) o.event({ event: 'failed', file: event.file, message: event.message });
          else o.err(`Failed${event.file ? ` (${event.file})` : ''}: ${event.message}`);
        }
      });
      await engine.start();
      watcher.start();
      // The watcher's and the engine's timers do not hold a process open on their own: this one does.
      const alive = setInterval(() => undefined, 60_000);
      const code = await interrupted;
      clearInterval(alive);
      await watcher.stop();
      off();
      connection.off();
      const stopping = signalStop();
      if (stopping) await stopping;
      return code;
    }
    default:
      throw new CliError(EXIT.usage, `Unknown watch action: ${action} (add, list, remove or run).`);
  }
};

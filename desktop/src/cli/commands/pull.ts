/**
 * `pull --event NAME [--accepted-only] [--bandwidth R] [--parallel N] DIR` (issue #31, staff): every file
 * of an event into DIR/<company>/<file>, each verified against the server's sha-256, resumable (a `.part`
 * and DIR/.av-upload-pull.json survive Ctrl-C or a crash), files present and verified skipped, and
 * DIR/manifest.csv written from the server's manifest. The work is the engine's (engine/pull.ts, which
 * the window's "Pull this event to a folder…" runs too); this command says it in a terminal's words.
 */
import { formatBytes } from '@avp/shared';
import path from 'node:path';
import { PullRefusedError, runPull, STAFF_ONLY } from '../../engine/pull.js';
import type { PullEvent } from '../../engine/pull.js';
import { timeoutsFromEnv } from '../../engine/timeouts.js';
import { CliError, EXIT, networkOrThrow } from '../errors.js';
import { chosenSettings } from '../run-settings.js';
import { signedIn } from '../session.js';
import type { Command } from './command.js';

export { PULL_STATE, STAFF_ONLY } from '../../engine/pull.js';

/** A call's refusal as av-upload's exit codes say: 401 sign in again, 403 a client, else the server's words. */
function refusal(error: PullRefusedError): CliError {
  if (error.status === 401)
    return new CliError(EXIT.auth, 'The session has expired, please relogin and try again.');
  if (error.status === 403) {
    // A staff member without the Media role is told the server's own words, not that they are a client.
    return new CliError(
      EXIT.uploadFailed,
      error.staffRefusal ? error.serverMessage : `${STAFF_ONLY} (${error.serverMessage})`,
    );
  }
  return new CliError(
    EXIT.uploadFailed,
    `The server refused the pull (${error.status}): ${error.serverMessage}`,
  );
}

export const pull: Command = async ({ values, args, home, o }) => {
  const event = String(values.event ?? '').trim();
  if (!event) throw new CliError(EXIT.usage, 'Name the event: av-upload pull --event "Expo 2027" DIR');
  if (args.length !== 1)
    throw new CliError(EXIT.usage, 'Give one folder to pull into: av-upload pull --event … DIR');
  const dir = path.resolve(args[0]!);
  const chosen = chosenSettings(values);
  const credentials = signedIn(home);
  const server = credentials.server.replace(/\/+$/, '');
  const timeouts = timeoutsFromEnv();

  let files = 0;
  let finished = 0;
  let bytes = 0;
  let total = 0;
  const onEvent = (e: PullEvent) => {
    if (e.type === 'listed') {
      files = e.files;
      total = e.totalBytes;
    } else if (e.type === 'bytes') {
      bytes += e.bytes;
    } else if (e.type === 'file-done') {
      finished += 1;
      const result =
        e.result === 'fetched' && e.resumedFrom > 0 ? `resumed from ${formatBytes(e.resumedFrom)}` : e.result;
      if (o.json) {
        const extra =
          e.result === 'mismatch'
            ? { sha256: e.got, attempts: e.attempts }
            : e.result === 'fetched'
              ? { resumedFrom: e.resumedFrom, attempts: e.attempts }
              : {};
        o.event({ event: 'pulled', id: e.id, file: e.path, size: e.size, result, ...extra });
      } else {
        // The progress line (stderr) is cleared first, so the file's line stands on its own.
        if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
        o.out(`${e.result === 'mismatch' ? '✗' : '✓'} ${e.path} (${formatBytes(e.size)}) ${result}`);
      }
    }
  };

  // On a terminal, one line redrawn twice a second: files done, bytes received and the rate.
  const began = performance.now();
  const progress =
    !o.json && process.stderr.isTTY
      ? setInterval(() => {
          const seconds = (performance.now() - began) / 1000;
          const rate = seconds > 0 ? bytes / seconds : 0;
          process.stderr.write(
            `\r\x1b[KPulling: ${finished} of ${files} files, ${formatBytes(bytes)} of up to ${formatBytes(total)} at ${formatBytes(Math.round(rate))}/s`,
          );
        }, 500)
      : null;
  let summary;
  try {
    summary = await runPull(
      {
        server,
        token: credentials.token,
        event,
        acceptedOnly: Boolean(values['accepted-only']),
        dir,
        parallel: chosen.parallel ?? 4,
        ...(chosen.bandwidth ? { bandwidth: chosen.bandwidth } : {}),
        timeouts,
      },
      onEvent,
    );
  } catch (error) {
    if (error instanceof PullRefusedError) throw refusal(error);
    // No answer: exit 6 in words; anything else (a disk's error) is thrown on as it is.
    return networkOrThrow(error, server);
  } finally {
    if (progress) {
      clearInterval(progress);
      process.stderr.write('\r\x1b[K');
    }
  }

  const { fetched, skipped, failed } = summary;
  const text = `Pulled ${summary.files} file${summary.files === 1 ? '' : 's'} of "${event}" into ${dir}: ${fetched} fetched (${formatBytes(summary.bytes)}), ${skipped} already there${failed.length ? `, ${failed.length} did not match` : ''}; manifest.csv written.`;
  if (o.json)
    o.event({ event: 'pull', files: summary.files, fetched, skipped, failed, bytes: summary.bytes, dir });
  else o.out(text);
  if (failed.length > 0) {
    const message = `Did not match the server's sha-256 after a second download: ${failed.join(', ')}. They are kept as .part files; run the pull again.`;
    if (o.json) o.event({ event: 'error', exitCode: EXIT.uploadFailed, message });
    else o.err(message);
    return EXIT.uploadFailed;
  }
  return EXIT.ok;
};

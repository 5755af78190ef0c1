/**
 * `pull --event NAME [--accepted-only] [--bandwidth R] [--parallel N] DIR` (issue #31, staff): every file
 * of an event into DIR/<company>/<file>, each verified against the server's sha-256, resumable (a `.part`
 * and DIR/.av-upload-pull.json survive Ctrl-C or a crash), files present and verified skipped, and
 * DIR/manifest.csv written from the server's manifest.
 */
import { formatBytes } from '@avp/shared';
import type { PullFile, PullResponse } from '@avp/shared';
import fs from 'node:fs/promises';
import path from 'node:path';
import { downloadFile, hashFile, HttpStatusError } from '../../engine/download.js';
import { timeoutsFromEnv } from '../../engine/timeouts.js';
import { TokenBucket } from '../../engine/token-bucket.js';
import { CliError, EXIT, networkOrThrow } from '../errors.js';
import { chosenSettings } from '../run-settings.js';
import { signedIn } from '../session.js';
import type { Command } from './command.js';
import { safeName, UniqueNames } from './pull-names.js';

export const PULL_STATE = '.av-upload-pull.json';
export const STAFF_ONLY = 'Pulling an event is for staff accounts; this account is a client account.';

interface StateEntry {
  /** Relative to DIR, with '/'. */
  path: string;
  sha256: string;
  size: number;
  /** The final file's size and mtime when it was last verified. */
  verified?: { size: number; mtimeMs: number };
}
interface PullState {
  files: Record<string, StateEntry>;
}

async function readState(file: string): Promise<PullState> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as PullState;
    return parsed && typeof parsed.files === 'object' ? parsed : { files: {} };
  } catch {
    return { files: {} };
  }
}

let saving: Promise<void> = Promise.resolve();
/** Written whole and renamed into place, one write at a time (files finish side by side). */
function writeState(file: string, state: PullState): Promise<void> {
  const write = async () => {
    await fs.writeFile(`${file}.tmp`, JSON.stringify(state, null, 1));
    await fs.rename(`${file}.tmp`, file);
  };
  saving = saving.then(write, write);
  return saving;
}

function serverMessage(body: string): string {
  try {
    return (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? body;
  } catch {
    return body;
  }
}

/** A call's refusal as av-upload's exit codes say: 401 sign in again, 403 a client, else the server's words. */
function refusal(status: number, body: string): CliError {
  if (status === 401)
    return new CliError(EXIT.auth, 'The session has expired, please relogin and try again.');
  if (status === 403) {
    // A staff member without the Media role is told the server's own words, not that they are a client.
    const staffRole = body.includes('"forbidden_role"') || body.includes('"second_factor_setup_required"');
    return new CliError(
      EXIT.uploadFailed,
      staffRole ? serverMessage(body) : `${STAFF_ONLY} (${serverMessage(body)})`,
    );
  }
  return new CliError(EXIT.uploadFailed, `The server refused the pull (${status}): ${serverMessage(body)}`);
}

async function call(server: string, token: string, route: string, responseMs: number): Promise<string> {
  let res: Response;
  let body: string;
  try {
    res = await fetch(`${server}${route}`, {
      headers: { authorization: `Bearer ${token}`, 'user-agent': 'av-upload pull' },
      signal: AbortSignal.timeout(responseMs),
    });
    body = await res.text();
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return networkOrThrow(cause && (error as Error).name !== 'TimeoutError' ? cause : error, server);
  }
  if (!res.ok) throw refusal(res.status, body);
  return body;
}

async function statOf(file: string) {
  try {
    return await fs.stat(file);
  } catch {
    return null;
  }
}

export const pull: Command = async ({ values, args, home, o }) => {
  const event = String(values.event ?? '').trim();
  if (!event) throw new CliError(EXIT.usage, 'Name the event: av-upload pull --event "Expo 2027" DIR');
  if (args.length !== 1)
    throw new CliError(EXIT.usage, 'Give one folder to pull into: av-upload pull --event … DIR');
  const dir = path.resolve(args[0]!);
  const chosen = chosenSettings(values);
  const parallel = chosen.parallel ?? 4;
  const credentials = signedIn(home);
  const server = credentials.server.replace(/\/+$/, '');
  const timeouts = timeoutsFromEnv();
  const query = `event=${encodeURIComponent(event)}${values['accepted-only'] ? '&acceptedOnly=1' : ''}`;
  const list = JSON.parse(
    await call(server, credentials.token, `/api/uploads/pull?${query}`, timeouts.responseMs),
  ) as PullResponse;

  await fs.mkdir(dir, { recursive: true });
  const stateFile = path.join(dir, PULL_STATE);
  const state = await readState(stateFile);
  const names = new UniqueNames();
  for (const entry of Object.values(state.files)) {
    const [folder, name] = entry.path.split('/');
    names.reserve(folder!, name!);
  }
  const files = [...list.files].sort(
    (a, b) => a.company.localeCompare(b.company) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
  );
  for (const f of files) {
    const known = state.files[f.id];
    if (known && known.sha256 === f.sha256) continue;
    const folder = safeName(f.company);
    state.files[f.id] = {
      path: `${folder}/${names.claim(folder, safeName(f.name))}`,
      sha256: f.sha256,
      size: f.size,
    };
  }
  await writeState(stateFile, state);

  const bucket = chosen.bandwidth ? new TokenBucket(chosen.bandwidth) : undefined;
  const failed: string[] = [];
  let fetched = 0;
  let skipped = 0;
  let bytes = 0;
  const queue = [...files];
  const report = (f: PullFile, entry: StateEntry, result: string, extra: Record<string, unknown> = {}) => {
    if (o.json) o.event({ event: 'pulled', id: f.id, file: entry.path, size: f.size, result, ...extra });
    else {
      // The progress line (stderr) is cleared first, so the file's line stands on its own.
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      o.out(`${result === 'mismatch' ? '✗' : '✓'} ${entry.path} (${formatBytes(f.size)}) ${result}`);
    }
  };

  const one = async (f: PullFile) => {
    const entry = state.files[f.id]!;
    const target = path.join(dir, ...entry.path.split('/'));
    await fs.mkdir(path.dirname(target), { recursive: true });
    const present = await statOf(target);
    if (present && present.size === f.size) {
      const same =
        entry.verified?.size === present.size && entry.verified.mtimeMs === present.mtimeMs
          ? true
          : (await hashFile(target)).hash.digest('hex') === f.sha256;
      if (same) {
        entry.verified = { size: present.size, mtimeMs: present.mtimeMs };
        skipped += 1;
        report(f, entry, 'already there');
        return;
      }
    }
    try {
      const outcome = await downloadFile(
        { url: `${server}${f.downloadUrl}`, size: f.size, sha256: f.sha256, path: target },
        {
          token: credentials.token,
          bucket,
          idleMs: timeouts.idleMs,
          connectMs: timeouts.connectMs,
          onBytes: (n) => (bytes += n),
        },
      );
      if (outcome.result === 'mismatch') {
        failed.push(entry.path);
        report(f, entry, 'mismatch', { sha256: outcome.got, attempts: outcome.attempts });
        return;
      }
      const done = await fs.stat(target);
      entry.verified = { size: done.size, mtimeMs: done.mtimeMs };
      fetched += 1;
      report(
        f,
        entry,
        outcome.resumedFrom > 0 ? `resumed from ${formatBytes(outcome.resumedFrom)}` : 'fetched',
        {
          resumedFrom: outcome.resumedFrom,
          attempts: outcome.attempts,
        },
      );
    } catch (error) {
      if (error instanceof HttpStatusError) throw refusal(error.status, error.body);
      return networkOrThrow(error, server);
    } finally {
      await writeState(stateFile, state);
    }
  };

  // On a terminal, one line redrawn twice a second: files done, bytes received and the rate.
  const total = files.reduce((sum, f) => sum + f.size, 0);
  const began = performance.now();
  const progress =
    !o.json && process.stderr.isTTY
      ? setInterval(() => {
          const seconds = (performance.now() - began) / 1000;
          const rate = seconds > 0 ? bytes / seconds : 0;
          process.stderr.write(
            `\r\x1b[KPulling: ${fetched + skipped + failed.length} of ${files.length} files, ${formatBytes(bytes)} of up to ${formatBytes(total)} at ${formatBytes(Math.round(rate))}/s`,
          );
        }, 500)
      : null;
  let stop: unknown = null;
  await Promise.all(
    Array.from({ length: Math.min(parallel, Math.max(1, queue.length)) }, async () => {
      while (queue.length > 0 && stop === null) {
        try {
          await one(queue.shift()!);
        } catch (error) {
          stop ??= error;
        }
      }
    }),
  );
  if (progress) {
    clearInterval(progress);
    process.stderr.write('\r\x1b[K');
  }
  if (stop !== null) throw stop;

  const csv = await call(
    server,
    credentials.token,
    `/api/uploads/pull?${query}&format=csv`,
    timeouts.responseMs,
  );
  await fs.writeFile(path.join(dir, 'manifest.csv'), csv);

  const summary = `Pulled ${files.length} file${files.length === 1 ? '' : 's'} of "${event}" into ${dir}: ${fetched} fetched (${formatBytes(bytes)}), ${skipped} already there${failed.length ? `, ${failed.length} did not match` : ''}; manifest.csv written.`;
  if (o.json) o.event({ event: 'pull', files: files.length, fetched, skipped, failed, bytes, dir });
  else o.out(summary);
  if (failed.length > 0) {
    const message = `Did not match the server's sha-256 after a second download: ${failed.join(', ')}. They are kept as .part files; run the pull again.`;
    if (o.json) o.event({ event: 'error', exitCode: EXIT.uploadFailed, message });
    else o.err(message);
    return EXIT.uploadFailed;
  }
  return EXIT.ok;
};

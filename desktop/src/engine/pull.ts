/**
 * The show pull (issue #31), shared by `av-upload pull` and the window's "Pull this event to a folder…":
 * every file of an event into DIR/<company>/<file> (names made safe and unique), fetched with Range
 * requests side by side, each verified against the server's sha-256 (a mismatch fetched once more, then
 * reported), resumable (a `.part` and DIR/.av-upload-pull.json survive a stop, a cancel or a crash), files
 * present and verified skipped, and DIR/manifest.csv written from the server's manifest. Pure Node: it
 * reports what it does as events, and its callers say it in their own words.
 */
import type { PullFile, PullResponse } from '@avp/shared';
import fs from 'node:fs/promises';
import path from 'node:path';
import { downloadFile, hashFile, HttpStatusError } from './download.js';
import { safeName, UniqueNames } from './pull-names.js';
import type { EngineTimeouts } from './timeouts.js';
import { TokenBucket } from './token-bucket.js';

export const PULL_STATE = '.av-upload-pull.json';
export const PULL_MANIFEST = 'manifest.csv';
/** The server's 403 for a client account, in words (the CLI adds the server's own in brackets). */
export const STAFF_ONLY = 'Pulling an event is for staff accounts; this account is a client account.';

export interface PullOptions {
  /** The API server, without a trailing slash. */
  server: string;
  token: string;
  event: string;
  acceptedOnly: boolean;
  /** Absolute folder to pull into (created when missing, after the server has answered). */
  dir: string;
  /** Files fetched at once. */
  parallel: number;
  /** Bytes per second for all downloads together; none: no limit. */
  bandwidth?: number;
  /** Aborted: no new file is begun, the files under way stop where they are (kept for a later pull). */
  signal?: AbortSignal;
  timeouts: Pick<EngineTimeouts, 'connectMs' | 'idleMs' | 'responseMs'>;
}

/** What one file came to: already there (verified), fetched (maybe resumed), or still not matching. */
export type PullFileResult =
  | { result: 'already there' }
  | { result: 'fetched'; resumedFrom: number; attempts: number }
  | { result: 'mismatch'; got: string; attempts: number };

export type PullEvent =
  /** The server's list is in and each file has its place under DIR. */
  | { type: 'listed'; files: number; totalBytes: number }
  /** A file is being checked or fetched (path relative to DIR, with '/'). */
  | { type: 'file-started'; id: string; path: string; size: number }
  /** Bytes of one file newly received. */
  | { type: 'bytes'; id: string; bytes: number }
  | ({ type: 'file-done'; id: string; path: string; size: number } & PullFileResult);

export interface PullSummary {
  event: string;
  dir: string;
  files: number;
  fetched: number;
  skipped: number;
  /** Paths (relative to DIR) that did not match the server's sha-256 after a second download. */
  failed: string[];
  bytes: number;
  /** Where manifest.csv was written; null when the pull was cancelled before it. */
  manifest: string | null;
  cancelled: boolean;
}

/** The server refused a call of the pull (its status and body, for the caller's own words). */
export class PullRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`The server refused the pull (${status}).`);
    this.name = 'PullRefusedError';
  }

  /** The server's own message (its JSON error's), or the body as it came. */
  get serverMessage(): string {
    try {
      return (JSON.parse(this.body) as { error?: { message?: string } }).error?.message ?? this.body;
    } catch {
      return this.body;
    }
  }

  /** A staff member refused for their role or the second-factor rule, not for being a client. */
  get staffRefusal(): boolean {
    return this.body.includes('"forbidden_role"') || this.body.includes('"second_factor_setup_required"');
  }
}

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

/** Written whole and renamed into place, one write at a time (files finish side by side). */
function stateWriter(file: string): (state: PullState) => Promise<void> {
  let saving: Promise<void> = Promise.resolve();
  return (state) => {
    const write = async () => {
      await fs.writeFile(`${file}.tmp`, JSON.stringify(state, null, 1));
      await fs.rename(`${file}.tmp`, file);
    };
    saving = saving.then(write, write);
    return saving;
  };
}

/**
 * One call of the pull route: its body, a PullRefusedError for an answer that is not 2xx, or the network's
 * own error (the fetch's cause, so its code names what happened) when nothing answered.
 */
export async function pullCall(
  server: string,
  token: string,
  route: string,
  responseMs: number,
): Promise<string> {
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
    throw cause && (error as Error).name !== 'TimeoutError' ? cause : error;
  }
  if (!res.ok) throw new PullRefusedError(res.status, body);
  return body;
}

async function statOf(file: string) {
  try {
    return await fs.stat(file);
  } catch {
    return null;
  }
}

/**
 * Runs one pull. Throws the first failure (PullRefusedError, a network error, a file system error) after
 * the files under way have settled; the state file is kept so the next pull resumes. A cancelled pull
 * resolves with `cancelled: true` and no manifest.
 */
export async function runPull(o: PullOptions, onEvent: (event: PullEvent) => void = () => undefined) {
  const query = `event=${encodeURIComponent(o.event)}${o.acceptedOnly ? '&acceptedOnly=1' : ''}`;
  const list = JSON.parse(
    await pullCall(o.server, o.token, `/api/uploads/pull?${query}`, o.timeouts.responseMs),
  ) as PullResponse;

  await fs.mkdir(o.dir, { recursive: true });
  const stateFile = path.join(o.dir, PULL_STATE);
  const writeState = stateWriter(stateFile);
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
  await writeState(state);
  onEvent({ type: 'listed', files: files.length, totalBytes: files.reduce((sum, f) => sum + f.size, 0) });

  const bucket = o.bandwidth ? new TokenBucket(o.bandwidth) : undefined;
  const summary: PullSummary = {
    event: o.event,
    dir: o.dir,
    files: files.length,
    fetched: 0,
    skipped: 0,
    failed: [],
    bytes: 0,
    manifest: null,
    cancelled: false,
  };
  const done = (f: PullFile, entry: StateEntry, outcome: PullFileResult) =>
    onEvent({ type: 'file-done', id: f.id, path: entry.path, size: f.size, ...outcome });

  const one = async (f: PullFile) => {
    const entry = state.files[f.id]!;
    onEvent({ type: 'file-started', id: f.id, path: entry.path, size: f.size });
    const target = path.join(o.dir, ...entry.path.split('/'));
    await fs.mkdir(path.dirname(target), { recursive: true });
    const present = await statOf(target);
    if (present && present.size === f.size) {
      const same =
        entry.verified?.size === present.size && entry.verified.mtimeMs === present.mtimeMs
          ? true
          : (await hashFile(target)).hash.digest('hex') === f.sha256;
      if (same) {
        entry.verified = { size: present.size, mtimeMs: present.mtimeMs };
        summary.skipped += 1;
        done(f, entry, { result: 'already there' });
        return;
      }
    }
    try {
      const outcome = await downloadFile(
        { url: `${o.server}${f.downloadUrl}`, size: f.size, sha256: f.sha256, path: target },
        {
          token: o.token,
          bucket,
          signal: o.signal,
          idleMs: o.timeouts.idleMs,
          connectMs: o.timeouts.connectMs,
          onBytes: (n) => {
            summary.bytes += n;
            onEvent({ type: 'bytes', id: f.id, bytes: n });
          },
        },
      );
      if (outcome.result === 'mismatch') {
        summary.failed.push(entry.path);
        done(f, entry, { result: 'mismatch', got: outcome.got, attempts: outcome.attempts });
        return;
      }
      const stored = await fs.stat(target);
      entry.verified = { size: stored.size, mtimeMs: stored.mtimeMs };
      summary.fetched += 1;
      done(f, entry, { result: 'fetched', resumedFrom: outcome.resumedFrom, attempts: outcome.attempts });
    } catch (error) {
      if (error instanceof HttpStatusError) throw new PullRefusedError(error.status, error.body);
      throw error;
    } finally {
      await writeState(state);
    }
  };

  const queue = [...files];
  let stop: unknown = null;
  await Promise.all(
    Array.from({ length: Math.min(o.parallel, Math.max(1, queue.length)) }, async () => {
      while (queue.length > 0 && stop === null && !o.signal?.aborted) {
        try {
          await one(queue.shift()!);
        } catch (error) {
          // A cancel stops a download where it is (whatever it then throws); its bytes stay in the .part.
          if (!o.signal?.aborted) stop ??= error;
        }
      }
    }),
  );
  if (stop !== null) throw stop;
  if (o.signal?.aborted) return { ...summary, cancelled: true };

  const csv = await pullCall(
    o.server,
    o.token,
    `/api/uploads/pull?${query}&format=csv`,
    o.timeouts.responseMs,
  );
  summary.manifest = path.join(o.dir, PULL_MANIFEST);
  await fs.writeFile(summary.manifest, csv);
  return summary;
}

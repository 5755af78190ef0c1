/**
 * The show pull as the window shows it (issue #31, "Pull this event to a folder…"): the engine's pull
 * events folded into one plain view (files done of total, bytes, MB/s, the files under way, the result),
 * the staff check and the event names the server knows, and every way a pull can stop said in a sentence.
 */
import { SESSION_EXPIRED, staffMayUse } from '@avp/shared';
import { AuthClient, AuthError } from './auth.js';
import { networkWords } from './failures.js';
import { PullRefusedError, pullCall, STAFF_ONLY } from './pull.js';
import type { PullEvent, PullSummary } from './pull.js';

export type PullState = 'listing' | 'pulling' | 'cancelling' | 'done' | 'cancelled' | 'failed';

export interface PullView {
  event: string;
  dir: string;
  acceptedOnly: boolean;
  state: PullState;
  /** Files of the event (known once the server has answered). */
  files: number;
  /** Files settled: fetched, skipped or not matching. */
  done: number;
  fetched: number;
  skipped: number;
  /** Paths (relative to dir) that did not match the server's sha-256 after a second download. */
  mismatched: string[];
  /** Bytes received in this pull. */
  bytes: number;
  /** Bytes of every file of the event (what is already there included). */
  totalBytes: number;
  /** 0–100: the settled files' bytes and those received for the files under way, of totalBytes. */
  percent: number;
  bytesPerSecond: number;
  /** The files under way, relative to dir. */
  current: string[];
  /** manifest.csv's path once written. */
  manifest: string | null;
  /** Why the pull stopped, in a sentence (state 'failed'). */
  error: string | null;
}

/** Samples over the last few seconds: a rate that follows the network, not the whole pull's average. */
const RATE_WINDOW_MS = 3000;

export class PullTracker {
  private readonly view: PullView;
  private readonly samples: { at: number; bytes: number }[] = [];
  /** Bytes of the settled files, and those received so far for each file under way. */
  private settledBytes = 0;
  private readonly underWay = new Map<string, number>();

  constructor(
    init: Pick<PullView, 'event' | 'dir' | 'acceptedOnly'>,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.view = {
      ...init,
      state: 'listing',
      files: 0,
      done: 0,
      fetched: 0,
      skipped: 0,
      mismatched: [],
      bytes: 0,
      totalBytes: 0,
      percent: 0,
      bytesPerSecond: 0,
      current: [],
      manifest: null,
      error: null,
    };
    this.samples.push({ at: this.now(), bytes: 0 });
  }

  get running(): boolean {
    return ['listing', 'pulling', 'cancelling'].includes(this.view.state);
  }

  apply(event: PullEvent): void {
    const v = this.view;
    switch (event.type) {
      case 'listed':
        v.files = event.files;
        v.totalBytes = event.totalBytes;
        if (v.state === 'listing') v.state = 'pulling';
        break;
      case 'file-started':
        v.current.push(event.path);
        this.underWay.set(event.id, 0);
        break;
      case 'bytes':
        v.bytes += event.bytes;
        this.underWay.set(event.id, (this.underWay.get(event.id) ?? 0) + event.bytes);
        break;
      case 'file-done':
        v.current = v.current.filter((p) => p !== event.path);
        this.underWay.delete(event.id);
        this.settledBytes += event.size;
        v.done += 1;
        if (event.result === 'fetched') v.fetched += 1;
        else if (event.result === 'already there') v.skipped += 1;
        else v.mismatched.push(event.path);
        break;
    }
  }

  cancelling(): void {
    if (this.running) this.view.state = 'cancelling';
  }

  finish(summary: PullSummary): void {
    this.view.state = summary.cancelled ? 'cancelled' : 'done';
    this.underWay.clear();
    this.view.manifest = summary.manifest;
    this.view.current = [];
  }

  fail(message: string): void {
    this.view.state = 'failed';
    this.view.error = message;
    this.view.current = [];
  }

  snapshot(): PullView {
    const at = this.now();
    this.samples.push({ at, bytes: this.view.bytes });
    while (this.samples.length > 2 && at - this.samples[1]!.at >= RATE_WINDOW_MS) this.samples.shift();
    const first = this.samples[0]!;
    const seconds = (at - first.at) / 1000;
    const bytesPerSecond =
      this.running && seconds > 0 ? Math.round((this.view.bytes - first.bytes) / seconds) : 0;
    let reached = this.settledBytes;
    for (const bytes of this.underWay.values()) reached += bytes;
    const { totalBytes, files, done } = this.view;
    const percent =
      totalBytes > 0
        ? Math.min(100, Math.floor((reached / totalBytes) * 100))
        : files > 0
          ? Math.floor((done / files) * 100)
          : this.view.state === 'done'
            ? 100
            : 0;
    return {
      ...this.view,
      percent,
      bytesPerSecond,
      mismatched: [...this.view.mismatched],
      current: [...this.view.current],
    };
  }
}

const FULL = new Set(['ENOSPC', 'EDQUOT']);
const NOT_WRITABLE: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the disk is read-only',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file of that name is in the way',
  EISDIR: 'a folder of that name is in the way',
};
const NO_ANSWER = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'TimeoutError',
]);

/** Why a pull stopped, as one sentence that says what to do; never a bare code. */
export function pullFailureWords(error: unknown, server: string, dir: string): string {
  if (error instanceof PullRefusedError) {
    if (error.status === 401) return SESSION_EXPIRED;
    if (error.status === 403)
      return error.staffRefusal ? `The server refused the pull: ${error.serverMessage}` : STAFF_ONLY;
    return `The server refused the pull (${error.status}): ${error.serverMessage}`;
  }
  const e = error as { code?: string; name?: string; message?: string; path?: string };
  const code = e?.code ?? e?.name ?? '';
  if (FULL.has(code))
    return `The disk is full: the pull stopped in ${dir}. Free some space or choose another folder, then pull again; what arrived is kept and the pull goes on from there.`;
  if (NOT_WRITABLE[code])
    return `The folder ${e.path ?? dir} cannot be written to (${NOT_WRITABLE[code]}). Choose another folder.`;
  if (NO_ANSWER.has(code))
    return `The server could not be reached: ${networkWords(error, server).message} Pull again when it answers; the pull goes on where it stopped.`;
  return `The pull stopped: ${e?.message ?? String(error)}`;
}

/**
 * Whether this account may pull, and the events it may pull: 'none' for a client (or staff without the
 * Media role the pull route asks for; the server refuses them anyway), 'unknown' when the server did not
 * say (no network), else the inbox's event names (those with files, free-text names grouped by text).
 */
export type PullEventsResult =
  | { access: 'staff'; events: string[] }
  | { access: 'staff'; events: null; error: string }
  | { access: 'none' }
  | { access: 'unknown'; error: string };

export async function pullEvents(
  server: string,
  token: string,
  responseMs: number,
): Promise<PullEventsResult> {
  let staff: boolean;
  try {
    const session = await new AuthClient(server).session(token);
    const user = session?.user;
    staff = user?.role === 'staff' && staffMayUse(user.staffRoles ?? [], 'pull');
  } catch (error) {
    if (error instanceof AuthError)
      return { access: 'unknown', error: error.status === 401 ? SESSION_EXPIRED : error.message };
    return { access: 'unknown', error: networkWords(error, server).message };
  }
  if (!staff) return { access: 'none' };
  try {
    const page = JSON.parse(await pullCall(server, token, '/api/uploads/inbox?pageSize=1', responseMs)) as {
      events?: unknown;
    };
    const events = Array.isArray(page.events)
      ? page.events.filter((name): name is string => typeof name === 'string' && name.trim() !== '')
      : [];
    return { access: 'staff', events };
  } catch (error) {
    return { access: 'staff', events: null, error: pullFailureWords(error, server, '') };
  }
}

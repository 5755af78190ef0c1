/**
 * Watch folders: a folder and a form; every new file in it that has stopped growing is uploaded into a
 * submission of that form. A file counts as finished once its size and modification time have not
 * changed for `stableMs` (10 s, MASV's growing-file rule: an export or a copy still being written keeps
 * growing). What was sent is remembered by path, size and modification time in the engine's persisted
 * state, so a restart never sends a file twice, and a file replaced by a new version is sent again.
 *
 * The folder is polled rather than watched with fs.watch: polling sees files on network shares and
 * external drives the same on every system, and a scan every few seconds costs nothing next to an upload.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { SubmissionFields } from '@avp/shared';
import { expandPaths } from './paths.js';

export interface WatchFolder {
  id: string;
  folder: string;
  fields: SubmissionFields;
  createdAt: string;
}

export interface WatchStore {
  watches(): WatchFolder[];
  setWatches(watches: WatchFolder[]): void;
  /** Identities already queued from this watch. */
  sent(watchId: string): Set<string>;
  /** Records identities as queued (or, with `sent` false, takes them back). */
  markSent(watchId: string, identities: string[], sent?: boolean): void;
}

export interface WatchOptions {
  /** How long a file must stay unchanged before it is sent. */
  stableMs?: number;
  /** How often the folders are scanned. */
  pollMs?: number;
  now?: () => number;
  onError?: (watch: WatchFolder, error: Error) => void;
}

export const STABLE_MS = 10_000;
const POLL_MS = 2_000;

/** Partial downloads and editors' temporary files, never sent. */
const TEMPORARY = /(\.(part|partial|crdownload|download|tmp|temp|swp)|~)$/i;

interface Seen {
  size: number;
  mtimeMs: number;
  since: number;
}

export const identityOf = (file: string, size: number, mtimeMs: number) =>
  `${file}|${size}|${Math.round(mtimeMs)}`;

export class FolderWatcher {
  private readonly seen = new Map<string, Seen>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private scanning: Promise<void> | null = null;
  private readonly stableMs: number;
  private readonly now: () => number;

  constructor(
    /** The engine (its add() saves the job at once, offline or not). */
    private readonly engine: { add(fields: SubmissionFields, paths: string[]): Promise<unknown> },
    private readonly store: WatchStore,
    private readonly options: WatchOptions = {},
  ) {
    this.stableMs = options.stableMs ?? STABLE_MS;
    this.now = options.now ?? (() => Date.now());
  }

  list(): WatchFolder[] {
    return this.store.watches();
  }

  /** Starts watching a folder for a form; files already in it are sent too, once they are stable. */
  async add(folder: string, fields: SubmissionFields): Promise<WatchFolder> {
    const resolved = path.resolve(folder);
    const info = await stat(resolved).catch(() => null);
    if (!info?.isDirectory()) throw new Error(`${folder} is not a folder.`);
    if (this.store.watches().some((w) => w.folder === resolved)) {
      throw new Error(`${resolved} is already watched.`);
    }
    const watch: WatchFolder = {
      id: randomUUID(),
      folder: resolved,
      fields,
      createdAt: new Date().toISOString(),
    };
    this.store.setWatches([...this.store.watches(), watch]);
    return watch;
  }

  remove(id: string): void {
    this.store.setWatches(this.store.watches().filter((w) => w.id !== id));
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.scan(), this.options.pollMs ?? POLL_MS);
    this.timer.unref?.();
    void this.scan();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.scanning;
  }

  /** One pass over every watched folder; resolves when the stable files found are queued. */
  scan(): Promise<void> {
    this.scanning ??= this.scanAll().finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  private async scanAll(): Promise<void> {
    for (const watch of this.store.watches()) {
      try {
        await this.scanOne(watch);
      } catch (error) {
        this.options.onError?.(watch, error as Error);
      }
    }
  }

  private async scanOne(watch: WatchFolder): Promise<void> {
    const files = (await expandPaths([watch.folder])).filter((f) => !TEMPORARY.test(path.basename(f)));
    const sent = this.store.sent(watch.id);
    const now = this.now();
    const ready: { file: string; identity: string }[] = [];
    for (const file of files) {
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) continue;
      const identity = identityOf(file, info.size, info.mtimeMs);
      if (sent.has(identity)) continue;
      const before = this.seen.get(file);
      if (!before || before.size !== info.size || before.mtimeMs !== info.mtimeMs) {
        this.seen.set(file, { size: info.size, mtimeMs: info.mtimeMs, since: now });
        continue;
      }
      if (now - before.since >= this.stableMs) ready.push({ file, identity });
    }
    if (ready.length === 0) return;
    // Recorded before the submission is made: should the app stop in between, the engine's own queue
    // (persisted by add) carries the upload on, and the file is not queued a second time.
    this.store.markSent(
      watch.id,
      ready.map((r) => r.identity),
    );
    for (const { file } of ready) this.seen.delete(file);
    try {
      await this.engine.add(
        watch.fields,
        ready.map((r) => r.file),
      );
    } catch (error) {
      // Not queued after all (a file vanished or became unreadable between the scan and add): next pass.
      this.store.markSent(
        watch.id,
        ready.map((r) => r.identity),
        false,
      );
      throw error;
    }
  }
}

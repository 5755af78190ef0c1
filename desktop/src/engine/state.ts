/**
 * What the engine persists so that a crash, a restart or a lost network never loses the queue: the
 * submissions in progress with each file's identity on disk, its server id and received parts, the
 * history of sent submissions, and the settings. The store is injected: electron-store in the app, a
 * JSON file for the CLI, memory in unit tests.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CloudProvider, ImportStatus, MediaCheck, MediaFacts, SubmissionFields } from '@avp/shared';
import type { BandwidthWindow } from './schedule.js';
import type { WatchFolder } from './watch.js';

export type EngineFileState = 'queued' | 'uploading' | 'paused' | 'complete' | 'failed';

export interface PersistedFile {
  /** Engine-local id of the file in its submission. */
  key: string;
  path: string;
  name: string;
  size: number;
  mtimeMs: number;
  type: string;
  /** The server's file id once registered. */
  fileId: string | null;
  state: EngineFileState;
  /** Parts the server confirmed (informational: the server's list is authoritative on resume). */
  receivedParts: number[];
  sha256: string | null;
  error: { code: string; message: string } | null;
  /** A file the server imports from a cloud account (path holds its ref, e.g. dropbox:/Events/keynote.mov). */
  cloud?: PersistedImport;
  /** Its media facts as read before it was queued (null: not readable); absent for cloud files (issue #30). */
  facts?: MediaFacts | null;
  /** Its facts against the event's spec when it was queued ('warn': sent, and the server records it). */
  check?: MediaCheck;
}

export interface PersistedImport {
  provider: CloudProvider;
  /** The provider's id of the file, as the API takes it (OneDrive: Graph's item id). */
  sourceId: string;
  /** OneDrive: the drive the item is in, sent apart from the item id (both may contain '!'). */
  driveId?: string;
  /** The server's last word on the copy (null until it is started). */
  status: ImportStatus | null;
  bytesDone: number;
  bytesPerSecond: number | null;
  /** Tokens handed over since the copy last moved, so a provider that keeps refusing ends in a clear failure. */
  renewals: number;
}

/** 'waiting': saved here, not yet registered with the server (offline-first: registered when it answers). */
export type JobState = 'waiting' | 'uploading' | 'failed' | 'submitting' | 'submitted';

export interface PersistedJob {
  id: string;
  /** The server's submission, null until the job is registered (state 'waiting'). */
  submissionId: string | null;
  fields: SubmissionFields;
  files: PersistedFile[];
  state: JobState;
  createdAt: string;
  error: { code: string; message: string } | null;
  /**
   * Set once the submission is sent while cloud imports still run on the server: the job stays in the
   * queue (state 'submitted') until they complete, then moves to the history.
   */
  sent?: { submittedAt: string; fields: Record<string, string> };
}

export interface HistoryEntry {
  /** The engine's job it came from (absent in entries written before it was kept). */
  jobId?: string;
  submissionId: string;
  formType: SubmissionFields['form_type'];
  fields: Record<string, string>;
  submittedAt: string;
  files: { name: string; size: number; sha256: string | null; path: string }[];
}

export interface EngineSettings {
  /** Parts in flight at once (1–8). */
  partConcurrency: number;
  /** Bytes per second for all uploads together; 0 = unlimited. */
  bandwidthBytesPerSecond: number;
  /** Limits for chosen hours (schedule.ts); outside them bandwidthBytesPerSecond applies. */
  schedule?: BandwidthWindow[];
}

export const DEFAULT_SETTINGS: EngineSettings = { partConcurrency: 4, bandwidthBytesPerSecond: 0 };
export const MAX_PART_CONCURRENCY = 8;

export interface EngineState {
  version: 1;
  jobs: PersistedJob[];
  history: HistoryEntry[];
  settings: EngineSettings;
  /** Watch folders (watch.ts) and, per watch, the identities of the files already queued from it. */
  watches?: WatchFolder[];
  watchSent?: Record<string, string[]>;
}

export function emptyState(): EngineState {
  return { version: 1, jobs: [], history: [], settings: { ...DEFAULT_SETTINGS } };
}

/**
 * Synchronous, like electron-store: a write has reached the store when save() returns, but for one that
 * comes while a background write is under way, which goes right after it (flush() waits for it).
 */
export interface EngineStore {
  load(): EngineState | undefined;
  save(state: EngineState): void;
  /**
   * Writes `state` without holding up the caller (progress, once a second: queue.ts); a save() after it
   * is written after it. Stores without it are saved the synchronous way.
   */
  saveInBackground?(state: EngineState): void;
  /** Resolves once everything saved is written; rejects with the failure of a background write. */
  flush?(): Promise<void>;
}

export class MemoryStore implements EngineStore {
  private state: string | undefined;
  load(): EngineState | undefined {
    return this.state === undefined ? undefined : (JSON.parse(this.state) as EngineState);
  }
  save(state: EngineState): void {
    this.state = JSON.stringify(state);
  }
}

let storesMade = 0;

/**
 * A JSON file written atomically (temporary file, then rename), so a crash mid-write keeps the old one.
 *
 * Progress is written in the background: a rename waits for the file system's journal, which under an
 * upload's gigabytes of writeback took 0.1-0.9 s (bench:many, #34), and done on the engine's own thread
 * it held up every part in flight for as long. One write at a time, in order: a save() while a background
 * write is under way is written right after it (the latest state wins), and flush() waits for both.
 */
export class JsonFileStore implements EngineStore {
  /** The background writes under way, and the state to write once they end (the latest, as text). */
  private writing: Promise<void> | null = null;
  private next: string | null = null;
  private failure: unknown = null;

  /** Its own in this process too: two stores of one file (a command's and a test's) never share it. */
  private readonly temporary: string;

  constructor(readonly file: string) {
    this.temporary = `${file}.${process.pid}-${++storesMade}.tmp`;
  }

  load(): EngineState | undefined {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as EngineState;
      return parsed.version === 1 ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  save(state: EngineState): void {
    if (this.writing) {
      // Renamed now, it could be overwritten by the older state under way: it goes next instead.
      this.next = JSON.stringify(state);
      return;
    }
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileSync(this.temporary, JSON.stringify(state), { mode: 0o600 });
    renameSync(this.temporary, this.file);
    this.failure = null;
  }

  saveInBackground(state: EngineState): void {
    this.next = JSON.stringify(state);
    this.writing ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.next !== null) {
        const text = this.next;
        this.next = null;
        try {
          await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
          await writeFile(this.temporary, text, { mode: 0o600 });
          await rename(this.temporary, this.file);
          this.failure = null;
        } catch (error) {
          // The next write tries again; flush() reports it if none succeeds.
          this.failure = error;
        }
      }
    } finally {
      this.writing = null;
    }
  }

  async flush(): Promise<void> {
    await this.writing;
    if (this.failure !== null) {
      const failure = this.failure;
      this.failure = null;
      throw failure;
    }
  }
}

/** electron-store (or anything with get/set of one key) as an EngineStore. */
export function keyValueStore(
  store: { get(key: string): unknown; set(key: string, value: unknown): void },
  key = 'engine',
): EngineStore {
  return {
    load: () => {
      const value = store.get(key) as EngineState | undefined;
      return value?.version === 1 ? value : undefined;
    },
    save: (state) => store.set(key, state),
  };
}

/**
 * What the engine persists so that a crash, a restart or a lost network never loses the queue: the
 * submissions in progress with each file's identity on disk, its server id and received parts, the
 * history of sent submissions, and the settings. The store is injected: electron-store in the app, a
 * JSON file for the CLI, memory in unit tests.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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

/** Synchronous, like electron-store: a write has reached the store when set() returns. */
export interface EngineStore {
  load(): EngineState | undefined;
  save(state: EngineState): void;
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

/** A JSON file written atomically (temporary file, then rename), so a crash mid-write keeps the old one. */
export class JsonFileStore implements EngineStore {
  constructor(readonly file: string) {}

  load(): EngineState | undefined {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as EngineState;
      return parsed.version === 1 ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  save(state: EngineState): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
    renameSync(temporary, this.file);
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

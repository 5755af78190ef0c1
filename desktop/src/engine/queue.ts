/**
 * The engine's persisted queue: the jobs with their files, the history of sent submissions, the saved
 * settings and the watch folders, in one EngineState written through the injected store (queue.json, an
 * atomic JSON file, for the CLI and the app). A change of state is written at once; progress alone at most
 * once a second (the server's list of received parts is what a resume trusts). Nothing here talks to the
 * network.
 */
import { emptyState } from './state.js';
import type {
  EngineSettings,
  EngineState,
  EngineStore,
  HistoryEntry,
  PersistedFile,
  PersistedJob,
} from './state.js';
import type { WatchFolder, WatchStore } from './watch.js';
import { clampSettings } from './bandwidth.js';

/** Files remembered per watch folder as sent. */
export const MAX_WATCH_MEMORY = 50_000;

export class JobQueue {
  private state: EngineState;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(
    private readonly store: EngineStore,
    private readonly historyLimit = 200,
  ) {
    this.state = store.load() ?? emptyState();
    this.state.settings = clampSettings(this.state.settings ?? {});
  }

  get jobs(): readonly PersistedJob[] {
    return this.state.jobs;
  }

  get history(): readonly HistoryEntry[] {
    return this.state.history;
  }

  get settings(): EngineSettings {
    return { ...this.state.settings };
  }

  set settings(settings: EngineSettings) {
    this.state.settings = settings;
    this.save();
  }

  /** Writes the queue now. */
  save(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (this.closed) return;
    this.store.save(this.state);
  }

  /**
   * Progress alone (a part confirmed) is saved at most once a second: losing the last second of it in a
   * crash costs nothing, while writing the queue after every part of a 10 GiB file would churn the disk.
   */
  saveSoon(): void {
    if (this.saveTimer || this.closed) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      if (this.closed) return;
      // Off the engine's thread where the store can: parts keep flowing while it is written.
      if (this.store.saveInBackground) this.store.saveInBackground(this.state);
      else this.store.save(this.state);
    }, 1_000);
    this.saveTimer.unref?.();
  }

  /** Resolves once every save so far is written (the store's background writes included). */
  flush(): Promise<void> {
    return this.store.flush?.() ?? Promise.resolve();
  }

  /** Writes what is pending and stops writing (the engine stopped: a new one continues from the file). */
  close(): void {
    this.save();
    this.closed = true;
  }

  add(job: PersistedJob): void {
    this.state.jobs.push(job);
    this.save();
  }

  remove(job: PersistedJob): void {
    this.state.jobs = this.state.jobs.filter((j) => j !== job);
    this.save();
  }

  has(job: PersistedJob): boolean {
    return this.state.jobs.includes(job);
  }

  /** A sent submission: out of the queue, first in the history. */
  finish(job: PersistedJob, entry: HistoryEntry): void {
    this.state.jobs = this.state.jobs.filter((j) => j !== job);
    this.state.history = [entry, ...this.state.history].slice(0, this.historyLimit);
    this.save();
  }

  clearHistory(): void {
    this.state.history = [];
    this.save();
  }

  find(jobId: string, key?: string): { job: PersistedJob; file?: PersistedFile } {
    const job = this.state.jobs.find((j) => j.id === jobId);
    if (!job) throw new Error(`No submission in the queue with id ${jobId}`);
    if (key === undefined) return { job };
    const file = job.files.find((f) => f.key === key);
    if (!file) throw new Error(`No file in the submission with key ${key}`);
    return { job, file };
  }

  fileByServerId(fileId: string): PersistedFile | undefined {
    for (const job of this.state.jobs) {
      const file = job.files.find((f) => f.fileId === fileId);
      if (file) return file;
    }
    return undefined;
  }

  watches(): WatchFolder[] {
    return (this.state.watches ?? []).map((w) => ({ ...w }));
  }

  /** Watch folders and what was sent from them, kept with the queue (watch.ts). */
  watchStore(onChange: () => void): WatchStore {
    return {
      watches: () => [...(this.state.watches ?? [])],
      setWatches: (watches) => {
        this.state.watches = watches;
        const ids = new Set(watches.map((w) => w.id));
        for (const id of Object.keys(this.state.watchSent ?? {})) {
          if (!ids.has(id)) delete this.state.watchSent![id];
        }
        this.save();
        onChange();
      },
      sent: (id) => new Set(this.state.watchSent?.[id] ?? []),
      markSent: (id, identities, sent = true) => {
        const all = (this.state.watchSent ??= {});
        const known = new Set(all[id] ?? []);
        for (const identity of identities) {
          if (sent) known.add(identity);
          else known.delete(identity);
        }
        // The oldest first: a long-running watch forgets files from long ago, not recent ones.
        all[id] = [...known].slice(-MAX_WATCH_MEMORY);
        this.save();
      },
    };
  }
}

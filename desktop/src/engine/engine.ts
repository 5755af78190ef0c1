/**
 * The upload engine: the shared upload client driven from Node for the desktop app and the
 * CLI. It owns no upload logic of its own beyond what a desktop needs around the shared client: files on
 * disk (read a part at a time), got with a bandwidth bucket, a persisted queue that survives crashes and
 * restarts, files edited after they were queued stopped with a clear message, and the submission sent
 * once every file is complete. Pure Node: nothing here imports electron.
 */
import { createHash, randomUUID } from 'node:crypto';
import { stat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { SESSION_EXPIRED, snapshot, SpeedMeter, UploadClient, UploadError } from '@avp/shared';
import type {
  CloudProvider,
  FileUpload,
  Hasher,
  ImportStatus,
  ProgressSnapshot,
  RetryPolicy,
  SubmissionFields,
  UploadTransport,
} from '@avp/shared';
import { fileChangedMessage, identify, mimeType, NodeFileSource, unchanged } from './file-source.js';
import { DEFAULT_SETTINGS, emptyState, MAX_PART_CONCURRENCY } from './state.js';
import type {
  EngineFileState,
  EngineSettings,
  EngineState,
  EngineStore,
  HistoryEntry,
  PersistedFile,
  PersistedJob,
} from './state.js';
import { bandwidthWindowSchema, MAX_WINDOWS, rateAt } from './schedule.js';
import { TokenBucket } from './token-bucket.js';
import type { WatchFolder, WatchStore } from './watch.js';

/** Files remembered per watch folder as sent. */
const MAX_WATCH_MEMORY = 50_000;
import { gotTransport } from './transport.js';
import { importOf, listImports, renewImport, startImport } from './imports.js';
import type { CloudTokenSource } from './imports.js';
import { CloudAccountError } from './cloud/errors.js';
import { PROVIDER_NAMES } from './cloud/config.js';
import type { CloudItem } from './cloud/types.js';

/** Tokens handed to an import that keeps refusing them, before it is reported failed. */
const MAX_RENEWALS = 3;

export interface EngineOptions {
  /** The API's origin, e.g. https://uploads.example.com. */
  baseUrl: string;
  store: EngineStore;
  /** The bearer token of the signed-in session, or null. */
  token: () => string | null;
  retry?: Partial<RetryPolicy>;
  /** Sent submissions kept in the history (newest first). */
  historyLimit?: number;
  /** For tests: another transport (wrapped around the got one, say). */
  wrapTransport?: (transport: UploadTransport) => UploadTransport;
  /** For tests: the wall clock the bandwidth schedule reads. */
  clock?: () => Date;
  /** Access tokens for cloud imports (CloudAccounts); without it a job cannot hold cloud files. */
  cloud?: CloudTokenSource;
  /** How often the server's import progress is read (ms). */
  importPollMs?: number;
}

export interface FileView {
  key: string;
  name: string;
  path: string;
  size: number;
  state: EngineFileState;
  sha256: string | null;
  error: { code: string; message: string } | null;
  progress: ProgressSnapshot;
  /** For a file the server imports from a cloud account: where from, and the server's state of the copy. */
  cloud?: { provider: CloudProvider; status: ImportStatus | null };
}

export interface JobView {
  id: string;
  submissionId: string;
  formType: SubmissionFields['form_type'];
  fields: SubmissionFields;
  state: PersistedJob['state'];
  error: { code: string; message: string } | null;
  files: FileView[];
  progress: ProgressSnapshot;
}

export interface EngineSnapshot {
  jobs: JobView[];
  overall: ProgressSnapshot;
  /** Whether anything is being sent or waits its turn. */
  active: boolean;
  history: HistoryEntry[];
  settings: EngineSettings;
  /** Folders whose new files are sent once they stop growing (watch.ts). */
  watches: WatchFolder[];
}

export type EngineEvent =
  | { type: 'change' }
  | { type: 'submitted'; entry: HistoryEntry }
  | { type: 'failed'; jobId: string; file: string | null; message: string }
  | { type: 'unauthorized' };

interface LiveFile {
  source: NodeFileSource;
  upload: FileUpload;
}

function nodeHasher(): Hasher {
  const hash = createHash('sha256');
  return { update: (data) => void hash.update(data), digest: () => hash.digest('hex') };
}

const STATE_OF: Record<FileUpload['state'], EngineFileState | null> = {
  waiting: 'queued',
  uploading: 'uploading',
  paused: 'paused',
  complete: 'complete',
  failed: 'failed',
  removed: null,
};

/** Every file under the given paths: files as they are, folders walked (hidden entries skipped). */
export async function expandPaths(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  async function walk(p: string): Promise<void> {
    const info = await stat(p);
    if (info.isFile()) {
      out.push(path.resolve(p));
    } else if (info.isDirectory()) {
      const entries = await readdir(p, { withFileTypes: true });
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        if (entry.isFile() || entry.isDirectory()) await walk(path.join(p, entry.name));
      }
    }
  }
  for (const p of paths) await walk(p);
  return [...new Set(out)];
}

export function clampSettings(
  settings: Partial<EngineSettings>,
  base: EngineSettings = DEFAULT_SETTINGS,
): EngineSettings {
  const parts = Math.round(settings.partConcurrency ?? base.partConcurrency);
  const rate = Math.round(settings.bandwidthBytesPerSecond ?? base.bandwidthBytesPerSecond);
  // Windows that do not parse are dropped rather than trusted (a hand-edited settings file, say).
  const schedule = (settings.schedule ?? base.schedule ?? [])
    .flatMap((w) => {
      const parsed = bandwidthWindowSchema.safeParse(w);
      return parsed.success ? [parsed.data] : [];
    })
    .slice(0, MAX_WINDOWS);
  return {
    partConcurrency: Math.min(MAX_PART_CONCURRENCY, Math.max(1, Number.isFinite(parts) ? parts : 4)),
    bandwidthBytesPerSecond: Math.max(0, Number.isFinite(rate) ? rate : 0),
    ...(schedule.length > 0 ? { schedule } : {}),
  };
}

export class UploadEngine {
  readonly client: UploadClient;
  readonly bucket: TokenBucket;
  private state: EngineState;
  private readonly live = new Map<string, LiveFile>();
  private readonly listeners = new Set<(event: EngineEvent) => void>();
  private readonly meter = new SpeedMeter(() => Date.now());
  private readonly sent = new Map<string, number>();
  private idleWaiters: (() => void)[] = [];
  private stopped = false;
  private started = false;
  private readonly historyLimit: number;
  private readonly clock: () => Date;
  private scheduleTimer: ReturnType<typeof setInterval> | null = null;
  private readonly transport: UploadTransport;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private polling = false;
  /** Cloud files whose import is being started or handed a token right now. */
  private readonly importBusy = new Set<string>();

  constructor(private readonly options: EngineOptions) {
    const loaded = options.store.load();
    this.state = loaded ?? emptyState();
    this.state.settings = clampSettings(this.state.settings ?? {});
    this.historyLimit = options.historyLimit ?? 200;
    this.clock = options.clock ?? (() => new Date());
    this.bucket = new TokenBucket(rateAt(this.state.settings, this.clock()));
    const base = gotTransport({
      baseUrl: options.baseUrl,
      token: options.token,
      bucket: this.bucket,
      onPartStored: (fileId, part) => this.partStored(fileId, part),
    });
    this.transport = options.wrapTransport ? options.wrapTransport(base) : base;
    this.client = new UploadClient({
      transport: this.transport,
      partConcurrency: this.state.settings.partConcurrency,
      createHasher: nodeHasher,
      retry: options.retry,
    });
  }

  on(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: EngineEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private saveTimer: ReturnType<typeof setTimeout> | null = null;

  private save(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (this.stopped) return;
    this.options.store.save(this.state);
  }

  /**
   * Progress alone (a part confirmed) is saved at most once a second: the server's list of received
   * parts is what a resume trusts, so losing the last second of it in a crash costs nothing, while
   * writing the queue after every part of a 10 GiB file would churn the disk and the heap.
   */
  private saveSoon(): void {
    if (this.saveTimer || this.stopped) return;
    this.saveTimer = setTimeout(() => this.save(), 1_000);
    this.saveTimer.unref?.();
  }

  private changed(): void {
    this.save();
    this.emit({ type: 'change' });
    this.checkIdle();
  }

  private progressed(): void {
    this.saveSoon();
    this.emit({ type: 'change' });
    this.checkIdle();
  }

  get settings(): EngineSettings {
    return { ...this.state.settings };
  }

  /** Watch folders and what was sent from them, kept with the queue (watch.ts). */
  watchStore(): WatchStore {
    return {
      watches: () => [...(this.state.watches ?? [])],
      setWatches: (watches) => {
        this.state.watches = watches;
        const ids = new Set(watches.map((w) => w.id));
        for (const id of Object.keys(this.state.watchSent ?? {})) {
          if (!ids.has(id)) delete this.state.watchSent![id];
        }
        this.changed();
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

  /** The bandwidth limit in effect now: the schedule's window for this hour, else the plain limit. */
  get bandwidthNow(): number {
    return rateAt(this.state.settings, this.clock());
  }

  /** Applies the limit the schedule sets for this moment (called each half minute, and on changes). */
  applySchedule(): void {
    const rate = this.bandwidthNow;
    if (rate !== this.bucket.bytesPerSecond) this.bucket.setRate(rate);
  }

  setSettings(settings: Partial<EngineSettings>): EngineSettings {
    this.state.settings = clampSettings(settings, this.state.settings);
    this.applySchedule();
    this.client.setPartConcurrency(this.state.settings.partConcurrency);
    this.changed();
    return this.settings;
  }

  /** Continues the persisted queue: files not paused, failed or complete are queued again. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.scheduleTimer = setInterval(() => this.applySchedule(), 30_000);
    this.scheduleTimer.unref?.();
    for (const job of this.state.jobs) {
      for (const file of job.files) {
        if (file.cloud || file.state === 'complete' || this.live.has(file.key)) continue;
        if (file.state === 'queued' || file.state === 'uploading') {
          if (!(await unchanged(file))) {
            this.failFile(job, file, { code: 'file_changed', message: fileChangedMessage(file.name) });
            continue;
          }
        }
        this.attach(job, file);
      }
      if (job.state === 'submitting') void this.submit(job);
      if (job.files.some((f) => f.cloud && f.fileId === null && f.state !== 'failed'))
        void this.startImports(job);
    }
    this.settleJobs();
    this.changed();
    this.pump();
    this.followImports();
  }

  /**
   * Creates a submission on the server with the (already validated) form fields and queues the files
   * (folders are walked). Returns the job.
   */
  async add(fields: SubmissionFields, paths: string[], cloudFiles: CloudItem[] = []): Promise<JobView> {
    const files = paths.length > 0 ? await expandPaths(paths) : [];
    if (files.length === 0 && cloudFiles.length === 0)
      throw new UploadError(400, 'no_files', 'Please Add a File.');
    if (cloudFiles.length > 0 && !this.options.cloud)
      throw new UploadError(400, 'no_cloud', 'Cloud files need connected cloud accounts.');
    const folder = cloudFiles.find((f) => f.folder);
    if (folder) throw new UploadError(400, 'not_a_file', `${folder.name} is a folder: pick the files in it.`);
    const identities = await Promise.all(files.map((f) => identify(f)));
    const submission = await this.client.createSubmission(fields);
    const job: PersistedJob = {
      id: randomUUID(),
      submissionId: submission.id,
      fields,
      state: 'uploading',
      createdAt: new Date().toISOString(),
      error: null,
      files: identities.map((identity) => ({
        key: randomUUID(),
        path: identity.path,
        name: path.basename(identity.path),
        size: identity.size,
        mtimeMs: identity.mtimeMs,
        type: mimeType(identity.path),
        fileId: null,
        state: 'queued',
        receivedParts: [],
        sha256: null,
        error: null,
      })),
    };
    for (const item of cloudFiles) {
      job.files.push({
        key: randomUUID(),
        path: item.path ? `${item.ref.slice(0, item.ref.indexOf(':'))}:${item.path}` : item.ref,
        name: item.name,
        size: item.size ?? 0,
        mtimeMs: 0,
        type: item.mimeType ?? '',
        fileId: null,
        state: 'queued',
        receivedParts: [],
        sha256: null,
        error: null,
        cloud: {
          provider: item.provider,
          sourceId: item.id,
          status: null,
          bytesDone: 0,
          bytesPerSecond: null,
          renewals: 0,
        },
      });
    }
    this.state.jobs.push(job);
    this.save();
    for (const file of job.files) if (!file.cloud) this.attach(job, file);
    this.changed();
    this.pump();
    if (cloudFiles.length > 0) void this.startImports(job);
    return this.jobView(job);
  }

  /**
   * Asks the API to import each cloud file of the job not yet started, with a fresh access token. The
   * server answers the same pick with the same file, so a start cut short by a crash is simply asked again.
   */
  private async startImports(job: PersistedJob): Promise<void> {
    for (const file of job.files) {
      if (!file.cloud || file.fileId !== null || file.state === 'failed' || this.importBusy.has(file.key))
        continue;
      this.importBusy.add(file.key);
      try {
        const cloud = file.cloud;
        const request = (accessToken: string) =>
          startImport(this.transport, job.submissionId, {
            provider: cloud.provider,
            fileId: cloud.sourceId,
            name: file.name,
            ...(file.size > 0 ? { size: file.size } : {}),
            ...(file.type ? { mimeType: file.type } : {}),
            accessToken,
          });
        let info;
        try {
          info = await request(await this.cloudToken(cloud.provider));
        } catch (error) {
          // The provider refused the cached token: once more with a new one.
          if (!(error instanceof UploadError && error.code === 'cloud_auth_failed')) throw error;
          info = await request(await this.cloudToken(cloud.provider, true));
        }
        if (this.stopped || !this.state.jobs.includes(job)) return;
        file.fileId = info.id;
        file.size = info.size;
        this.applyImport(job, file, info.import ?? null);
      } catch (error) {
        if (this.stopped) return;
        this.failFile(job, file, this.importError(file, error));
        if (error instanceof UploadError && error.status === 401) this.emit({ type: 'unauthorized' });
      } finally {
        this.importBusy.delete(file.key);
      }
      this.settleJobs();
      this.changed();
    }
    this.followImports();
  }

  private cloudToken(provider: CloudProvider, forceRefresh = false): Promise<string> {
    if (!this.options.cloud)
      throw new UploadError(400, 'no_cloud', 'Cloud files need connected cloud accounts.');
    return this.options.cloud.accessToken(provider, { forceRefresh });
  }

  private importError(file: PersistedFile, error: unknown): { code: string; message: string } {
    const name = PROVIDER_NAMES[file.cloud!.provider];
    if (error instanceof CloudAccountError)
      return {
        code: `cloud_${error.code}`,
        message: `${error.message} (${name}: connect it again, then resume.)`,
      };
    if (error instanceof UploadError)
      return error.status === 401
        ? { code: 'unauthenticated', message: SESSION_EXPIRED }
        : { code: error.code, message: error.message };
    return { code: 'import_failed', message: String(error) };
  }

  /** The server's word on one import, into the file's state. */
  private applyImport(
    job: PersistedJob,
    file: PersistedFile,
    info: {
      status: ImportStatus;
      bytesDone: number;
      bytesPerSecond: number | null;
      error: string | null;
    } | null,
  ): void {
    const cloud = file.cloud!;
    if (!info) return;
    if (info.bytesDone > cloud.bytesDone) cloud.renewals = 0;
    cloud.status = info.status;
    cloud.bytesDone = info.bytesDone;
    cloud.bytesPerSecond = info.bytesPerSecond;
    switch (info.status) {
      case 'complete':
        file.state = 'complete';
        file.error = null;
        break;
      case 'running':
        file.state = 'uploading';
        file.error = null;
        break;
      case 'queued':
        if (file.state !== 'failed') file.state = 'queued';
        break;
      case 'needs_auth':
        if (file.state !== 'failed') void this.renew(job, file);
        break;
      case 'failed':
        this.failFile(job, file, {
          code: 'import_failed',
          message: info.error ?? `${file.name} could not be copied.`,
        });
        break;
    }
  }

  /** Hands the server a new token for an import that waits for one (needs_auth, or failed and resumed). */
  private async renew(job: PersistedJob, file: PersistedFile): Promise<void> {
    const cloud = file.cloud!;
    if (this.importBusy.has(file.key) || !file.fileId) return;
    const name = PROVIDER_NAMES[cloud.provider];
    if (cloud.renewals >= MAX_RENEWALS) {
      this.failFile(job, file, {
        code: 'cloud_needs_auth',
        message: `${name} keeps refusing the sign-in for ${file.name}: connect ${name} again, then resume.`,
      });
      this.settleJobs();
      this.changed();
      return;
    }
    this.importBusy.add(file.key);
    try {
      cloud.renewals++;
      const info = await renewImport(
        this.transport,
        file.fileId,
        await this.cloudToken(cloud.provider, true),
      );
      if (this.stopped) return;
      file.error = null;
      file.state = 'queued';
      this.importBusy.delete(file.key);
      this.applyImport(job, file, info ?? null);
    } catch (error) {
      if (this.stopped) return;
      if (error instanceof UploadError && error.code === 'file_complete') {
        file.state = 'complete';
      } else {
        this.failFile(job, file, this.importError(file, error));
        if (error instanceof UploadError && error.status === 401) this.emit({ type: 'unauthorized' });
      }
    } finally {
      this.importBusy.delete(file.key);
    }
    this.settleJobs();
    this.changed();
    this.followImports();
  }

  /** Cloud files the server is copying (or will), whose progress is read from the API. */
  private followed(): { job: PersistedJob; file: PersistedFile }[] {
    return this.state.jobs.flatMap((job) =>
      job.files
        .filter((f) => f.cloud && f.fileId !== null && f.state !== 'complete' && f.state !== 'failed')
        .map((file) => ({ job, file })),
    );
  }

  /** Whether an import runs, or a sent job waits for its history entry. */
  private importsToFollow(): boolean {
    return (
      this.followed().length > 0 ||
      this.state.jobs.some((j) => j.sent && j.files.every((f) => f.state === 'complete'))
    );
  }

  /** Reads the server's import progress every importPollMs while an import runs. */
  private followImports(): void {
    if (this.stopped || this.pollTimer || !this.started || !this.importsToFollow()) return;
    this.pollTimer = setInterval(() => void this.pollImports(), this.options.importPollMs ?? 1_000);
    void this.pollImports();
  }

  private async pollImports(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      const followed = this.followed();
      if (followed.length > 0) {
        const listed = new Map((await listImports(this.transport)).map((i) => [i.fileId, i.import]));
        for (const { job, file } of followed) {
          if (this.stopped) return;
          if (this.importBusy.has(file.key)) continue;
          // The list covers the last days' imports; an older one is read on its own.
          const info =
            listed.get(file.fileId!) ?? (await importOf(this.transport, file.fileId!)).import ?? null;
          this.applyImport(job, file, info);
        }
      }
      await this.finishSent();
      this.settleJobs();
      this.progressed();
    } catch (error) {
      if (this.stopped) return;
      if (error instanceof UploadError && error.status === 401) {
        for (const { job, file } of this.followed())
          this.failFile(job, file, { code: 'unauthenticated', message: SESSION_EXPIRED });
        this.emit({ type: 'unauthorized' });
        this.changed();
      }
      // Otherwise (the network, a restarting server): read again at the next tick.
    } finally {
      this.polling = false;
      if (!this.importsToFollow() && this.pollTimer) {
        clearInterval(this.pollTimer);
        this.pollTimer = null;
        this.checkIdle();
      }
    }
  }

  private attach(job: PersistedJob, file: PersistedFile): void {
    if (file.cloud || this.live.has(file.key)) return;
    const source = new NodeFileSource({ path: file.path, size: file.size, mtimeMs: file.mtimeMs });
    const upload = this.client.file(job.submissionId, source);
    this.live.set(file.key, { source, upload });
    this.sent.set(file.key, 0);
    if (file.state === 'paused') upload.pause();
    if (file.state === 'failed') {
      // Stays failed until resumed; FileUpload cannot start out failed, so keep it paused underneath.
      upload.pause();
    }
    upload.onChange(() => this.onUploadChange(job, file, source, upload));
  }

  private onUploadChange(
    job: PersistedJob,
    file: PersistedFile,
    source: NodeFileSource,
    upload: FileUpload,
  ): void {
    if (this.stopped) return;
    const was = { state: file.state, fileId: file.fileId, error: file.error, job: job.state };
    const before = this.sent.get(file.key) ?? 0;
    const now = upload.progress().sentBytes;
    if (upload.state === 'uploading' && now > before) this.meter.add(now - before);
    this.sent.set(file.key, now);
    if (upload.fileId && file.fileId !== upload.fileId) file.fileId = upload.fileId;
    if (upload.info?.receivedParts && file.receivedParts.length === 0)
      file.receivedParts = [...upload.info.receivedParts];
    const next = STATE_OF[upload.state];
    // A failed file is shown failed even while its FileUpload rests paused underneath.
    if (next && !(file.state === 'failed' && next === 'paused' && file.error)) {
      if (next !== 'failed') file.error = null;
      file.state = next;
    }
    if (upload.state === 'complete') {
      file.sha256 = upload.info?.sha256 ?? null;
      void source.close();
    } else if (upload.state === 'failed' && upload.error) {
      void source.close();
      const error = source.changed
        ? { code: 'file_changed', message: fileChangedMessage(file.name) }
        : upload.error.status === 401
          ? { code: 'unauthenticated', message: SESSION_EXPIRED }
          : { code: upload.error.code, message: upload.error.message };
      this.failFile(job, file, error);
      if (upload.error.status === 401) this.emit({ type: 'unauthorized' });
    } else if (upload.state === 'paused') {
      void source.close();
    }
    this.settleJobs();
    const same =
      was.state === file.state &&
      was.fileId === file.fileId &&
      was.error === file.error &&
      was.job === job.state;
    if (same) this.progressed();
    else this.changed();
    this.pump();
  }

  private failFile(job: PersistedJob, file: PersistedFile, error: { code: string; message: string }): void {
    const was = file.state === 'failed' && file.error?.code === error.code;
    file.state = 'failed';
    file.error = error;
    if (!was) this.emit({ type: 'failed', jobId: job.id, file: file.name, message: error.message });
  }

  /** Jobs whose files are all complete are sent; jobs with a failed file and nothing left to do fail. */
  private settleJobs(): void {
    for (const job of this.state.jobs) {
      if (job.state === 'submitting' || job.state === 'submitted') continue;
      // Sent once the local files are complete and every import has started: the server's submit does not
      // wait for imports (the staff notice goes out when the last completes), but a failed one blocks it.
      const ready = (f: PersistedFile) =>
        f.cloud ? f.fileId !== null && f.state !== 'failed' : f.state === 'complete';
      if (job.files.length > 0 && job.files.every(ready) && !job.files.some((f) => f.state === 'failed')) {
        void this.submit(job);
      } else if (job.files.some((f) => f.state === 'failed')) {
        job.state = 'failed';
        job.error = job.files.find((f) => f.state === 'failed')?.error ?? null;
      } else {
        job.state = 'uploading';
        job.error = null;
      }
    }
  }

  private async submit(job: PersistedJob): Promise<void> {
    job.state = 'submitting';
    job.error = null;
    this.save();
    try {
      const fileIds = job.files.map((f) => f.fileId).filter((id): id is string => id !== null);
      const submission = await this.client.submit(job.submissionId, fileIds);
      if (this.stopped) return;
      for (const file of job.files)
        file.sha256 = submission.files.find((s) => s.id === file.fileId)?.sha256 ?? file.sha256;
      if (job.files.some((f) => f.cloud && f.state !== 'complete')) {
        // Sent, while the server still copies from the cloud: followed until the copies complete.
        job.state = 'submitted';
        job.sent = {
          submittedAt: submission.submittedAt ?? new Date().toISOString(),
          fields: submission.fields,
        };
        this.changed();
        this.followImports();
        return;
      }
      const entry: HistoryEntry = {
        submissionId: submission.id,
        formType: submission.formType,
        fields: submission.fields,
        submittedAt: submission.submittedAt ?? new Date().toISOString(),
        files: job.files.map((f) => ({
          name: f.name,
          size: f.size,
          path: f.path,
          sha256: submission.files.find((s) => s.id === f.fileId)?.sha256 ?? f.sha256,
        })),
      };
      job.state = 'submitted';
      this.state.jobs = this.state.jobs.filter((j) => j !== job);
      for (const file of job.files) {
        this.live.delete(file.key);
        this.sent.delete(file.key);
      }
      this.state.history = [entry, ...this.state.history].slice(0, this.historyLimit);
      this.changed();
      this.emit({ type: 'submitted', entry });
    } catch (error) {
      if (this.stopped) return;
      job.state = 'failed';
      job.error =
        error instanceof UploadError
          ? { code: error.code, message: error.status === 401 ? SESSION_EXPIRED : error.message }
          : { code: 'submit_failed', message: String(error) };
      this.emit({ type: 'failed', jobId: job.id, file: null, message: job.error.message });
      if (error instanceof UploadError && error.status === 401) this.emit({ type: 'unauthorized' });
      this.changed();
    }
  }

  /** Jobs sent while their imports ran, whose imports are all complete now, move to the history. */
  private async finishSent(): Promise<void> {
    for (const job of [...this.state.jobs]) {
      if (!job.sent || job.files.some((f) => f.state !== 'complete')) continue;
      for (const file of job.files) {
        if (file.sha256 === null && file.fileId)
          file.sha256 = (await importOf(this.transport, file.fileId)).sha256;
      }
      if (this.stopped) return;
      const entry: HistoryEntry = {
        submissionId: job.submissionId,
        formType: job.fields.form_type,
        fields: job.sent.fields,
        submittedAt: job.sent.submittedAt,
        files: job.files.map((f) => ({ name: f.name, size: f.size, path: f.path, sha256: f.sha256 })),
      };
      this.state.jobs = this.state.jobs.filter((j) => j !== job);
      this.state.history = [entry, ...this.state.history].slice(0, this.historyLimit);
      this.changed();
      this.emit({ type: 'submitted', entry });
    }
  }

  /** One file at a time gets the connection (its parts in parallel); the next waits its turn. */
  private pump(): void {
    if (this.stopped) return;
    const uploads = [...this.live.values()].map((l) => l.upload);
    if (uploads.some((u) => u.state === 'uploading')) return;
    uploads.find((u) => u.state === 'waiting')?.start();
  }

  private find(jobId: string, key?: string): { job: PersistedJob; file?: PersistedFile } {
    const job = this.state.jobs.find((j) => j.id === jobId);
    if (!job) throw new Error(`No submission in the queue with id ${jobId}`);
    if (key === undefined) return { job };
    const file = job.files.find((f) => f.key === key);
    if (!file) throw new Error(`No file in the submission with key ${key}`);
    return { job, file };
  }

  pauseFile(jobId: string, key: string): void {
    const { file } = this.find(jobId, key);
    this.live.get(file!.key)?.upload.pause();
  }

  /** Resumes a paused or failed file (a file changed on disk stays stopped). */
  async resumeFile(jobId: string, key: string): Promise<void> {
    const { job, file } = this.find(jobId, key);
    await this.resumeOne(job, file!);
    this.settleJobs();
    this.changed();
    this.pump();
  }

  private async resumeOne(job: PersistedJob, file: PersistedFile): Promise<void> {
    if (file.cloud) {
      if (file.state !== 'failed') return;
      file.error = null;
      file.state = 'queued';
      file.cloud.renewals = 0;
      // Never started: start it. Started: a fresh token queues the server's copy again from where it stopped.
      if (file.fileId === null) void this.startImports(job);
      else void this.renew(job, file);
      return;
    }
    if (file.state !== 'paused' && file.state !== 'failed') return;
    if (!(await unchanged(file))) {
      this.failFile(job, file, { code: 'file_changed', message: fileChangedMessage(file.name) });
      return;
    }
    file.error = null;
    file.state = 'queued';
    const live = this.live.get(file.key);
    if (!live) this.attach(job, file);
    else live.upload.resume();
  }

  pauseAll(): void {
    for (const { upload } of this.live.values()) upload.pause();
  }

  async resumeAll(): Promise<void> {
    for (const job of this.state.jobs) {
      for (const file of job.files) await this.resumeOne(job, file);
      if (
        job.state === 'failed' &&
        job.files.every(
          (f) => f.state === 'complete' || (f.cloud && f.fileId !== null && f.state !== 'failed'),
        )
      )
        void this.submit(job);
    }
    this.settleJobs();
    this.changed();
    this.pump();
  }

  /** Drops a submission from the queue (its unfinished files are removed on the server). */
  async cancel(jobId: string): Promise<void> {
    const { job } = this.find(jobId);
    this.state.jobs = this.state.jobs.filter((j) => j !== job);
    for (const file of job.files) {
      if (file.cloud && file.fileId && !job.sent) {
        // Ends the server's copy of an import in a submission not sent yet.
        await this.transport({
          method: 'DELETE',
          path: `/api/uploads/files/${encodeURIComponent(file.fileId)}`,
        }).catch(() => undefined);
      }
      const live = this.live.get(file.key);
      this.live.delete(file.key);
      if (live) {
        await live.upload.remove();
        await live.source.close();
      }
    }
    this.changed();
    this.pump();
  }

  clearHistory(): void {
    this.state.history = [];
    this.changed();
  }

  private partStored(fileId: string, part: number): void {
    for (const job of this.state.jobs) {
      const file = job.files.find((f) => f.fileId === fileId);
      if (file) {
        if (!file.receivedParts.includes(part)) file.receivedParts.push(part);
        this.saveSoon();
        return;
      }
    }
  }

  private fileView(file: PersistedFile): FileView {
    const live = this.live.get(file.key);
    const progress =
      file.state === 'complete'
        ? snapshot(file.size, file.size, 0)
        : file.cloud
          ? snapshot(
              file.cloud.bytesDone,
              file.size,
              file.state === 'uploading' ? (file.cloud.bytesPerSecond ?? 0) : 0,
            )
          : live
            ? live.upload.progress()
            : snapshot(0, file.size, 0);
    return {
      key: file.key,
      name: file.name,
      path: file.path,
      size: file.size,
      state: file.state,
      sha256: file.sha256,
      error: file.error,
      progress,
      ...(file.cloud ? { cloud: { provider: file.cloud.provider, status: file.cloud.status } } : {}),
    };
  }

  private jobView(job: PersistedJob): JobView {
    const files = job.files.map((f) => this.fileView(f));
    const sent = files.reduce((s, f) => s + f.progress.sentBytes, 0);
    const total = files.reduce((s, f) => s + f.size, 0);
    const rate = files.reduce((s, f) => s + f.progress.bytesPerSecond, 0);
    return {
      id: job.id,
      submissionId: job.submissionId,
      formType: job.fields.form_type,
      fields: job.fields,
      state: job.state,
      error: job.error,
      files,
      progress: snapshot(sent, total, rate),
    };
  }

  isActive(): boolean {
    if (this.state.jobs.some((j) => j.state === 'submitting')) return true;
    // Imports count while the server copies them (or they wait to be started); not once failed.
    if (this.started && (this.importBusy.size > 0 || this.followed().length > 0)) return true;
    if (
      this.started &&
      this.state.jobs.some((j) => j.files.some((f) => f.cloud && f.fileId === null && f.state !== 'failed'))
    )
      return true;
    return [...this.live.values()].some(
      (l) => l.upload.state === 'uploading' || l.upload.state === 'waiting',
    );
  }

  snapshot(): EngineSnapshot {
    const jobs = this.state.jobs.map((j) => this.jobView(j));
    const sent = jobs.reduce((s, j) => s + j.progress.sentBytes, 0);
    const total = jobs.reduce((s, j) => s + j.progress.totalBytes, 0);
    const active = this.isActive();
    return {
      jobs,
      overall: snapshot(
        sent,
        total,
        active
          ? this.meter.rate() +
              jobs.reduce(
                (s, j) => s + j.files.reduce((r, f) => r + (f.cloud ? f.progress.bytesPerSecond : 0), 0),
                0,
              )
          : 0,
      ),
      active,
      history: this.state.history.map((h) => ({ ...h, files: h.files.map((f) => ({ ...f })) })),
      settings: this.settings,
      watches: (this.state.watches ?? []).map((w) => ({ ...w })),
    };
  }

  /** Resolves once nothing is sent or waiting (every file complete, paused or failed; no submit pending). */
  whenIdle(): Promise<void> {
    if (!this.isActive()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private checkIdle(): void {
    if (this.idleWaiters.length === 0 || this.isActive()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * Stops sending without changing what is persisted (as a quit or a crash would), so a new engine on the
   * same store continues where this one stopped.
   */
  async stop(): Promise<void> {
    this.save();
    this.stopped = true;
    if (this.scheduleTimer) clearInterval(this.scheduleTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    for (const { upload, source } of this.live.values()) {
      upload.pause();
      await source.close();
    }
    this.live.clear();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * The upload engine: the shared upload client driven from Node for the desktop app and the CLI, composed
 * of a persisted job queue (queue.ts), a connection monitor that makes it offline-first (connection.ts:
 * a job is saved at once and registered when the server answers), the import follower for cloud files
 * (import-follower.ts), the bandwidth scheduler (bandwidth.ts) and the watch folders' store (kept by the
 * queue). What it owns itself: files on disk read a part at a time, one file sending at a time, files
 * edited after they were queued stopped with a clear message, and the submission sent once every file is
 * complete. Pure Node: nothing here imports electron.
 */
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  bundleAt,
  BundlesUnderWay,
  inOrder,
  MAX_FILES_IN_FLIGHT,
  snapshot,
  SpeedMeter,
  UploadClient,
  UploadError,
} from '@avp/shared';
import type {
  FileUpload,
  Hasher,
  MediaCheck,
  MediaFacts,
  UploadEventPublic,
  RetryNotice,
  RetryPolicy,
  SubmissionFields,
  SubmissionInfo,
  UploadTransport,
} from '@avp/shared';
import { fileChangedMessage, mimeType, NodeFileSource, unchanged } from './file-source.js';
import type {
  EngineFileState,
  EngineSettings,
  EngineStore,
  HistoryEntry,
  PersistedFile,
  PersistedJob,
} from './state.js';
import type { WatchStore } from './watch.js';
import { gotTransport } from './transport.js';
import { call } from './imports.js';
import type { CloudTokenSource } from './imports.js';
import type { CloudItem } from './cloud/types.js';
import { checkPaths, fsReason, PathsRefusedError } from './paths.js';
import type { FileIdentity } from './file-source.js';
import { BandwidthScheduler, clampSettings } from './bandwidth.js';
import type { RunOverrides } from './bandwidth.js';
import { JobQueue } from './queue.js';
import type { ConnectionMonitor, ConnectionState, EngineClock, Failure, RetryEvent } from './connection.js';
import { ImportFollower } from './import-follower.js';
import { Registrar } from './registrar.js';
import { NetworkError, serverErrorWords } from './failures.js';
import { timeoutsFromEnv } from './timeouts.js';
import type { EngineTimeouts } from './timeouts.js';
import type { TokenBucket } from './token-bucket.js';
import { jobView } from './views.js';
import type { EngineEvent, EngineSnapshot, JobView } from './views.js';
import { factsOf, MediaBlockedError, openEvents, readFacts, specFor } from './media-facts.js';
import type { FileInspection, SpecChoice } from './media-facts.js';

export { expandPaths } from './paths.js';
export { clampSettings } from './bandwidth.js';

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
  /** Waits between tries while the server does not answer (ms; default 2 s doubling to 60 s, jittered). */
  backoff?: { baseMs?: number; maxMs?: number };
  /** For tests: the clocks compared to notice a sleep, how often (ms), and the network's signature. */
  engineClock?: EngineClock;
  watchMs?: number;
  network?: () => string;
  /** Network timeouts; default from the environment (timeouts.ts). */
  timeouts?: Partial<EngineTimeouts>;
  /** A bounded run: after this long without an answer, waiting jobs fail with 'unreachable'. */
  giveUpAfterMs?: number;
  /** For tests: the bandwidth bucket (on a clock the test controls). */
  bucket?: TokenBucket;
}

export interface StartOptions {
  /** A bounded run (the CLI's upload): after this long without an answer the waiting jobs fail. */
  giveUpAfterMs?: number;
}

export type { ConnectionState, RetryEvent, RunOverrides };
export type { FileInspection, SpecChoice };

/**
 * Files whose media facts are read at once when a job is added. The reading is mostly the main thread's
 * (each head's sniff); 8 rather than 4 keeps the thread pool's opens and reads ahead of it: the heads of
 * 1,000 files of 1 MiB in 331 ms instead of 369 (medians of five runs, each a process of its own).
 */
const FACTS_READ_CONCURRENCY = 8;

/** What `inspect` answers: the spec that applies (with the event it came from) and each file's facts. */
export interface Inspection extends SpecChoice {
  files: FileInspection[];
}
export type { EngineEvent, EngineSnapshot, FileView, JobView } from './views.js';

interface LiveFile {
  source: NodeFileSource;
  upload: FileUpload;
  /** What the queue's turns depend on, as the last change found it (onUploadChange). */
  seen?: string;
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

/** A read of a file on disk that failed (gone, locked), in words: `"a.mov" does not exist any more …`. */
function readFailure(name: string, error: UploadError): { code: string; message: string } {
  const code = /\b(E[A-Z]{2,})\b/.exec(error.message)?.[1];
  return {
    code: 'read_failed',
    message: `"${name}" ${fsReason({ code })}, so it was stopped (it was readable when it was queued).`,
  };
}

export class UploadEngine {
  readonly client: UploadClient;
  private readonly queue: JobQueue;
  private readonly bandwidth: BandwidthScheduler;
  private readonly monitor: ConnectionMonitor;
  private readonly imports: ImportFollower;
  private readonly live = new Map<string, LiveFile>();
  private pumpScheduled = false;
  private readonly listeners = new Set<(event: EngineEvent) => void>();
  private readonly meter = new SpeedMeter(() => Date.now());
  private readonly sent = new Map<string, number>();
  /** Small files sent several to a request (issue #34). */
  private readonly bundles = new BundlesUnderWay();
  /** Registration and the calls held for the server, with the connection monitor (registrar.ts). */
  private readonly registrar: Registrar;
  private idleWaiters: (() => void)[] = [];
  private stopped = false;
  private started = false;
  private readonly transport: UploadTransport;
  /** The latest call that got no answer or a 5xx, for words when an error does not say why. */
  private lastFailure: Failure | null = null;
  private readonly server: string;
  private readonly factsTimeoutMs: number;

  constructor(private readonly options: EngineOptions) {
    this.server = options.baseUrl.replace(/\/+$/, '');
    this.queue = new JobQueue(options.store, options.historyLimit ?? 200);
    this.bandwidth = new BandwidthScheduler(
      () => this.queue.settings,
      options.clock ?? (() => new Date()),
      (parts) => this.client?.setPartConcurrency(parts),
      options.bucket,
    );
    const timeouts = { ...timeoutsFromEnv(), ...options.timeouts };
    this.factsTimeoutMs = timeouts.factsMs;
    const base = gotTransport({
      baseUrl: options.baseUrl,
      token: options.token,
      bucket: this.bandwidth.bucket,
      onPartStored: (fileId, part) => this.partStored(fileId, part),
      timeouts: {
        connect: timeouts.connectMs,
        socket: timeouts.idleMs,
        response: Math.max(timeouts.responseMs, timeouts.completeMs),
      },
    });
    this.transport = this.recording(options.wrapTransport ? options.wrapTransport(base) : base);
    this.client = new UploadClient({
      transport: this.transport,
      partConcurrency: this.bandwidth.settings.partConcurrency,
      createHasher: nodeHasher,
      retry: options.retry,
      onRetry: (notice) => this.clientRetry(notice),
      shouldRetry: (notice) => this.clientRetries(notice),
      requestTimeoutMs: timeouts.responseMs,
      completeTimeoutMs: timeouts.completeMs,
      // Parts are timed by the socket's idle timeout (got's), which sees a stalled body as it happens.
      partStallTimeoutMs: 0,
    });
    this.registrar = new Registrar(
      {
        transport: this.transport,
        queue: this.queue,
        isStopped: () => this.stopped,
        lastFailure: () => this.lastFailure,
        clearFailure: () => void (this.lastFailure = null),
        attach: (job, file) => this.attach(job, file),
        pump: () => this.pump(),
        submit: (job) => this.submit(job),
        startImports: (job) => this.imports.startImports(job),
        followImports: () => this.imports.follow(),
        resumeUpload: (key) => this.live.get(key)?.upload.resume(),
        failFile: (job, file, error) => this.failFile(job, file, error),
        settleJobs: () => this.settleJobs(),
        changed: () => this.changed(),
        emit: (event) => this.emit(event),
      },
      {
        server: this.server,
        ...(options.backoff ? { backoff: options.backoff } : {}),
        ...(options.engineClock ? { clock: options.engineClock } : {}),
        ...(options.watchMs ? { watchMs: options.watchMs } : {}),
        ...(options.network ? { network: options.network } : {}),
        ...(options.giveUpAfterMs !== undefined ? { giveUpAfterMs: options.giveUpAfterMs } : {}),
        onWake: () => this.wake(),
      },
    );
    this.monitor = this.registrar.monitor;
    this.imports = new ImportFollower({
      transport: this.transport,
      queue: this.queue,
      ...(options.cloud ? { cloud: options.cloud } : {}),
      pollMs: options.importPollMs ?? 1_000,
      isStopped: () => this.stopped,
      isStarted: () => this.started,
      failFile: (job, file, error) => this.failFile(job, file, error),
      changed: () => {
        this.settleJobs();
        this.changed();
      },
      progressed: () => {
        this.settleJobs();
        this.progressed();
      },
      unauthorized: () => this.emit({ type: 'unauthorized' }),
      finished: (job, entry) => this.finished(job, entry),
      held: (error, what) => this.registrar.hold(error, what),
    });
  }

  /** The transport, noting why calls get no useful answer (the words of the connection state). */
  private recording(inner: UploadTransport): UploadTransport {
    return async (request) => {
      try {
        const res = await inner(request);
        if (res.status >= 500) {
          const message = (res.body as { error?: { message?: unknown } } | undefined)?.error?.message;
          this.lastFailure = {
            reason: 'server-error',
            message: serverErrorWords(
              res.status,
              typeof message === 'string' ? message : `The server answered ${res.status}.`,
            ),
          };
        }
        return res;
      } catch (error) {
        if (error instanceof NetworkError)
          this.lastFailure = { reason: 'unreachable', message: error.message };
        throw error;
      }
    };
  }

  on(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: EngineEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private changed(): void {
    this.queue.save();
    this.emit({ type: 'change' });
    this.checkIdle();
  }

  /** A change written at most once a second; `settled`: one that may have ended the engine's work. */
  private progressed(settled = true): void {
    this.queue.saveSoon();
    this.emit({ type: 'change' });
    if (settled) this.checkIdle();
  }

  /** The saved settings (defaults for every run). */
  get settings(): EngineSettings {
    return this.queue.settings;
  }

  /** The settings in force in this process: the saved ones with this run's overrides. */
  get effectiveSettings(): EngineSettings {
    return this.bandwidth.settings;
  }

  /** The shared bandwidth bucket (for measurements). */
  get bucket() {
    return this.bandwidth.bucket;
  }

  /** Watch folders and what was sent from them, kept with the queue (watch.ts). */
  watchStore(): WatchStore {
    return this.queue.watchStore(() => this.changed());
  }

  /** The bandwidth limit in effect now: the schedule's window for this hour, else the plain limit. */
  get bandwidthNow(): number {
    return this.bandwidth.rateNow;
  }

  /** Applies the limit the schedule sets for this moment (called each half minute, and on changes). */
  applySchedule(): void {
    this.bandwidth.apply();
  }

  /** Saves new defaults (every later run starts with them). */
  setSettings(settings: Partial<EngineSettings>): EngineSettings {
    this.queue.settings = clampSettings(settings, this.queue.settings);
    this.bandwidth.apply();
    this.changed();
    return this.settings;
  }

  /** Settings for this engine process only, never saved (`av-upload upload --bandwidth 2M`). */
  setRunOverrides(overrides: RunOverrides): EngineSettings {
    this.bandwidth.setOverrides(overrides);
    this.emit({ type: 'change' });
    return this.effectiveSettings;
  }

  /** Whether the server answers, and when it is tried next. */
  get connection(): ConnectionState {
    return this.monitor.state;
  }

  /** Tries every call that waits for the server at once. */
  retryNow(): Promise<void> {
    return this.monitor.retryNow();
  }

  /** Continues the persisted queue: files not paused, failed or complete are queued again. */
  async start(options: StartOptions = {}): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (options.giveUpAfterMs !== undefined) this.monitor.bound(options.giveUpAfterMs);
    this.bandwidth.start();
    this.bandwidth.apply();
    this.monitor.start();
    for (const job of this.queue.jobs) {
      if (job.submissionId === null) {
        if (job.state === 'waiting') void this.registrar.register(job);
        continue;
      }
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
        void this.imports.startImports(job);
    }
    this.settleJobs();
    this.changed();
    this.pump();
    this.imports.follow();
  }

  /**
   * Queues a submission: the paths are checked here (each must exist and be readable; folders are walked)
   * and refused with PathsRefusedError, else the job is saved at once and registered with the server in
   * the background, when it answers. Returns the job (state 'waiting' until registered).
   */
  async add(
    fields: SubmissionFields,
    paths: string[],
    cloudFiles: CloudItem[] = [],
    inspected?: Inspection,
    /** The paths' files as the caller walked them just now (av-upload): not walked again. */
    walked?: FileIdentity[],
  ): Promise<JobView> {
    const { files, refused } = walked ? { files: walked, refused: [] } : await checkPaths(paths);
    if (refused.length > 0) throw new PathsRefusedError(refused);
    if (files.length === 0 && cloudFiles.length === 0)
      throw new UploadError(400, 'no_files', 'Please Add a File.');
    if (cloudFiles.length > 0 && !this.options.cloud)
      throw new UploadError(400, 'no_cloud', 'Cloud files need connected cloud accounts.');
    const folder = cloudFiles.find((f) => f.folder);
    if (folder) throw new UploadError(400, 'not_a_file', `${folder.name} is a folder: pick the files in it.`);
    // Each file's media facts, read here (no network: a job is saved at once, offline or not). With an
    // inspection (av-upload's, made with the event's spec) a blocked file queues nothing; without one the
    // server checks the facts when the file is registered, and its check is kept with the file.
    const known = new Map((inspected?.files ?? []).map((f) => [f.path, f]));
    if (inspected) {
      const blocked = files.flatMap((f) => {
        const seen = known.get(f.path);
        return seen?.check.verdict === 'block' ? [seen] : [];
      });
      if (blocked.length > 0) throw new MediaBlockedError(blocked, inspected.event);
    }
    const factsOfPath = new Map<string, { facts: MediaFacts | null; check?: MediaCheck }>();
    // A few files at a time: a folder of a thousand stills waited for each head in turn before its job
    // was saved and its first byte sent (#34).
    await inOrder(files, FACTS_READ_CONCURRENCY, async (file) => {
      const seen = known.get(file.path);
      factsOfPath.set(
        file.path,
        seen && seen.size === file.size
          ? { facts: seen.facts, check: seen.check }
          : { facts: await readFacts(file.path, this.factsTimeoutMs) },
      );
    });
    const job: PersistedJob = {
      id: randomUUID(),
      submissionId: null,
      fields,
      state: 'waiting',
      createdAt: new Date().toISOString(),
      error: null,
      files: files.map((identity) => ({
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
        ...factsOfPath.get(identity.path),
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
          ...(item.provider === 'onedrive' && item.driveId ? { driveId: item.driveId } : {}),
          status: null,
          bytesDone: 0,
          bytesPerSecond: null,
          renewals: 0,
        },
      });
    }
    this.queue.add(job);
    this.changed();
    void this.registrar.register(job);
    return this.jobView(job);
  }

  /**
   * The media facts of the files at these paths (folders walked) and their check against the spec of the
   * event the fields name, as `add` will judge them: what av-upload prints and the window shows before
   * anything is queued. Paths that cannot be read are left out (add names them).
   */
  async inspect(fields: SubmissionFields, paths: string[], walked?: FileIdentity[]): Promise<Inspection> {
    const { files } = walked ? { files: walked } : await checkPaths(paths);
    return this.inspectFiles(fields, files);
  }

  /** The open upload events (the window's Event name suggestions); none when the server does not answer. */
  async uploadEvents(): Promise<UploadEventPublic[]> {
    if (!this.monitor.online) return [];
    return openEvents(this.transport).catch(() => []);
  }

  /**
   * The media facts of files on disk, as the window shows them under each chosen file (it checks them
   * against the spec it has): a folder or a path that cannot be read gets none (absent from the answer).
   */
  async mediaFacts(paths: string[]): Promise<{ path: string; facts: MediaFacts | null }[]> {
    const answer: { path: string; facts: MediaFacts | null }[] = [];
    for (const chosen of paths) {
      const { files } = await checkPaths([chosen]);
      const [only] = files;
      if (files.length !== 1 || !only || path.resolve(chosen) !== only.path) continue;
      answer.push({ path: chosen, facts: await readFacts(only.path, this.factsTimeoutMs) });
    }
    return answer;
  }

  private async inspectFiles(
    fields: SubmissionFields,
    files: { path: string; size: number }[],
  ): Promise<Inspection> {
    const choice: SpecChoice = this.monitor.online
      ? await specFor(this.transport, fields)
      : {
          spec: null,
          event: null,
          unavailable: this.monitor.state.state === 'waiting' ? this.monitor.state.message : 'offline',
        };
    // A few at a time, as add() reads them: a folder of a thousand stills waited for each head in turn
    // before anything was said or sent (#34). Each reading that needs MediaInfoLib takes an instance of
    // its own from the reader's pool.
    const inspected: FileInspection[] = await inOrder(files, FACTS_READ_CONCURRENCY, async (file) => ({
      path: file.path,
      name: path.basename(file.path),
      size: file.size,
      ...(await factsOf(file.path, choice.spec, this.factsTimeoutMs)),
    }));
    return { ...choice, files: inspected };
  }

  /**
   * After a sleep or a change of network, while the server was last seen answering: parts in flight went
   * out on sockets that may be dead, and would wait for the idle timeout. They are started again at once
   * (the server's list of received parts says where to go on).
   */
  private wake(): void {
    if (this.stopped || !this.monitor.online) return;
    for (const { upload } of this.live.values()) {
      if (upload.state !== 'uploading') continue;
      upload.pause();
      upload.resume();
    }
    this.pump();
  }

  private finished(job: PersistedJob, entry: HistoryEntry): void {
    this.queue.finish(job, entry);
    for (const file of job.files) {
      this.live.delete(file.key);
      this.sent.delete(file.key);
    }
    this.changed();
    this.emit({ type: 'submitted', entry });
  }

  private attach(job: PersistedJob, file: PersistedFile): void {
    if (file.cloud || this.live.has(file.key) || job.submissionId === null) return;
    const source = new NodeFileSource({ path: file.path, size: file.size, mtimeMs: file.mtimeMs });
    // Registered with its facts: the server checks them against the spec too (and records a warning).
    if (file.facts !== undefined) source.facts = file.facts;
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
    // Most changes are progress (a part stored, a retry said). Only a file's state, or whether it is still
    // handing out parts or in a bundle, moves the jobs on, starts the next file or ends the engine's work:
    // settling every job, pumping and looking for idleness at each progress went over every file of the
    // queue a few times per change, quadratic in a folder of a thousand small files (#34).
    const live = this.live.get(file.key);
    const seen = `${upload.state}:${upload.sendingParts}:${upload.inBundle}`;
    const moved = live?.seen !== seen;
    if (live) live.seen = seen;
    const was = { state: file.state, fileId: file.fileId, error: file.error, job: job.state };
    const before = this.sent.get(file.key) ?? 0;
    const now = upload.progress().sentBytes;
    if (upload.state === 'uploading' && now > before) this.meter.add(now - before);
    this.sent.set(file.key, now);
    if (upload.fileId && file.fileId !== upload.fileId) file.fileId = upload.fileId;
    if (upload.info?.receivedParts && file.receivedParts.length === 0)
      file.receivedParts = [...upload.info.receivedParts];
    // The server's check of the facts against the event's spec (issue #30): the one that counts.
    if (upload.info?.check) file.check = upload.info.check;
    if (upload.state === 'failed' && upload.error) {
      void source.close();
      if (
        !source.changed &&
        this.registrar.hold(upload.error, upload.error.code === 'part_failed' ? 'part' : 'register')
      ) {
        // Offline-first: kept in the queue, sent on once the server answers.
        file.state = 'queued';
        file.error = null;
        this.registrar.heldFiles.add(file.key);
      } else {
        const error = source.changed
          ? { code: 'file_changed', message: fileChangedMessage(file.name) }
          : upload.error.code === 'read_failed'
            ? readFailure(file.name, upload.error)
            : this.registrar.errorOf(upload.error, upload.error.code);
        this.failFile(job, file, error);
        if (error.code === 'auth') this.emit({ type: 'unauthorized' });
      }
    } else {
      const next = STATE_OF[upload.state];
      // A failed file is shown failed even while its FileUpload rests paused underneath.
      if (next && !(file.state === 'failed' && next === 'paused' && file.error)) {
        if (next !== 'failed') file.error = null;
        file.state = next;
      }
      if (upload.state === 'complete') {
        file.sha256 = upload.info?.sha256 ?? null;
        void source.close();
      } else if (upload.state === 'paused') {
        void source.close();
      }
    }
    if (moved || was.state !== file.state || was.error !== file.error) this.settleJob(job);
    const same =
      was.state === file.state &&
      was.fileId === file.fileId &&
      was.error === file.error &&
      was.job === job.state;
    // A file's own step (registered, sending, complete) is written with the progress, at most once a
    // second: with a thousand small files, writing the whole queue at each of them cost more than sending
    // them (issue #34), and a resume asks the server anyway. A failure or a change of the job's state is
    // written at once.
    if (same || (was.job === job.state && file.state !== 'failed')) this.progressed(moved);
    else this.changed();
    if (moved) this.pumpSoon();
  }

  /**
   * pump() once the changes of this turn are in: a bundle's files begin and end together, each a change,
   * and one look at the queue after them starts the next as well as one after each did.
   */
  private pumpSoon(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /**
   * Whether the shared client tries a call again itself. In a bounded run, not when the server did not
   * answer or failed: the call goes to the connection monitor at once, whose clock the bound is measured
   * on (the client's own 8 retries, up to 15 s each, used to run first: a run bounded at 4 s ended 45–55 s
   * after the server died). An unbounded run keeps them: one reset costs the part it cut, not every part
   * of the round in flight. 'Busy' answers come from a server that is there: always the client's.
   */
  private clientRetries(notice: RetryNotice): boolean {
    return notice.reason === 'busy' || !this.monitor.bounded;
  }

  /** Every retry the shared client schedules (registering a file, parts, completion …): said. */
  private clientRetry(notice: RetryNotice): void {
    if (this.stopped) return;
    // No answer: the words of the transport ('Nothing answers at …') or of the client's own timeout.
    const message = notice.status
      ? serverErrorWords(notice.status, notice.message ?? `The server answered ${notice.status}.`)
      : notice.error.message;
    this.emit({
      type: 'retry',
      server: this.server,
      reason: notice.reason === 'unreachable' ? 'unreachable' : 'server-error',
      message,
      attempt: notice.attempt,
      delayMs: Math.max(0, notice.nextAt - this.client.now()),
      what: notice.what === 'other' ? 'import' : notice.what,
    });
  }

  private failFile(job: PersistedJob, file: PersistedFile, error: { code: string; message: string }): void {
    const was = file.state === 'failed' && file.error?.code === error.code;
    file.state = 'failed';
    file.error = error;
    if (!was) this.emit({ type: 'failed', jobId: job.id, file: file.name, message: error.message });
  }

  /** Jobs whose files are all complete are sent; jobs with a failed file and nothing left to do fail. */
  private settleJobs(): void {
    for (const job of this.queue.jobs) this.settleJob(job);
  }

  private settleJob(job: PersistedJob): void {
    if (job.submissionId === null) return;
    if (job.state === 'submitting' || job.state === 'submitted') return;
    // Sent once the local files are complete and every import has started: the server's submit does not
    // wait for imports (the staff notice goes out when the last completes), but a failed one blocks it.
    let failed: PersistedFile | undefined;
    let ready = job.files.length > 0;
    for (const f of job.files) {
      if (f.state === 'failed') {
        failed = f;
        break;
      }
      if (!(f.cloud ? f.fileId !== null : f.state === 'complete')) ready = false;
    }
    if (failed) {
      job.state = 'failed';
      job.error = failed.error ?? null;
    } else if (ready) {
      void this.submit(job);
    } else {
      job.state = 'uploading';
      job.error = null;
    }
  }

  private async submit(job: PersistedJob): Promise<void> {
    const submissionId = job.submissionId;
    if (submissionId === null) return;
    job.state = 'submitting';
    job.error = null;
    this.queue.save();
    if (!this.monitor.online) {
      this.registrar.heldSubmits.add(job.id);
      return;
    }
    try {
      const fileIds = job.files.map((f) => f.fileId).filter((id): id is string => id !== null);
      // Once: when no answer comes, the connection monitor sends it again (the server answers a second
      // submit of the same submission with the first one's result).
      const { submission } = await call<{ submission: SubmissionInfo }>(
        this.transport,
        'POST',
        `/api/uploads/submissions/${encodeURIComponent(submissionId)}/submit`,
        { files: fileIds },
      );
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
        this.imports.follow();
        return;
      }
      job.state = 'submitted';
      this.finished(job, {
        jobId: job.id,
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
      });
    } catch (error) {
      if (this.stopped) return;
      if (this.registrar.hold(error, 'submit')) {
        this.registrar.heldSubmits.add(job.id);
        return;
      }
      job.state = 'failed';
      job.error = this.registrar.errorOf(error, 'submit_failed');
      this.emit({ type: 'failed', jobId: job.id, file: null, message: job.error.message });
      if (job.error.code === 'auth') this.emit({ type: 'unauthorized' });
      this.changed();
    }
  }

  /** One file at a time gets the connection (its parts in parallel); the next waits its turn. */
  private pump(): void {
    if (this.stopped || !this.monitor.online) return;
    const waiting: FileUpload[] = [];
    // Files sending on their own (a bundle counts as one file), and whether one still hands out parts.
    let active = 0;
    let handing = false;
    for (const { upload } of this.live.values()) {
      if (upload.state === 'waiting') waiting.push(upload);
      else if (upload.state === 'uploading' && !upload.inBundle) {
        active++;
        handing ||= upload.sendingParts;
      }
    }
    if (waiting.length === 0) return;
    // Small files are registered many to a call before they start (issue #34).
    this.client.prepare(waiting);
    // One file (or bundle of small files) starts its parts at a time; one whose parts are all on their way
    // makes room for the next, so small files share the parts in flight instead of each waiting for the
    // one before to complete.
    if (handing || this.bundles.preparing > 0) return;
    if (active + this.bundles.count >= MAX_FILES_IN_FLIGHT) return;
    const group = bundleAt(this.client, waiting, 0);
    if (group.length > 0) this.bundles.send(this.client, group, () => this.pump());
    else waiting[0]?.start();
  }

  pauseFile(jobId: string, key: string): void {
    const { file } = this.queue.find(jobId, key);
    this.pauseOne(file!);
  }

  private pauseOne(file: PersistedFile): void {
    if (this.registrar.heldFiles.delete(file.key)) {
      // Held for the server (its FileUpload rests failed): paused instead.
      file.state = 'paused';
      this.changed();
      return;
    }
    const live = this.live.get(file.key);
    if (live) live.upload.pause();
    else if (file.state === 'queued' && !file.cloud) {
      // Not registered yet: attached paused once it is.
      file.state = 'paused';
      this.changed();
    }
  }

  /** Resumes a paused or failed file (a file changed on disk stays stopped). */
  async resumeFile(jobId: string, key: string): Promise<void> {
    const { job, file } = this.queue.find(jobId, key);
    await this.resumeOne(job, file!);
    this.settleJobs();
    this.changed();
    this.pump();
  }

  private async resumeOne(job: PersistedJob, file: PersistedFile): Promise<void> {
    if (file.cloud) {
      if (file.state === 'failed' && job.submissionId !== null) this.imports.resume(job, file);
      return;
    }
    if (file.state !== 'paused' && file.state !== 'failed') return;
    if (!(await unchanged(file))) {
      this.failFile(job, file, { code: 'file_changed', message: fileChangedMessage(file.name) });
      return;
    }
    file.error = null;
    file.state = 'queued';
    if (job.submissionId === null) return;
    const live = this.live.get(file.key);
    if (!live) this.attach(job, file);
    else live.upload.resume();
  }

  pauseAll(): void {
    for (const job of this.queue.jobs) for (const file of job.files) this.pauseOne(file);
  }

  async resumeAll(): Promise<void> {
    for (const job of this.queue.jobs) {
      if (job.submissionId === null && job.state === 'failed') {
        // Never registered (refused, or a bounded run gave up): registered again.
        job.state = 'waiting';
        job.error = null;
        for (const file of job.files) {
          file.state = 'queued';
          file.error = null;
        }
        void this.registrar.register(job);
        continue;
      }
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
    // What waits for the server is tried now (a bounded run that gave up gets its time again).
    void this.monitor.retryNow();
  }

  /** Drops a submission from the queue (its unfinished files are removed on the server). */
  async cancel(jobId: string): Promise<void> {
    const { job } = this.queue.find(jobId);
    this.queue.remove(job);
    this.registrar.heldSubmits.delete(job.id);
    for (const file of job.files) {
      this.registrar.heldFiles.delete(file.key);
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
    this.queue.clearHistory();
    this.changed();
  }

  private partStored(fileId: string, part: number): void {
    const file = this.queue.fileByServerId(fileId);
    if (!file) return;
    if (!file.receivedParts.includes(part)) file.receivedParts.push(part);
    this.queue.saveSoon();
  }

  private jobView(job: PersistedJob): JobView {
    return jobView(job, (key) => this.live.get(key)?.upload);
  }

  isActive(): boolean {
    if (this.queue.jobs.some((j) => j.state === 'submitting')) return true;
    if (this.started && this.queue.jobs.some((j) => j.submissionId === null && j.state === 'waiting'))
      return true;
    if (this.registrar.heldFiles.size > 0) return true;
    // Imports count while the server copies them (or they wait to be started); not once failed.
    if (this.started && this.imports.active) return true;
    for (const { upload } of this.live.values()) {
      if (upload.state === 'uploading' || upload.state === 'waiting') return true;
    }
    return false;
  }

  snapshot(): EngineSnapshot {
    const jobs = this.queue.jobs.map((j) => this.jobView(j));
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
      history: this.queue.history.map((h) => ({ ...h, files: h.files.map((f) => ({ ...f })) })),
      settings: this.settings,
      watches: this.queue.watches(),
      connection: this.monitor.state,
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
    this.queue.close();
    this.stopped = true;
    this.bandwidth.stop();
    this.monitor.stop();
    this.imports.stop();
    for (const { upload, source } of this.live.values()) {
      upload.pause();
      await source.close();
    }
    this.live.clear();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
    // Written before the process may end (the CLI, the engine's process after a close).
    await this.queue.flush();
  }
}

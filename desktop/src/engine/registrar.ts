/**
 * Offline-first: the calls that wait for the server, and the connection monitor that says when to try
 * them. A job is registered (its submission created) with one attempt; a call that gets no answer or a
 * 5xx is held, not failed: the monitor probes the server with backoff (GET /api/ready), and when it
 * answers the held registrations, uploads and submissions go on. A bounded run that gives up fails them
 * with the cause in words. What is held lives in memory: a restarted engine simply tries them all again.
 */
import type { SubmissionInfo, UploadTransport } from '@avp/shared';
import { ConnectionMonitor } from './connection.js';
import type { ConnectionOptions, ConnectionState, Failure, RetryEvent, RetryWhat } from './connection.js';
import { verdict } from './failures.js';
import { call } from './imports.js';
import type { JobQueue } from './queue.js';
import type { PersistedFile, PersistedJob } from './state.js';
import type { EngineEvent } from './views.js';

/** What the registrar needs of the engine that composes it. */
export interface RegistrarHost {
  readonly transport: UploadTransport;
  readonly queue: JobQueue;
  isStopped(): boolean;
  /** The latest failure seen on the wire (words for errors that carry none), and forgetting it. */
  lastFailure(): Failure | null;
  clearFailure(): void;
  attach(job: PersistedJob, file: PersistedFile): void;
  /** Starts the next waiting upload. */
  pump(): void;
  submit(job: PersistedJob): Promise<void>;
  startImports(job: PersistedJob): Promise<void>;
  followImports(): void;
  resumeUpload(key: string): void;
  failFile(job: PersistedJob, file: PersistedFile, error: { code: string; message: string }): void;
  settleJobs(): void;
  changed(): void;
  emit(event: EngineEvent | RetryEvent): void;
}

export type MonitorSettings = Omit<
  ConnectionOptions,
  'queuedFiles' | 'onTry' | 'onChange' | 'onRetry' | 'onGiveUp'
>;

export class Registrar {
  readonly monitor: ConnectionMonitor;
  /** Files whose upload waits for the server (their FileUpload failed for want of an answer). */
  readonly heldFiles = new Set<string>();
  /** Jobs whose sending waits for the server. */
  readonly heldSubmits = new Set<string>();
  private readonly registering = new Set<string>();

  constructor(
    private readonly host: RegistrarHost,
    settings: MonitorSettings,
  ) {
    this.monitor = new ConnectionMonitor({
      ...settings,
      queuedFiles: () => this.queuedFiles(),
      onTry: () => this.tryWaiting(),
      onChange: (connection) => {
        this.host.emit({ type: 'connection', connection });
        if (connection.state === 'online') this.resumeHeld();
        this.host.emit({ type: 'change' });
      },
      onRetry: (event) => this.host.emit(event),
      onGiveUp: (connection) => this.giveUp(connection),
    });
  }

  private queuedFiles(): number {
    return this.host.queue.jobs.reduce(
      (n, j) => n + j.files.filter((f) => f.state !== 'complete' && f.state !== 'failed').length,
      0,
    );
  }

  /**
   * Creates the job's submission on the server (one attempt: when no answer comes the connection monitor
   * tries again later), then queues its files.
   */
  async register(job: PersistedJob): Promise<void> {
    if (job.submissionId !== null || this.registering.has(job.id) || this.host.isStopped()) return;
    if (!this.monitor.online) return; // the monitor's next try registers it
    this.registering.add(job.id);
    try {
      const { submission } = await call<{ submission: SubmissionInfo }>(
        this.host.transport,
        'POST',
        '/api/uploads/submissions',
        job.fields,
      );
      if (this.host.isStopped() || !this.host.queue.has(job)) return;
      job.submissionId = submission.id;
      job.state = 'uploading';
      job.error = null;
      this.host.emit({ type: 'registered', jobId: job.id, submissionId: submission.id });
      for (const file of job.files) if (!file.cloud) this.host.attach(job, file);
      this.host.changed();
      this.host.pump();
      if (job.files.some((f) => f.cloud)) void this.host.startImports(job);
    } catch (error) {
      if (this.host.isStopped()) return;
      if (this.hold(error, 'register')) return;
      job.state = 'failed';
      job.error = this.errorOf(error, 'register_failed');
      this.host.emit({ type: 'failed', jobId: job.id, file: null, message: job.error.message });
      if (job.error.code === 'auth') this.host.emit({ type: 'unauthorized' });
      this.host.changed();
    } finally {
      this.registering.delete(job.id);
    }
  }

  /**
   * An error that means the server did not answer (or failed): handed to the connection monitor, true.
   * The call is made again when the server answers.
   */
  hold(error: unknown, what: RetryWhat): boolean {
    const judged = verdict(error, this.host.lastFailure());
    if (judged.kind !== 'wait') return false;
    this.monitor.fail(judged.failure, what);
    // A bounded run that has given up: the caller fails it (errorOf names the cause).
    return !this.monitor.givenUp;
  }

  /** The error a job or file ends with when a call failed and is not tried again. */
  errorOf(error: unknown, code: string): { code: string; message: string } {
    const judged = verdict(error, this.host.lastFailure());
    if (judged.kind === 'auth' || judged.kind === 'server') return judged.error;
    if (judged.kind === 'wait')
      return {
        code: judged.failure.reason === 'unreachable' ? 'unreachable' : 'server_error',
        message: judged.failure.message,
      };
    return { code, message: error instanceof Error ? error.message : String(error) };
  }

  /** The connection monitor's try: is the server there? Then everything that waited for it goes on. */
  private async tryWaiting(): Promise<void> {
    try {
      await call(this.host.transport, 'GET', '/api/ready');
    } catch (error) {
      // Any answer but a failing one means the server is there (an old server without /api/ready, say).
      const judged = verdict(error, this.host.lastFailure());
      if (judged.kind === 'wait') {
        this.monitor.fail(judged.failure, this.waitingWhat());
        return;
      }
    }
    this.host.clearFailure();
    if (this.monitor.online) this.resumeHeld();
    else this.monitor.ok();
  }

  private waitingWhat(): RetryWhat {
    if (this.host.queue.jobs.some((j) => j.submissionId === null && j.state === 'waiting')) return 'register';
    if (this.heldFiles.size > 0) return 'part';
    if (this.heldSubmits.size > 0) return 'submit';
    return 'import';
  }

  /** The server answers again: registrations, uploads, submissions and imports that waited go on. */
  resumeHeld(): void {
    if (this.host.isStopped()) return;
    for (const job of this.host.queue.jobs) {
      if (job.submissionId === null && job.state === 'waiting') void this.register(job);
    }
    for (const key of [...this.heldFiles]) {
      this.heldFiles.delete(key);
      this.host.resumeUpload(key);
    }
    for (const id of [...this.heldSubmits]) {
      this.heldSubmits.delete(id);
      const job = this.host.queue.jobs.find((j) => j.id === id);
      if (job) void this.host.submit(job);
    }
    for (const job of this.host.queue.jobs) {
      if (
        job.submissionId !== null &&
        job.files.some((f) => f.cloud && f.fileId === null && f.state !== 'failed')
      )
        void this.host.startImports(job);
    }
    this.host.followImports();
    this.host.pump();
  }

  /** A bounded run out of time: what waits for the server fails, with the reason in words. */
  private giveUp(connection: ConnectionState & { state: 'waiting' }): void {
    const error = {
      code: connection.reason === 'unreachable' ? 'unreachable' : 'server_error',
      message: connection.message,
    };
    for (const job of this.host.queue.jobs) {
      if (job.submissionId === null && job.state === 'waiting') {
        job.state = 'failed';
        job.error = error;
        this.host.emit({ type: 'failed', jobId: job.id, file: null, message: error.message });
      }
      for (const file of job.files) {
        if (this.heldFiles.delete(file.key)) this.host.failFile(job, file, error);
      }
      if (this.heldSubmits.delete(job.id)) {
        job.state = 'failed';
        job.error = error;
        this.host.emit({ type: 'failed', jobId: job.id, file: null, message: error.message });
      }
    }
    this.host.settleJobs();
    this.host.changed();
  }
}

/**
 * Cloud files in the queue: the server copies them from the provider; the engine only starts each import
 * with a fresh access token, reads the server's progress while copies run, hands over a new token when the
 * server asks for one, and moves a job sent while its imports ran to the history once they complete. A
 * call that gets no answer is left to the connection monitor (tried again when the server answers); a
 * provider that keeps refusing ends in a clear failure.
 */
import { SESSION_EXPIRED, UploadError } from '@avp/shared';
import type { CloudProvider, ImportStatus, UploadTransport } from '@avp/shared';
import { CloudAccountError } from './cloud/errors.js';
import { PROVIDER_NAMES } from './cloud/config.js';
import { importOf, listImports, renewImport, startImport } from './imports.js';
import type { CloudTokenSource } from './imports.js';
import type { JobQueue } from './queue.js';
import type { HistoryEntry, PersistedFile, PersistedJob } from './state.js';
import type { RetryWhat } from './connection.js';

/** Tokens handed to an import that keeps refusing them, before it is reported failed. */
const MAX_RENEWALS = 3;

/** What the follower needs of the engine that composes it. */
export interface ImportHost {
  readonly transport: UploadTransport;
  readonly queue: JobQueue;
  readonly cloud?: CloudTokenSource;
  readonly pollMs: number;
  isStopped(): boolean;
  isStarted(): boolean;
  failFile(job: PersistedJob, file: PersistedFile, error: { code: string; message: string }): void;
  /** Jobs settled and the change announced (written at once). */
  changed(): void;
  /** Progress announced (written soon). */
  progressed(): void;
  /** The server ended the session. */
  unauthorized(): void;
  /** A job sent earlier whose copies are all complete: into the history. */
  finished(job: PersistedJob, entry: HistoryEntry): void;
  /**
   * An error that means "no answer" or "server busy": handed to the connection monitor and true (the call
   * is tried again once the server answers); false for any other error.
   */
  held(error: unknown, what: RetryWhat): boolean;
}

export class ImportFollower {
  /** Cloud files whose import is being started or handed a token right now. */
  private readonly busy = new Set<string>();
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private polling = false;

  constructor(private readonly host: ImportHost) {}

  /** Whether an import is being started, renewed or followed (the engine counts it as active). */
  get active(): boolean {
    return this.busy.size > 0 || this.followed().length > 0 || this.waitingToStart();
  }

  private waitingToStart(): boolean {
    return this.host.queue.jobs.some(
      (j) =>
        j.submissionId !== null && j.files.some((f) => f.cloud && f.fileId === null && f.state !== 'failed'),
    );
  }

  stop(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  /**
   * Asks the API to import each cloud file of the job not yet started, with a fresh access token. The
   * server answers the same pick with the same file, so a start cut short by a crash is simply asked again.
   */
  async startImports(job: PersistedJob): Promise<void> {
    const submissionId = job.submissionId;
    if (submissionId === null) return;
    for (const file of job.files) {
      if (!file.cloud || file.fileId !== null || file.state === 'failed' || this.busy.has(file.key)) continue;
      this.busy.add(file.key);
      try {
        const cloud = file.cloud;
        const request = (accessToken: string) =>
          startImport(this.host.transport, submissionId, {
            provider: cloud.provider,
            fileId: cloud.sourceId,
            ...(cloud.driveId ? { driveId: cloud.driveId } : {}),
            name: file.name,
            ...(file.size > 0 ? { size: file.size } : {}),
            ...(file.type ? { mimeType: file.type } : {}),
            accessToken,
          });
        let info;
        try {
          info = await request(await this.token(cloud.provider));
        } catch (error) {
          // The provider refused the cached token: once more with a new one.
          if (!(error instanceof UploadError && error.code === 'cloud_auth_failed')) throw error;
          info = await request(await this.token(cloud.provider, true));
        }
        if (this.host.isStopped() || !this.host.queue.has(job)) return;
        file.fileId = info.id;
        file.size = info.size;
        this.apply(job, file, info.import ?? null);
      } catch (error) {
        if (this.host.isStopped()) return;
        if (this.host.held(error, 'import')) {
          this.busy.delete(file.key);
          break;
        }
        this.host.failFile(job, file, this.errorOf(file, error));
        if (error instanceof UploadError && error.status === 401) this.host.unauthorized();
      } finally {
        this.busy.delete(file.key);
      }
      this.host.changed();
    }
    this.follow();
  }

  private token(provider: CloudProvider, forceRefresh = false): Promise<string> {
    if (!this.host.cloud)
      throw new UploadError(400, 'no_cloud', 'Cloud files need connected cloud accounts.');
    return this.host.cloud.accessToken(provider, { forceRefresh });
  }

  private errorOf(file: PersistedFile, error: unknown): { code: string; message: string } {
    const name = PROVIDER_NAMES[file.cloud!.provider];
    if (error instanceof CloudAccountError)
      return {
        code: `cloud_${error.code}`,
        message: `${error.message} (${name}: connect it again, then resume.)`,
      };
    if (error instanceof UploadError)
      return error.status === 401 || error.status === 403
        ? { code: 'auth', message: error.status === 401 ? SESSION_EXPIRED : error.message }
        : { code: error.code, message: error.message };
    return { code: 'import_failed', message: error instanceof Error ? error.message : String(error) };
  }

  /** The server's word on one import, into the file's state. */
  private apply(
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
        this.host.failFile(job, file, {
          code: 'import_failed',
          message: info.error ?? `${file.name} could not be copied.`,
        });
        break;
    }
  }

  /** A failed cloud file resumed: started if it never was, else handed a fresh token. */
  resume(job: PersistedJob, file: PersistedFile): void {
    file.error = null;
    file.state = 'queued';
    file.cloud!.renewals = 0;
    if (file.fileId === null) void this.startImports(job);
    else void this.renew(job, file);
  }

  /** Hands the server a new token for an import that waits for one (needs_auth, or failed and resumed). */
  async renew(job: PersistedJob, file: PersistedFile): Promise<void> {
    const cloud = file.cloud!;
    if (this.busy.has(file.key) || !file.fileId) return;
    const name = PROVIDER_NAMES[cloud.provider];
    if (cloud.renewals >= MAX_RENEWALS) {
      this.host.failFile(job, file, {
        code: 'cloud_needs_auth',
        message: `${name} keeps refusing the sign-in for ${file.name}: connect ${name} again, then resume.`,
      });
      this.host.changed();
      return;
    }
    this.busy.add(file.key);
    try {
      cloud.renewals++;
      const info = await renewImport(
        this.host.transport,
        file.fileId,
        await this.token(cloud.provider, true),
      );
      if (this.host.isStopped()) return;
      file.error = null;
      file.state = 'queued';
      this.busy.delete(file.key);
      this.apply(job, file, info ?? null);
    } catch (error) {
      if (this.host.isStopped()) return;
      if (error instanceof UploadError && error.code === 'file_complete') {
        file.state = 'complete';
      } else if (this.host.held(error, 'import')) {
        cloud.renewals--;
      } else {
        this.host.failFile(job, file, this.errorOf(file, error));
        if (error instanceof UploadError && error.status === 401) this.host.unauthorized();
      }
    } finally {
      this.busy.delete(file.key);
    }
    this.host.changed();
    this.follow();
  }

  /** Cloud files the server is copying (or will), whose progress is read from the API. */
  private followed(): { job: PersistedJob; file: PersistedFile }[] {
    return this.host.queue.jobs.flatMap((job) =>
      job.files
        .filter((f) => f.cloud && f.fileId !== null && f.state !== 'complete' && f.state !== 'failed')
        .map((file) => ({ job, file })),
    );
  }

  /** Whether an import runs, or a sent job waits for its history entry. */
  private toFollow(): boolean {
    return (
      this.followed().length > 0 ||
      this.host.queue.jobs.some((j) => j.sent && j.files.every((f) => f.state === 'complete'))
    );
  }

  /** Reads the server's import progress every pollMs while an import runs. */
  follow(): void {
    if (this.host.isStopped() || this.pollTimer || !this.host.isStarted() || !this.toFollow()) return;
    this.pollTimer = setInterval(() => void this.poll(), this.host.pollMs);
    void this.poll();
  }

  /** One reading of every followed import (also what the connection monitor's try does). */
  async poll(): Promise<void> {
    if (this.polling || this.host.isStopped()) return;
    this.polling = true;
    try {
      const followed = this.followed();
      if (followed.length > 0) {
        const listed = new Map((await listImports(this.host.transport)).map((i) => [i.fileId, i.import]));
        for (const { job, file } of followed) {
          if (this.host.isStopped()) return;
          if (this.busy.has(file.key)) continue;
          // The list covers the last days' imports; an older one is read on its own.
          const info =
            listed.get(file.fileId!) ?? (await importOf(this.host.transport, file.fileId!)).import ?? null;
          this.apply(job, file, info);
        }
      }
      await this.finishSent();
      this.host.progressed();
    } catch (error) {
      if (this.host.isStopped()) return;
      if (error instanceof UploadError && (error.status === 401 || error.status === 403)) {
        for (const { job, file } of this.followed())
          this.host.failFile(job, file, { code: 'auth', message: SESSION_EXPIRED });
        this.host.unauthorized();
        this.host.changed();
      }
      // Otherwise (the network, a restarting server): read again at the next tick.
    } finally {
      this.polling = false;
      if (!this.toFollow() && this.pollTimer) {
        clearInterval(this.pollTimer);
        this.pollTimer = null;
        this.host.progressed();
      }
    }
  }

  /** Jobs sent while their imports ran, whose imports are all complete now, move to the history. */
  private async finishSent(): Promise<void> {
    for (const job of [...this.host.queue.jobs]) {
      if (!job.sent || job.files.some((f) => f.state !== 'complete')) continue;
      for (const file of job.files) {
        if (file.sha256 === null && file.fileId)
          file.sha256 = (await importOf(this.host.transport, file.fileId)).sha256;
      }
      if (this.host.isStopped()) return;
      this.host.finished(job, {
        jobId: job.id,
        submissionId: job.submissionId!,
        formType: job.fields.form_type,
        fields: job.sent.fields,
        submittedAt: job.sent.submittedAt,
        files: job.files.map((f) => ({ name: f.name, size: f.size, path: f.path, sha256: f.sha256 })),
      });
    }
  }
}

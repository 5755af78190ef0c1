/**
 * What the preload API does, without Electron: sign-in with a token kept by an injected vault, the
 * engine, form validation. The main process wraps it in IPC; the development bridge in HTTP. Pure Node.
 */
import {
  AuthClient,
  AuthError,
  checkPaths,
  checkUploadForm,
  DEFAULT_TIMEOUTS,
  fetchReviews,
  FolderWatcher,
  networkWords,
  MediaBlockedError,
  PathsRefusedError,
  pullEvents,
  pullFailureWords,
  PullTracker,
  runPull,
  timeoutsFromEnv,
  UploadEngine,
} from '../engine/index.js';
import type { CloudItem } from '../engine/cloud/types.js';
import type { CloudTokenSource } from '../engine/imports.js';
import path from 'node:path';
import type {
  DailyLog,
  EngineEvent,
  EngineTimeouts,
  PullEventsResult,
  EngineSettings,
  EngineSnapshot,
  EngineStore,
  FormValues,
  RefusedPath,
  ReviewsResult,
  WatchFolder,
} from '../engine/index.js';
import type { MediaFacts, UploadEventPublic } from '@avp/shared';
import type { DesktopSnapshot, FormInput, Result, SignedIn } from './api.js';

/** Where the token lives: safeStorage inside electron-store in the app, memory in the bridge. */
export interface TokenVault {
  read(): (SignedIn & { token: string }) | null;
  write(value: (SignedIn & { token: string }) | null): void;
}

/** What the app tells the user about (notifications): a submission sent, an upload stopped. */
export type ServiceNotice = Extract<EngineEvent, { type: 'submitted' | 'failed' }>;

export class DesktopService {
  engine: UploadEngine | null = null;
  private watcher: FolderWatcher | null = null;
  private engineServer: string | null = null;
  private readonly listeners = new Set<(snapshot: DesktopSnapshot) => void>();
  private readonly noticeListeners = new Set<(event: ServiceNotice) => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The window's show pull (one at a time), kept after it ends so the window can show how it went. */
  private pull: { tracker: PullTracker; controller: AbortController } | null = null;

  constructor(
    private readonly vault: TokenVault,
    private readonly store: EngineStore,
    private readonly defaultServer: string,
    /** The daily log file for support (the app's); none in the bridge and tests that do not ask. */
    private readonly log?: DailyLog,
    /** Access tokens for cloud imports (in the engine process: asked of the main process, token-relay.ts). */
    private readonly cloud?: CloudTokenSource,
  ) {
    const saved = vault.read();
    if (saved) this.open(saved.server);
  }

  private open(server: string): UploadEngine {
    if (this.engine) return this.engine;
    const engine = new UploadEngine({
      baseUrl: server,
      store: this.store,
      token: () => this.vault.read()?.token ?? null,
      ...(this.cloud ? { cloud: this.cloud } : {}),
    });
    engine.on((event) => {
      this.schedule();
      if (event.type === 'submitted' || event.type === 'failed') {
        for (const listener of this.noticeListeners) listener(event);
      }
      if (event.type === 'submitted') {
        this.log?.write('info', 'submission sent', {
          submissionId: event.entry.submissionId,
          form: event.entry.formType,
          files: event.entry.files.map((f) => ({ name: f.name, size: f.size, sha256: f.sha256 })),
        });
      } else if (event.type === 'failed') {
        this.log?.write('error', 'upload stopped', {
          jobId: event.jobId,
          file: event.file,
          message: event.message,
        });
      } else if (event.type === 'connection') {
        if (event.connection.state === 'waiting' && event.connection.attempt === 1)
          this.log?.write('warn', 'waiting for the server', {
            reason: event.connection.reason,
            message: event.connection.message,
          });
        else if (event.connection.state === 'online') this.log?.write('info', 'the server answers again');
      } else if (event.type === 'unauthorized') {
        this.log?.write('warn', 'the server ended the session');
      }
    });
    this.engine = engine;
    this.engineServer = server;
    this.watcher = new FolderWatcher(engine, engine.watchStore(), {
      onError: (watch, error) =>
        this.log?.write('warn', 'watch folder not sent', { folder: watch.folder, message: error.message }),
    });
    void engine.start().then(() => this.watcher?.start());
    return engine;
  }

  /** Snapshots to listeners, at most every 250 ms. */
  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.engine && !this.pull) return;
      const snap = this.snapshot();
      for (const listener of this.listeners) listener(snap);
    }, 250);
  }

  onChange(listener: (snapshot: DesktopSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Submissions sent and uploads stopped, from whichever engine is open now or later. */
  onNotice(listener: (event: ServiceNotice) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  session(): SignedIn | null {
    const saved = this.vault.read();
    return saved ? { server: saved.server, email: saved.email, expiresAt: saved.expiresAt } : null;
  }

  async login(server: string, email: string, password: string): Promise<Result<SignedIn>> {
    const base = (server || this.defaultServer).replace(/\/+$/, '');
    try {
      const session = await new AuthClient(base).login(email, password);
      const value = { server: base, email: session.user.email, expiresAt: session.expiresAt };
      this.vault.write({ ...value, token: session.token });
      this.log?.write('info', 'signed in', { server: base, email: value.email });
      // An engine bound to another server (kept from before a sign-out, say) cannot serve this one.
      if (this.engine && this.engineServer !== base) await this.close();
      this.open(base);
      this.schedule();
      return { ok: true, value };
    } catch (error) {
      if (error instanceof AuthError) return { ok: false, message: error.message, fields: error.fields };
      // Words ('Nothing answers at … (the connection was refused).'), never a bare ECONNREFUSED.
      return { ok: false, message: networkWords(error, base).message };
    }
  }

  async logout(): Promise<void> {
    const saved = this.vault.read();
    this.engine?.pauseAll();
    if (saved) await new AuthClient(saved.server).logout(saved.token).catch(() => undefined);
    this.vault.write(null);
    this.log?.write('info', 'signed out');
  }

  /** Local paths and files picked in cloud accounts, in one submission (the server imports the latter). */
  async submit(form: FormInput, paths: string[], picked: CloudItem[] = []): Promise<Result> {
    const names = [...paths, ...picked.map((item) => item.name)];
    const check = checkUploadForm({ ...form, files: names.map((name) => ({ name })) } as FormValues);
    if (!check.ok)
      return { ok: false, message: Object.values(check.errors)[0] ?? 'Invalid form.', fields: check.errors };
    const saved = this.vault.read();
    if (!saved) return { ok: false, message: 'The session has expired, please relogin and try again.' };
    try {
      const job = await this.open(saved.server).add(check.fields, paths, picked);
      this.log?.write('info', 'upload queued', {
        jobId: job.id,
        files: job.files.length,
        ...(picked.length > 0 ? { cloudFiles: picked.map((item) => item.ref) } : {}),
      });
      return { ok: true };
    } catch (error) {
      this.log?.write('warn', 'upload not queued', { message: (error as Error).message });
      if (error instanceof PathsRefusedError || error instanceof MediaBlockedError) {
        // Named on the file list, where the paths were chosen.
        return { ok: false, message: error.message, fields: { files: error.message } };
      }
      return { ok: false, message: (error as Error).message };
    }
  }

  /** The paths that cannot be sent (each with the reason in words), checked as they are dropped. */
  async checkPaths(paths: string[]): Promise<RefusedPath[]> {
    return (await checkPaths(paths)).refused;
  }

  /** The open upload events for the Event name's suggestions (none when signed out or unanswered). */
  async uploadEvents(): Promise<UploadEventPublic[]> {
    const saved = this.vault.read();
    return saved ? this.open(saved.server).uploadEvents() : [];
  }

  /**
   * The review states of the signed-in client's sent files (GET /api/uploads/mine), for the History; null
   * when signed out. A failure comes back in words (ok: false), never as a throw.
   */
  async reviews(): Promise<ReviewsResult | null> {
    const saved = this.vault.read();
    if (!saved) return null;
    let responseMs = DEFAULT_TIMEOUTS.responseMs;
    try {
      responseMs = timeoutsFromEnv().responseMs;
    } catch {
      // A bad AV_UPLOAD_RESPONSE_TIMEOUT is reported where uploads use it; the History keeps the default.
    }
    return fetchReviews(saved.server, saved.token, responseMs);
  }

  private timeouts(): EngineTimeouts {
    try {
      return timeoutsFromEnv();
    } catch {
      // A bad AV_UPLOAD_*_TIMEOUT is reported where uploads use it; the window keeps the defaults.
      return DEFAULT_TIMEOUTS;
    }
  }

  /**
   * Whether the signed-in account may pull an event (staff with the Media role) and the events it may pull;
   * the window shows "Pull this event to a folder…" only for 'staff'. Never throws.
   */
  async pullEvents(): Promise<PullEventsResult> {
    const saved = this.vault.read();
    if (!saved) return { access: 'none' };
    return pullEvents(saved.server.replace(/\/+$/, ''), saved.token, this.timeouts().responseMs);
  }

  /**
   * Starts pulling an event into a folder (engine/pull.ts, as `av-upload pull` does) and answers at once;
   * its progress and result travel in the snapshot's `pull`. One pull at a time.
   */
  startPull(event: string, acceptedOnly: boolean, dir: string, bandwidth = 0): Result {
    if (this.pull?.tracker.running)
      return { ok: false, message: 'A pull is under way: wait for it to end or cancel it first.' };
    const saved = this.vault.read();
    if (!saved) return { ok: false, message: 'The session has expired, please relogin and try again.' };
    const name = event.trim();
    if (!name)
      return {
        ok: false,
        message: 'Choose the event to pull.',
        fields: { event: 'Choose the event to pull.' },
      };
    if (!dir || !path.isAbsolute(dir))
      return {
        ok: false,
        message: 'Choose a folder to pull into.',
        fields: { folder: 'Choose a folder to pull into.' },
      };
    const server = saved.server.replace(/\/+$/, '');
    const tracker = new PullTracker({ event: name, dir, acceptedOnly });
    const controller = new AbortController();
    this.pull = { tracker, controller };
    this.log?.write('info', 'pull started', { event: name, dir, acceptedOnly });
    const timeouts = this.timeouts();
    void runPull(
      {
        server,
        token: saved.token,
        event: name,
        acceptedOnly,
        dir,
        parallel: 4,
        ...(bandwidth > 0 ? { bandwidth } : {}),
        signal: controller.signal,
        timeouts,
      },
      (e) => {
        tracker.apply(e);
        this.schedule();
      },
    )
      .then(
        (summary) => {
          tracker.finish(summary);
          this.log?.write('info', summary.cancelled ? 'pull cancelled' : 'pull finished', {
            event: name,
            dir,
            fetched: summary.fetched,
            skipped: summary.skipped,
            mismatched: summary.failed,
          });
        },
        (error: unknown) => {
          const words = pullFailureWords(error, server, dir);
          tracker.fail(words);
          this.log?.write('warn', 'pull stopped', { event: name, dir, message: words });
        },
      )
      .finally(() => this.schedule());
    this.schedule();
    return { ok: true };
  }

  /** Stops the pull where it is: files under way keep their bytes (.part) for the next pull of the folder. */
  cancelPull(): void {
    if (!this.pull?.tracker.running) return;
    this.pull.tracker.cancelling();
    this.pull.controller.abort();
    this.schedule();
  }

  /** Each chosen file's media facts (folders and unreadable paths left out), read on this machine. */
  async mediaFacts(paths: string[]): Promise<{ path: string; facts: MediaFacts | null }[]> {
    const saved = this.vault.read();
    return saved ? this.open(saved.server).mediaFacts(paths) : [];
  }

  /** Tries every call that waits for the server at once. */
  async retryNow(): Promise<void> {
    await this.engine?.retryNow();
  }

  /** Watches a folder: its new files are sent with this form once they stop growing. */
  async addWatch(form: FormInput, folder: string): Promise<Result<WatchFolder>> {
    const check = checkUploadForm({ ...form, files: [{ name: folder }] } as FormValues);
    if (!check.ok)
      return { ok: false, message: Object.values(check.errors)[0] ?? 'Invalid form.', fields: check.errors };
    const saved = this.vault.read();
    if (!saved || !folder) {
      return {
        ok: false,
        message: saved
          ? 'Choose a folder to watch.'
          : 'The session has expired, please relogin and try again.',
      };
    }
    this.open(saved.server);
    try {
      const watch = await this.watcher!.add(folder, check.fields);
      this.log?.write('info', 'watching a folder', { folder: watch.folder, form: watch.fields.form_type });
      this.schedule();
      return { ok: true, value: watch };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  }

  removeWatch(id: string): void {
    this.watcher?.remove(id);
    this.log?.write('info', 'stopped watching a folder', { id });
    this.schedule();
  }

  private need(): UploadEngine {
    if (!this.engine) throw new Error('Not signed in.');
    return this.engine;
  }

  pauseFile(jobId: string, key: string): void {
    this.need().pauseFile(jobId, key);
  }
  resumeFile(jobId: string, key: string): Promise<void> {
    return this.need().resumeFile(jobId, key);
  }
  pauseAll(): void {
    this.engine?.pauseAll();
  }
  resumeAll(): Promise<void> {
    return this.engine?.resumeAll() ?? Promise.resolve();
  }
  setSettings(settings: Partial<EngineSettings>): EngineSettings {
    return this.engine
      ? this.engine.setSettings(settings)
      : { ...settings, partConcurrency: 4, bandwidthBytesPerSecond: 0 };
  }
  snapshot(): DesktopSnapshot {
    const snap: EngineSnapshot = this.engine?.snapshot() ?? {
      jobs: [],
      overall: { sentBytes: 0, totalBytes: 0, percent: 0, bytesPerSecond: 0, secondsLeft: 0 },
      active: false,
      history: [],
      settings: { partConcurrency: 4, bandwidthBytesPerSecond: 0 },
      watches: [],
      connection: { state: 'online' },
    };
    const store = this.engine?.watchStore();
    return {
      ...snap,
      watches: snap.watches.map((watch) => ({ ...watch, filesSent: store?.sent(watch.id).size ?? 0 })),
      pull: this.pull?.tracker.snapshot() ?? null,
    };
  }

  async close(): Promise<void> {
    this.pull?.controller.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.watcher?.stop();
    this.watcher = null;
    await this.engine?.stop();
    this.engine = null;
    this.engineServer = null;
  }
}

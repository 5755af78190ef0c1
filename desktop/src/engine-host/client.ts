/**
 * The parent's side of the engine process: starts it, relays calls (each with an id, answered by a
 * result or an error), keeps the latest snapshot for the tray, hands new sessions to the vault, answers
 * the engine's requests for cloud access tokens from the accounts kept here, and
 * starts a new engine when one dies, on the same saved queue, which the new engine continues.
 * The process itself comes from a spawn function: a utilityProcess in the app (src/main/index.ts), a
 * forked Node child in tests and the development bridge (fork-engine.ts).
 */
import type { DesktopSnapshot } from '../main/api.js';
import type { EngineMethod, EngineResult } from './calls.js';
import type { CloudTokenSource } from '../engine/imports.js';
import { isFromHost } from './protocol.js';
import type { EngineProcess, FromHost, HostConfig, NoticeEvent, SavedSession } from './protocol.js';
import { answerTokenRequest } from './token-relay.js';

export const ENGINE_STOPPED =
  'The upload engine stopped unexpectedly and is starting again; your queue is kept. Try again in a moment.';

export interface Crash {
  code: number | null;
  signal: string | null;
  /** Crashes in a row, each within a minute of its start; the next start waits longer as this grows. */
  inARow: number;
  /** Milliseconds until the next start. */
  restartInMs: number;
}

export interface EngineClientOptions {
  spawn: () => EngineProcess;
  /** Everything but the session, which is read from the vault at every start. */
  config: Omit<HostConfig, 'session'>;
  vault: {
    read(): SavedSession | null;
    write(session: SavedSession | null): void;
  };
  /** The connected cloud accounts (CloudAccounts), which answer the engine's requests for access tokens. */
  cloud?: CloudTokenSource;
  /** The delay before a restart after `inARow` quick crashes (default: at once, then 1 s, 2 s, … 30 s). */
  restartDelay?: (inARow: number) => number;
  /** How long stop() waits for the engine to save and exit before it is killed. */
  stopTimeoutMs?: number;
}

const EMPTY_SNAPSHOT: DesktopSnapshot = {
  jobs: [],
  overall: { sentBytes: 0, totalBytes: 0, percent: 0, bytesPerSecond: 0, secondsLeft: 0 },
  active: false,
  history: [],
  settings: { partConcurrency: 4, bandwidthBytesPerSecond: 0 },
  watches: [],
  connection: { state: 'online' },
  pull: null,
};

const QUICK_CRASH_MS = 60_000;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class EngineClient {
  private child: EngineProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  /** Calls made while no engine runs (between a crash and the next start). */
  private outbox: { id: number; method: EngineMethod; args: unknown[] }[] = [];
  private nextId = 1;
  private last: DesktopSnapshot = EMPTY_SNAPSHOT;
  private readonly changeListeners = new Set<(snapshot: DesktopSnapshot) => void>();
  private readonly noticeListeners = new Set<(event: NoticeEvent) => void>();
  private readonly crashListeners = new Set<(crash: Crash) => void>();
  private readonly readyListeners = new Set<(info: { pid: number; execArgv: string[] }) => void>();
  private stopping: Promise<void> | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private startedAt = 0;
  private inARow = 0;

  constructor(private readonly options: EngineClientOptions) {}

  /** Starts the engine process (once). */
  start(): void {
    if (this.child || this.stopping) return;
    this.startedAt = Date.now();
    const child = this.options.spawn();
    this.child = child;
    child.onMessage((message) => {
      if (this.child === child && isFromHost(message)) this.receive(message);
    });
    child.onExit((exit) => this.exited(child, exit));
    child.post({ type: 'init', config: { ...this.options.config, session: this.options.vault.read() } });
    const queued = this.outbox;
    this.outbox = [];
    for (const call of queued) child.post({ type: 'call', ...call });
  }

  /** Calls the DesktopService in the engine process with the raw arguments from the window. */
  call<M extends EngineMethod>(method: M, args: unknown[] = []): Promise<EngineResult<M>> {
    if (this.stopping) return Promise.reject(new Error('The upload engine is stopping.'));
    const id = this.nextId++;
    return new Promise<EngineResult<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (this.child) this.child.post({ type: 'call', id, method, args });
      else this.outbox.push({ id, method, args });
    });
  }

  /** The latest snapshot the engine pushed (the tray reads it without a round trip). */
  snapshot(): DesktopSnapshot {
    return this.last;
  }

  onChange(listener: (snapshot: DesktopSnapshot) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onNotice(listener: (event: NoticeEvent) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }

  onCrash(listener: (crash: Crash) => void): () => void {
    this.crashListeners.add(listener);
    return () => this.crashListeners.delete(listener);
  }

  /** Each start of an engine process, with its pid and V8 flags. */
  onReady(listener: (info: { pid: number; execArgv: string[] }) => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  /** Asks the engine to save its queue and exit; kills it if it has not within the timeout. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const child = this.child;
    if (child) {
      const exited = new Promise<void>((resolve) => child.onExit(() => resolve()));
      child.post({ type: 'close' });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), this.options.stopTimeoutMs ?? 5_000);
      });
      if ((await Promise.race([exited, late])) === 'late') {
        child.kill();
        await exited;
      }
      clearTimeout(timer);
    }
    this.failPending(new Error('The upload engine has stopped.'));
  }

  private receive(message: FromHost): void {
    switch (message.type) {
      case 'ready':
        for (const listener of this.readyListeners)
          listener({ pid: message.pid, execArgv: message.execArgv });
        break;
      case 'result': {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.ok) waiting?.resolve(message.value);
        else waiting?.reject(new Error(message.message));
        break;
      }
      case 'changed':
        this.last = message.snapshot;
        for (const listener of this.changeListeners) listener(message.snapshot);
        break;
      case 'event':
        for (const listener of this.noticeListeners) listener(message.event);
        break;
      case 'vault':
        this.options.vault.write(message.session);
        break;
      case 'token': {
        // Answered to the process that asked: a request from an engine that has since died is dropped.
        const asking = this.child;
        void answerTokenRequest(this.options.cloud, message).then((answer) => {
          if (this.child === asking) asking?.post(answer);
        });
        break;
      }
    }
  }

  private exited(child: EngineProcess, exit: { code: number | null; signal: string | null }): void {
    if (this.child !== child) return;
    this.child = null;
    if (this.stopping) return;
    // The calls it had taken are lost with it; their callers hear so (the window shows the message).
    this.failPending(new Error(ENGINE_STOPPED));
    this.inARow = Date.now() - this.startedAt < QUICK_CRASH_MS ? this.inARow + 1 : 1;
    const restartInMs = (this.options.restartDelay ?? defaultDelay)(this.inARow);
    for (const listener of this.crashListeners) listener({ ...exit, inARow: this.inARow, restartInMs });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.start();
    }, restartInMs);
  }

  private failPending(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const each of waiting) each.reject(error);
    this.outbox = [];
  }
}

/** At once after a crash out of the blue; a crash loop backs off to one start every 30 s. */
function defaultDelay(inARow: number): number {
  return inARow <= 1 ? 0 : Math.min(30_000, 1_000 * 2 ** (inARow - 2));
}

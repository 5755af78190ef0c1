/**
 * Whether the server answers, and when it is asked again. The engine is offline-first: a call that gets no
 * answer (or a 5xx) does not fail a job; the monitor goes `waiting`, tries again after a backoff with
 * jitter (so a venue full of laptops does not return in step), and tells the window and the command line
 * when. A person can say "Retry now"; a wall-clock jump against the monotonic clock (the laptop slept) or a
 * change of the machine's network addresses (another Wi-Fi) also tries at once, since the backoff measured
 * before either means nothing after it.
 */
import os from 'node:os';

export type ConnectionReason = 'unreachable' | 'server-error';

export type ConnectionState =
  | { state: 'online' }
  | {
      state: 'waiting';
      server: string;
      reason: ConnectionReason;
      /** What went wrong, in words (never a raw error code alone). */
      message: string;
      /** Tries so far since the server last answered (1 after the first failure). */
      attempt: number;
      /** When the next try starts (epoch ms); 0 once a bounded run has given up. */
      nextTryAt: number;
      /** Files not yet complete in the queue, all waiting for the server. */
      queuedFiles: number;
    };

export type RetryWhat = 'register' | 'part' | 'complete' | 'submit' | 'import';

export interface RetryEvent {
  type: 'retry';
  server: string;
  reason: ConnectionReason;
  message: string;
  attempt: number;
  delayMs: number;
  what: RetryWhat;
}

/** A call that got no useful answer, classified. */
export interface Failure {
  reason: ConnectionReason;
  message: string;
}

/** The two clocks compared to notice a sleep: the wall clock jumps, the monotonic one does not. */
export interface EngineClock {
  wall(): number;
  monotonic(): number;
}

export const SYSTEM_CLOCK: EngineClock = { wall: () => Date.now(), monotonic: () => performance.now() };

export interface ConnectionOptions {
  server: string;
  /** Waits between tries: base × 2^(attempt−1) up to max, times a random factor in [0.5, 1). */
  backoff?: { baseMs?: number; maxMs?: number };
  random?: () => number;
  clock?: EngineClock;
  /** How often the clocks and the network addresses are compared (ms). */
  watchMs?: number;
  /** A drift of the wall clock from the monotonic one larger than this (ms) counts as a sleep. */
  jumpMs?: number;
  /** What identifies the machine's network: its non-internal addresses (os.networkInterfaces()). */
  network?: () => string;
  /** Files waiting, for the state's count. */
  queuedFiles: () => number;
  /** Tries every call that waits for the server; it reports back with ok() or fail(). */
  onTry: () => Promise<void>;
  onChange: (state: ConnectionState) => void;
  onRetry: (event: RetryEvent) => void;
  /** After a sleep or a network change (the engine restarts transfers whose sockets may be dead). */
  onWake?: (why: 'clock' | 'network') => void;
  /** A bounded run: after this long without an answer, onGiveUp instead of another try. */
  giveUpAfterMs?: number | undefined;
  onGiveUp?: (state: ConnectionState & { state: 'waiting' }) => void;
}

export const DEFAULT_BACKOFF = { baseMs: 2_000, maxMs: 60_000 };

/** The machine's external addresses, sorted: changes when a cable, a Wi-Fi or a VPN comes or goes. */
export function networkSignature(): string {
  return Object.entries(os.networkInterfaces())
    .flatMap(([name, list]) => (list ?? []).filter((a) => !a.internal).map((a) => `${name}/${a.address}`))
    .sort()
    .join(',');
}

export class ConnectionMonitor {
  private current: ConnectionState = { state: 'online' };
  private timer: ReturnType<typeof setTimeout> | null = null;
  private watcher: ReturnType<typeof setInterval> | null = null;
  private trying: Promise<void> | null = null;
  /** Whether this round of tries already counted a failure (several calls fail together). */
  private failedThisTry = false;
  private waitingSince = 0;
  private gaveUp = false;
  private lastWall = 0;
  private lastMono = 0;
  private lastNetwork = '';
  private readonly clock: EngineClock;
  private stopped = false;

  constructor(private readonly options: ConnectionOptions) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
  }

  get server(): string {
    return this.options.server;
  }

  get state(): ConnectionState {
    return this.current.state === 'online'
      ? this.current
      : { ...this.current, queuedFiles: this.options.queuedFiles() };
  }

  get online(): boolean {
    return this.current.state === 'online';
  }

  /** Makes this a bounded run: after `ms` without an answer, onGiveUp instead of another try. */
  bound(ms: number | undefined): void {
    this.options.giveUpAfterMs = ms;
  }

  /** Whether this is a bounded run (it gives up after a time without an answer). */
  get bounded(): boolean {
    return this.options.giveUpAfterMs !== undefined;
  }

  /** Whether a bounded run has stopped trying. */
  get givenUp(): boolean {
    return this.gaveUp;
  }

  /** Starts looking at the clocks and the network. */
  start(): void {
    if (this.watcher || this.stopped) return;
    this.lastWall = this.clock.wall();
    this.lastMono = this.clock.monotonic();
    this.lastNetwork = (this.options.network ?? networkSignature)();
    this.watcher = setInterval(() => this.look(), this.options.watchMs ?? 2_000);
    this.watcher.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.watcher) clearInterval(this.watcher);
    if (this.timer) clearTimeout(this.timer);
    this.watcher = null;
    this.timer = null;
  }

  /** The clocks and the network, compared with the last look. */
  look(): void {
    const wall = this.clock.wall();
    const mono = this.clock.monotonic();
    const drift = Math.abs(wall - this.lastWall - (mono - this.lastMono));
    this.lastWall = wall;
    this.lastMono = mono;
    const network = (this.options.network ?? networkSignature)();
    const changed = network !== this.lastNetwork;
    this.lastNetwork = network;
    const why = drift > (this.options.jumpMs ?? 5_000) ? 'clock' : changed ? 'network' : null;
    if (!why) return;
    this.options.onWake?.(why);
    if (!this.online) this.retryNow();
  }

  /** The server answered: online again (the backoff starts over). */
  ok(): void {
    if (this.online) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.gaveUp = false;
    this.current = { state: 'online' };
    this.options.onChange(this.state);
  }

  /**
   * A call got no answer or a 5xx: waiting, with the next try scheduled. Calls failing together (the parts
   * in flight, several registrations) count once.
   */
  fail(failure: Failure, what: RetryWhat): void {
    if (this.stopped) return;
    const now = this.clock.monotonic();
    if (
      this.current.state === 'waiting' &&
      (this.timer || this.gaveUp || (this.trying && this.failedThisTry))
    ) {
      // Already counted: only the latest words.
      this.current = { ...this.current, reason: failure.reason, message: failure.message };
      this.options.onChange(this.state);
      return;
    }
    if (this.trying) this.failedThisTry = true;
    const attempt = this.current.state === 'waiting' ? this.current.attempt + 1 : 1;
    if (this.current.state === 'online') this.waitingSince = now;
    const base = this.options.backoff?.baseMs ?? DEFAULT_BACKOFF.baseMs;
    const max = this.options.backoff?.maxMs ?? DEFAULT_BACKOFF.maxMs;
    const delayMs = Math.round(
      Math.min(max, base * 2 ** (attempt - 1)) * (0.5 + 0.5 * (this.options.random ?? Math.random)()),
    );
    const bound = this.options.giveUpAfterMs;
    const left = bound === undefined ? Infinity : this.waitingSince + bound - now;
    this.current = {
      state: 'waiting',
      server: this.options.server,
      reason: failure.reason,
      message: failure.message,
      attempt,
      nextTryAt: left <= 0 ? 0 : this.clock.wall() + Math.min(delayMs, left),
      queuedFiles: 0,
    };
    if (left <= 0) {
      this.giveUp();
      return;
    }
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (bound !== undefined && this.clock.monotonic() - this.waitingSince >= bound) this.giveUp();
        else this.tryNow();
      },
      Math.min(delayMs, left),
    );
    this.timer.unref?.();
    this.options.onChange(this.state);
    this.options.onRetry({
      type: 'retry',
      server: this.options.server,
      reason: failure.reason,
      message: failure.message,
      attempt: attempt + 1,
      delayMs: Math.min(delayMs, left),
      what,
    });
  }

  private giveUp(): void {
    if (this.current.state !== 'waiting') return;
    this.gaveUp = true;
    this.current = { ...this.current, nextTryAt: 0 };
    this.options.onChange(this.state);
    this.options.onGiveUp?.(this.state as ConnectionState & { state: 'waiting' });
  }

  /** Tries every waiting call at once (the window's "Retry now"); nothing to do while online. */
  retryNow(): Promise<void> {
    if (this.online || this.stopped) return Promise.resolve();
    if (this.gaveUp) {
      // A person asked: a bounded run gets its bound again.
      this.gaveUp = false;
      this.waitingSince = this.clock.monotonic();
    }
    return this.tryNow();
  }

  private tryNow(): Promise<void> {
    if (this.trying) return this.trying;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.failedThisTry = false;
    this.trying = this.options.onTry().finally(() => {
      this.trying = null;
    });
    return this.trying;
  }
}

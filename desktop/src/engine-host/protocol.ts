/**
 * The messages between the app's main process and the engine's own process: the upload
 * engine (DesktopService and everything under it) runs in an Electron utilityProcess, capped like the
 * CLI (ENGINE_V8_FLAGS), and the main process only relays. Nothing here imports electron, so the same
 * host and client run under child_process.fork in tests and in the development bridge.
 *
 * Messages are structured-cloned (Electron's MessagePortMain; fork with `serialization: 'advanced'`),
 * so values cross as plain data: results, snapshots and errors as `{ message }`.
 */
import type { CloudProvider } from '@avp/shared';
import type { CloudErrorCode } from '../engine/cloud/errors.js';
import type { DesktopSnapshot, SignedIn } from '../main/api.js';
import type { ServiceNotice } from '../main/service.js';
import type { EngineMethod } from './calls.js';

/**
 * The CLI's V8 flag (desktop/bin/av-upload.js, docs/decisions.md): a capped young generation keeps a
 * long upload's heap small. The utility process can be given it; Electron's main process cannot.
 */
export const ENGINE_V8_FLAGS = ['--max-semi-space-size=4'];

/** The signed-in session with its token, as the vault keeps it. */
export type SavedSession = SignedIn & { token: string };

/** What the engine process needs to start: the main process owns the paths and the vault. */
export interface HostConfig {
  /** The server the sign-in form offers when none is typed. */
  defaultServer: string;
  /** The queue, history, settings and watch folders (a JSON file written atomically). */
  stateFile: string;
  /** The daily log's folder (the app's data folder); none: no log file. */
  logDir?: string;
  /**
   * The session kept by the main process's vault (safeStorage), decrypted, or null. The engine process
   * holds it in memory only and asks the main process to store a new one (a 'vault' message).
   */
  session: SavedSession | null;
}

/** The events the app shows as notifications. */
export type NoticeEvent = ServiceNotice;

export type ToHost =
  | { type: 'init'; config: HostConfig }
  | { type: 'call'; id: number; method: EngineMethod; args: unknown[] }
  /** Stop sending (the queue is saved as it is) and exit. */
  | { type: 'close' }
  /** The main process's answer to a 'token' request: an access token, or why there is none. */
  | { type: 'token'; id: number; ok: true; token: string }
  | { type: 'token'; id: number; ok: false; code: CloudErrorCode | null; message: string };

export type FromHost =
  | { type: 'ready'; pid: number; execArgv: string[] }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; message: string }
  | { type: 'changed'; snapshot: DesktopSnapshot }
  | { type: 'event'; event: NoticeEvent }
  /** Store this session in the vault (null: delete it). */
  | { type: 'vault'; session: SavedSession | null }
  /**
   * An access token for a cloud import, asked of the main process, where the connected accounts live
   * (their refresh tokens stay behind safeStorage there; docs/decisions.md 'Cloud accounts in main').
   */
  | { type: 'token'; id: number; provider: CloudProvider; forceRefresh: boolean };

const TYPES_TO_HOST = new Set(['init', 'call', 'close', 'token']);
const TYPES_FROM_HOST = new Set(['ready', 'result', 'changed', 'event', 'vault', 'token']);

const typed = (value: unknown): value is { type: string } =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** Only the parent sends to the host, but a message is still checked before it is trusted with a method. */
export function isToHost(value: unknown): value is ToHost {
  return typed(value) && TYPES_TO_HOST.has(value.type);
}

export function isFromHost(value: unknown): value is FromHost {
  return typed(value) && TYPES_FROM_HOST.has(value.type);
}

/** The engine process's end of the channel: Electron's process.parentPort or a forked child's process. */
export interface HostPort {
  post(message: FromHost): void;
  listen(listener: (message: unknown) => void): void;
}

/** The parent's handle on one engine process: a utilityProcess in the app, a forked child elsewhere. */
export interface EngineProcess {
  post(message: ToHost): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process has ended, however it ended. */
  onExit(listener: (exit: { code: number | null; signal: string | null }) => void): void;
  kill(): void;
}

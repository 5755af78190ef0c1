/**
 * The preload API (window.avUpload) as a type and its IPC channels: the one contract between the
 * sandboxed renderer and the main process, which relays most calls to the engine process
 * (src/engine-host). The development bridge (src/bridge) serves the same API over HTTP and Server-Sent
 * Events so the renderer can be driven in a plain browser.
 */
import type { EngineSettings, EngineSnapshot, WatchFolder } from '../engine/index.js';

/** A watch folder as the window shows it: with how many files were taken from it (never sent twice). */
export interface WatchView extends WatchFolder {
  filesSent: number;
}

/** The engine's snapshot as the window receives it. */
export type DesktopSnapshot = Omit<EngineSnapshot, 'watches'> & { watches: WatchView[] };

export interface SignedIn {
  server: string;
  email: string;
  expiresAt: string;
}

export type Result<T = undefined> =
  | ({ ok: true } & (T extends undefined ? object : { value: T }))
  | { ok: false; message: string; fields?: Record<string, string> };

/** The form as the renderer holds it (SPEC §3 fields; the event date and 12-hour time apart). */
export interface FormInput {
  form_type: 'creative' | 'event' | 'sponsor';
  [field: string]: string;
}

export interface DesktopApi {
  session(): Promise<SignedIn | null>;
  login(server: string, email: string, password: string): Promise<Result<SignedIn>>;
  /** Revokes the token on the server and deletes it. */
  logout(): Promise<void>;
  /** Validates with the shared schemas (the spec's messages), creates the submission, queues the files. */
  submit(form: FormInput, paths: string[]): Promise<Result>;
  pauseFile(jobId: string, key: string): Promise<void>;
  resumeFile(jobId: string, key: string): Promise<void>;
  pauseAll(): Promise<void>;
  resumeAll(): Promise<void>;
  setSettings(
    settings: Partial<EngineSettings> & { openAtLogin?: boolean },
  ): Promise<EngineSettings & { openAtLogin: boolean }>;
  snapshot(): Promise<DesktopSnapshot>;
  /** Called with a fresh snapshot whenever the queue changes (at most a few times a second). */
  onChange(listener: (snapshot: DesktopSnapshot) => void): () => void;
  /** The path of a file or folder dropped from the operating system. */
  pathForFile(file: File): string;
  /** The system's folder chooser; null when the user closed it. */
  chooseFolder(): Promise<string | null>;
  /** Watches a folder: each new file is sent with this form once it has stopped growing. */
  addWatch(form: FormInput, folder: string): Promise<Result<WatchFolder>>;
  removeWatch(id: string): Promise<void>;
  /**
   * Shows today's log file in the system's file manager (for support) and answers its path; null where
   * there is no log file (the development bridge without --log-dir).
   */
  showLog(): Promise<string | null>;
}

export const CHANNELS = {
  session: 'av:session',
  login: 'av:login',
  logout: 'av:logout',
  submit: 'av:submit',
  pauseFile: 'av:pause-file',
  resumeFile: 'av:resume-file',
  pauseAll: 'av:pause-all',
  resumeAll: 'av:resume-all',
  setSettings: 'av:set-settings',
  snapshot: 'av:snapshot',
  changed: 'av:changed',
  chooseFolder: 'av:choose-folder',
  addWatch: 'av:add-watch',
  removeWatch: 'av:remove-watch',
  showLog: 'av:show-log',
} as const;

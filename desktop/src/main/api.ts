/**
 * The preload API (window.avUpload) as a type and its IPC channels: the one contract between the
 * sandboxed renderer and the main process, which relays most calls to the engine process
 * (src/engine-host). The development bridge (src/bridge) serves the same API over HTTP and Server-Sent
 * Events so the renderer can be driven in a plain browser.
 */
import type { CloudProvider, MediaFacts, UploadEventPublic } from '@avp/shared';
import type {
  AccountSummary,
  CloudErrorCode,
  DisconnectResult,
  ProviderStatus,
} from '../engine/cloud/index.js';
import type { CloudFolder, CloudItem } from '../engine/cloud/types.js';
import type {
  EngineSettings,
  EngineSnapshot,
  PullEventsResult,
  PullView,
  RefusedPath,
  ReviewsResult,
  WatchFolder,
} from '../engine/index.js';

export type {
  AccountSummary,
  CloudFolder,
  CloudItem,
  CloudProvider,
  DisconnectResult,
  ProviderStatus,
  PullEventsResult,
  PullView,
  RefusedPath,
};

/** A watch folder as the window shows it: with how many files were taken from it (never sent twice). */
export interface WatchView extends WatchFolder {
  filesSent: number;
}

/** The engine's snapshot as the window receives it. */
export type DesktopSnapshot = Omit<EngineSnapshot, 'watches'> & {
  watches: WatchView[];
  /** The window's show pull (issue #31), under way or how the last one ended; null before any. */
  pull: PullView | null;
};

export interface SignedIn {
  server: string;
  email: string;
  expiresAt: string;
}

export type Result<T = undefined> =
  | ({ ok: true } & (T extends undefined ? object : { value: T }))
  | {
      ok: false;
      message: string;
      fields?: Record<string, string>;
      /** For a cloud account's call: what went wrong (CloudAccountError's code), so the window can act on it. */
      code?: CloudErrorCode;
    };

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
  /**
   * Validates with the shared schemas (the spec's messages), creates the submission, queues the files:
   * local paths, and files picked in connected cloud accounts, which the server imports itself.
   */
  submit(form: FormInput, paths: string[], picked?: CloudItem[]): Promise<Result>;
  /**
   * Local paths checked as they are dropped or chosen: those that cannot be sent, each with the reason in
   * words ("does not exist", "cannot be read: permission denied", "is an empty folder").
   */
  checkPaths(paths: string[]): Promise<RefusedPath[]>;
  /** The open upload events (issue #30): the Event name suggests them, and the one named gives its spec. */
  uploadEvents(): Promise<UploadEventPublic[]>;
  /**
   * The review states of the signed-in client's sent files (issue #31), by submission and file name; null
   * when signed out; ok: false with the reason in words when the server does not answer.
   */
  reviews(): Promise<ReviewsResult | null>;
  /**
   * Whether the signed-in account may pull an event to a folder (staff with the Media role: 'staff') and the
   * event names the server knows; never rejects.
   */
  pullEvents(): Promise<PullEventsResult>;
  /**
   * Starts pulling an event into a folder (at most `bandwidth` bytes per second; 0 or none: no limit);
   * progress and the result arrive in the snapshot's `pull`.
   */
  startPull(event: string, acceptedOnly: boolean, dir: string, bandwidth?: number): Promise<Result>;
  /** Stops the pull under way; a later pull into the same folder goes on from where it stopped. */
  cancelPull(): Promise<void>;
  /** Chosen files' media facts, read on this machine (folders and unreadable paths left out). */
  mediaFacts(paths: string[]): Promise<{ path: string; facts: MediaFacts | null }[]>;
  /** Tries every call that waits for the server at once (the "Retry now" of the waiting banner). */
  retryNow(): Promise<void>;
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
  /**
   * The system's folder chooser (a new folder may be made in it); null when the user closed it. `purpose`
   * titles it: a folder to watch (the default) or a folder to pull an event into.
   */
  chooseFolder(purpose?: 'watch' | 'pull'): Promise<string | null>;
  /** Watches a folder: each new file is sent with this form once it has stopped growing. */
  addWatch(form: FormInput, folder: string): Promise<Result<WatchFolder>>;
  removeWatch(id: string): Promise<void>;
  /**
   * Shows today's log file in the system's file manager (for support) and answers its path; null where
   * there is no log file (the development bridge without --log-dir).
   */
  showLog(): Promise<string | null>;
  /** Each cloud provider: whether it can be connected here (else why not), and its connected account. */
  cloudProviders(): Promise<ProviderStatus[]>;
  /**
   * Opens the provider's sign-in page in the system browser and resolves once the user has finished
   * there (or cancelled, or the sign-in timed out: code 'cancelled', 'timeout', 'denied' …).
   */
  connectCloud(provider: CloudProvider): Promise<Result<AccountSummary>>;
  /** Stops waiting for a sign-in begun with connectCloud (which then resolves with code 'cancelled'). */
  cancelConnect(provider: CloudProvider): Promise<void>;
  /** Revokes the account's grant where the provider allows, and forgets it; the message says which. */
  disconnectCloud(provider: CloudProvider): Promise<Result<DisconnectResult>>;
  /** A folder of a connected account (null: its root), folders first. */
  browseCloud(provider: CloudProvider, folderId: string | null): Promise<Result<CloudFolder>>;
  searchCloud(provider: CloudProvider, query: string): Promise<Result<CloudItem[]>>;
}

export const CHANNELS = {
  session: 'av:session',
  login: 'av:login',
  logout: 'av:logout',
  submit: 'av:submit',
  checkPaths: 'av:check-paths',
  uploadEvents: 'av:upload-events',
  mediaFacts: 'av:media-facts',
  reviews: 'av:reviews',
  pullEvents: 'av:pull-events',
  startPull: 'av:start-pull',
  cancelPull: 'av:cancel-pull',
  retryNow: 'av:retry-now',
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
  cloudProviders: 'av:cloud-providers',
  connectCloud: 'av:connect-cloud',
  cancelConnect: 'av:cancel-connect',
  disconnectCloud: 'av:disconnect-cloud',
  browseCloud: 'av:browse-cloud',
  searchCloud: 'av:search-cloud',
} as const;

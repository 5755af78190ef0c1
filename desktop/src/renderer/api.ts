/**
 * The renderer's only way out: window.avUpload, put there by the preload script in the app (and by the
 * development bridge's script in a browser). Its type is the preload contract in src/main/api.ts.
 */
import type { DesktopApi } from '../main/api.js';

declare global {
  interface Window {
    avUpload?: DesktopApi;
  }
}

export type { DesktopApi, FormInput, Result, SignedIn, WatchView } from '../main/api.js';
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
} from '../main/api.js';
/** The engine's snapshot as the window receives it (watch folders with their counts). */
export type { DesktopSnapshot as EngineSnapshot } from '../main/api.js';
export type {
  BandwidthWindow,
  EngineSettings,
  FileReview,
  FileView,
  HistoryEntry,
  JobView,
  ReviewsResult,
} from '../engine/index.js';

/** The API, or null when the page was opened outside the app (then the app says so instead of failing). */
export function desktopApi(): DesktopApi | null {
  return window.avUpload ?? null;
}

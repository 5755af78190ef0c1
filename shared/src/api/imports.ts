import type { CloudProvider } from '../schemas/cloud.js';

/**
 * What the cloud import calls answer (docs/api.md 'Cloud imports'), typed once for the API, the web
 * portal and the desktop app. An import is a file of a submission whose bytes the server fetches from
 * the provider itself, part by part, surviving a closed tab or a restarted server.
 *
 *   GET  /api/uploads/cloud-config                          which pickers to show, with their public keys
 *   POST /api/uploads/submissions/:submissionId/imports     start one (cloudImportRequestSchema) → 201 { file }
 *   GET  /api/uploads/imports                               the caller's recent imports → { imports }
 *   POST /api/uploads/imports/:fileId/token                 a fresh token after 'needs_auth' → { file }
 *   DELETE /api/uploads/files/:fileId                       (the upload call) cancels one in an open submission
 */

/**
 * queued: waiting for a worker; running: a worker is copying it; needs_auth: the provider refused the
 * token or link, and only the client can give a new one; failed: it cannot finish (the reason says why);
 * complete: every byte stored and verified.
 */
export const IMPORT_STATUSES = ['queued', 'running', 'needs_auth', 'failed', 'complete'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export interface CloudImportInfo {
  provider: CloudProvider;
  status: ImportStatus;
  /** Bytes stored so far (whole parts, plus the part being copied). */
  bytesDone: number;
  /** The server's measured copy rate over the last seconds, or null when not running. */
  bytesPerSecond: number | null;
  /** A sentence for the client when it is needs_auth or failed; else null. */
  error: string | null;
  updatedAt: string;
}

/** One of the caller's imports, with the submission it belongs to (the /client page on return). */
export interface ClientImport {
  fileId: string;
  submissionId: string;
  formType: 'creative' | 'event' | 'sponsor';
  /** When the submission was sent; null while the form is still open. */
  submittedAt: string | null;
  name: string;
  /** Bytes, or null until the provider has told the server. */
  size: number | null;
  import: CloudImportInfo;
}

/** One picker the portal may show: only providers whose keys are configured are listed. */
export interface CloudPickerConfig {
  provider: CloudProvider;
  /** The browser picker's public key: Google's OAuth client id, Dropbox's app key, Box's and Microsoft's client ids. */
  clientId: string;
  /** Google only: the browser API key and the Cloud project number the Picker needs. */
  apiKey?: string;
  appId?: string;
  /** Scripts (or, for OneDrive v8, the picker page) the browser loads, configurable so tests can serve stand-ins. */
  scripts: string[];
  /** Box only: where the browser sends the user to authorise (OAuth 2.0 code flow; the server exchanges the code). */
  authorizeUrl?: string;
  /** OneDrive only: the Microsoft identity authority MSAL signs in against. */
  authority?: string;
}

export interface CloudConfigAnswer {
  providers: CloudPickerConfig[];
}

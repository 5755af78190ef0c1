/** How av-upload ends: its exit codes, and the failures that map to one. */
import { UploadError } from '@avp/shared';

/** Listed for users in the usage text (options.ts). */
export const EXIT = {
  ok: 0,
  /** An unexpected error (a bug, a disk error). */
  error: 1,
  /** Bad command line or form fields (the spec's messages are printed). */
  usage: 2,
  /** Not signed in, wrong credentials, or the session ended: run `av-upload login`. */
  auth: 3,
  /** A file or the submission failed on the server after retries; `av-upload resume` tries again. */
  uploadFailed: 4,
  /** A file changed on disk after it was queued; it was stopped. */
  fileChanged: 5,
  /** The server could not be reached. */
  network: 6,
  /** Interrupted (Ctrl-C); the queue is saved: `av-upload resume`. */
  interrupted: 130,
} as const;

/** A failure the user can act on: its message is printed (or an 'error' event), its code is the exit code. */
export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The server unreachable (exit 6) or the session ended (exit 3); anything else is thrown on. */
export function networkOrThrow(error: unknown): never {
  if (error instanceof UploadError && error.status === 0 && error.code === 'network') {
    throw new CliError(EXIT.network, `Cannot reach the server: ${error.message}`);
  }
  const code = (error as { code?: string }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'ECONNRESET') {
    throw new CliError(EXIT.network, `Cannot reach the server: ${(error as Error).message}`);
  }
  if (error instanceof UploadError && error.status === 401) {
    throw new CliError(EXIT.auth, 'The session has expired, please relogin and try again.');
  }
  throw error;
}

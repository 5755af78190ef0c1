/** How av-upload ends: its exit codes, and the failures that map to one. */
import { UploadError } from '@avp/shared';
import { networkWords } from '../engine/failures.js';

/** Listed for users in the usage text (options.ts). */
export const EXIT = {
  ok: 0,
  /** An unexpected error (a bug, a disk error). */
  error: 1,
  /** Bad command line or form fields (the spec's messages are printed). */
  usage: 2,
  /** Not signed in, wrong credentials, or the session ended: run `av-upload login`. */
  auth: 3,
  /** The server refused a file or the submission, or kept failing (its message is printed). */
  uploadFailed: 4,
  /** A file changed on disk after it was queued; it was stopped. */
  fileChanged: 5,
  /** The server could not be reached; the job is saved for `av-upload resume`. */
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

const NO_ANSWER = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'TimeoutError',
]);

/** The server unreachable (exit 6) or the session ended (exit 3), in words; anything else is thrown on. */
export function networkOrThrow(error: unknown, server: string): never {
  const code = (error as { code?: string }).code ?? (error as { name?: string }).name ?? '';
  if (
    (error instanceof UploadError && error.status === 0 && error.code === 'network') ||
    NO_ANSWER.has(code)
  ) {
    throw new CliError(
      EXIT.network,
      `Server unreachable at ${server}: ${networkWords(error, server).message}`,
    );
  }
  if (error instanceof UploadError && error.status === 401) {
    throw new CliError(EXIT.auth, 'The session has expired, please relogin and try again.');
  }
  throw error;
}

const FS_WORDS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the disk is read-only',
  EEXIST: 'a file of that name is in the way',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOENT: 'it does not exist',
  EISDIR: 'it is a folder',
  EIO: 'the disk reported an error',
};
const FS_VERBS: Record<string, string> = {
  mkdir: 'create the folder',
  open: 'open',
  write: 'write',
  rename: 'save',
  unlink: 'delete',
  read: 'read',
  stat: 'look at',
};

/**
 * An error nobody planned for (exit 1), as a sentence: a file system error names the path and the cause
 * in words; the stack is printed only with AV_UPLOAD_DEBUG=1.
 */
export function unexpected(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const what =
    e?.code && e.path
      ? `could not ${FS_VERBS[e.syscall ?? ''] ?? 'use'} ${e.path}: ${FS_WORDS[e.code] ?? e.code}.`
      : `${error instanceof Error ? error.message : String(error)}`;
  const debug = process.env.AV_UPLOAD_DEBUG && error instanceof Error ? `\n${error.stack}` : '';
  return `av-upload stopped on an unexpected error: ${what} (AV_UPLOAD_DEBUG=1 shows where.)${debug}`;
}

import { SERVICE_BRIEFLY_UNAVAILABLE, UPLOAD_STORAGE_FULL } from '@avp/shared';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import type { Config } from '../config.js';
import { isStorageFull, StorageUnavailableError } from '../adapters/storage/types.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { noteServerError } from './request-log.js';

/** The one error body every API answer uses: `{ "error": { "code", "message", "fields"? } }`. */
export interface ErrorBody {
  error: {
    code: string;
    message: string;
    fields?: Record<string, string>;
    /** NODE_ENV=development only. */
    stack?: string;
    /**
     * On 5xx answers: the request's id (also in the X-Request-Id header), so that what a client shows or
     * sends leads to the server's log line about it.
     */
    requestId?: string;
  };
}

/** An error meant for the caller: its status, code and message are sent as they are. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * A service the request needs is out of reach for now (the database, room on the upload disk): the caller
 * gets the status, a Retry-After and a message in words; staff get `reason` and the cause in the log.
 */
export class UnavailableError extends AppError {
  constructor(
    status: 503 | 507,
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
    readonly reason: string,
    override readonly cause: unknown,
  ) {
    super(status, code, message);
    this.name = 'UnavailableError';
  }
}

/** Seconds a client is asked to wait after losing the database (the pool reconnects on its own). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/** Seconds a client is asked to wait after the storage service failed (throttling, 5xx, resets). */
export const STORAGE_RETRY_AFTER_SECONDS = 2;
/** Seconds a client is asked to wait when the upload disk is full (someone has to free space). */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 60;

/** zod's issues as `path → first message`; an issue about the whole value is filed under 'root'. */
export function fieldErrors(error: z.core.$ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'root';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** The shape of errors raised by Express's body parsers (http-errors). */
interface HttpError {
  status: number;
  type?: string;
  expose?: boolean;
  message: string;
}

function isHttpError(error: unknown): error is HttpError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { status?: unknown }).status === 'number' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/** The caller-facing form of an error, or undefined for an unexpected one (a 500). */
export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) {
    return new UnavailableError(
      503,
      'database_unavailable',
      SERVICE_BRIEFLY_UNAVAILABLE,
      DATABASE_RETRY_AFTER_SECONDS,
      'database unavailable: the request could not reach it (the pool reconnects by itself)',
      error,
    );
  }
  if (error instanceof StorageUnavailableError) {
    return new UnavailableError(
      503,
      'storage_unavailable',
      SERVICE_BRIEFLY_UNAVAILABLE,
      STORAGE_RETRY_AFTER_SECONDS,
      `upload storage unavailable after retries: ${error.message}`,
      error.cause,
    );
  }
  if (isStorageFull(error)) {
    const path = (error as { path?: unknown }).path;
    return new UnavailableError(
      507,
      'storage_full',
      UPLOAD_STORAGE_FULL,
      STORAGE_FULL_RETRY_AFTER_SECONDS,
      `upload storage is full (${String((error as { code?: unknown }).code)}${typeof path === 'string' ? ` at ${path}` : ''}): free space there; clients retry and their uploads resume`,
      error,
    );
  }
  // $ZodError's instanceof checks traits, so errors from any copy of zod (shared's included) match.
  if (error instanceof z.core.$ZodError) {
    return new AppError(400, 'validation_failed', 'Some fields are missing or invalid.', fieldErrors(error));
  }
  if (isHttpError(error)) {
    if (error.type === 'entity.parse.failed')
      return new AppError(400, 'bad_json', 'The request body is not valid JSON.');
    if (error.type === 'entity.too.large' || error.status === 413) {
      return new AppError(413, 'payload_too_large', 'The request body is too large.');
    }
    if (error.status >= 400 && error.status < 500 && error.expose !== false) {
      return new AppError(error.status, 'bad_request', error.message);
    }
  }
  return undefined;
}

/**
 * The single error handler (Node.js best practices). Callers get a stable JSON body; unexpected errors
 * become a bare 500 whose details stay in the log unless NODE_ENV=development. Every 5xx is logged once,
 * on the request's own line (request-log.ts: request id, route pattern, code and cause), and its body
 * carries the request id that line is found by.
 */
export function errorHandler(config: Pick<Config, 'NODE_ENV'>): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const known = toAppError(error);
    if (known) {
      if (known instanceof UnavailableError) res.set('Retry-After', String(known.retryAfterSeconds));
      const body: ErrorBody = { error: { code: known.code, message: known.message } };
      if (known.fields) body.error.fields = known.fields;
      if (known.status >= 500) {
        const cause = known instanceof UnavailableError ? known.cause : (known.cause ?? known);
        const reason = known instanceof UnavailableError ? known.reason : known.message;
        noteServerError(res, { code: known.code, reason, cause });
        body.error.requestId = String(req.id);
      }
      res.status(known.status).json(body);
      return;
    }
    noteServerError(res, { code: 'internal', reason: 'unexpected error', cause: error });
    const body: ErrorBody = {
      error: { code: 'internal', message: 'Internal server error', requestId: String(req.id) },
    };
    if (config.NODE_ENV === 'development') body.error.stack = res.err?.stack;
    res.status(500).json(body);
  };
}

/** Unknown /api routes answer JSON, never the web app's HTML. */
export const apiNotFound: RequestHandler = (req, _res, next) => {
  const pathname = req.originalUrl.split('?')[0] ?? req.originalUrl;
  next(new AppError(404, 'not_found', `No such API route: ${req.method} ${pathname}`));
};

/** Anything else nobody answered (a POST to a page, say): a JSON 404 as well. */
export const routeNotFound: RequestHandler = (req, _res, next) => {
  const pathname = req.originalUrl.split('?')[0] ?? req.originalUrl;
  next(new AppError(404, 'not_found', `No such route: ${req.method} ${pathname}`));
};

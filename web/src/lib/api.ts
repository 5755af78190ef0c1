/**
 * The web app's one HTTP client for our own API. Every error becomes an ApiError carrying the server's
 * `{ error: { code, message, fields } }` (or the legacy calls' `{ error: text, code, fields }`), so a form
 * can show the server's own text (DESIGN deviation 5: errors are shown, not swallowed); a network failure
 * becomes one with status 0 and code 'network'.
 */

export const NETWORK_ERROR = 'Could not reach the server. Please check your connection and try again.';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    /** On a server error (5xx): the request's id, which finds the server's log line about it. */
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface ErrorBody {
  error?: string | { code?: unknown; message?: unknown; fields?: unknown; requestId?: unknown };
  code?: unknown;
  fields?: unknown;
}

function fieldsOf(value: unknown): Record<string, string> | undefined {
  return value && typeof value === 'object' ? (value as Record<string, string>) : undefined;
}

// The server's ids are UUIDs, or a proxy's short token (api/src/http/request-id.ts): nothing else is shown.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

function errorFrom(status: number, body: unknown, header: string | null): ApiError {
  const answer = (body ?? {}) as ErrorBody;
  // A 5xx names its request (body, or the X-Request-Id header of any answer) for the staff to look up.
  const given = typeof answer.error === 'object' ? answer.error.requestId : undefined;
  const id = typeof given === 'string' ? given : header;
  const requestId = status >= 500 && id !== null && REQUEST_ID.test(id) ? id : undefined;
  const fallback = `The server answered ${status}.`;
  // The spec's original /api/*.php calls put the text in `error` and the code beside it.
  if (typeof answer.error === 'string') {
    const code = typeof answer.code === 'string' ? answer.code : 'http_error';
    return new ApiError(status, code, answer.error, fieldsOf(answer.fields), requestId);
  }
  const error = answer.error;
  const message = typeof error?.message === 'string' ? error.message : fallback;
  const code = typeof error?.code === 'string' ? error.code : 'http_error';
  return new ApiError(status, code, message, fieldsOf(error?.fields), requestId);
}

export interface RequestOptions {
  /** Extra headers, such as the store's order token. */
  headers?: Record<string, string>;
  /** Cancels the call: a query whose answer is no longer wanted stops waiting for it. */
  signal?: AbortSignal;
}

async function send<T>(path: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { credentials: 'same-origin', ...init });
  } catch {
    throw new ApiError(0, 'network', NETWORK_ERROR);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!res.ok) throw errorFrom(res.status, parsed, res.headers.get('X-Request-Id'));
  return parsed as T;
}

/** A JSON call: the body, when given, is sent as JSON. */
export function apiRequest<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  return send<T>(path, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...options.headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: options.signal,
  });
}

/** Sends a file as raw bytes under its own Content-Type; the answer is JSON. */
export function apiUpload<T>(path: string, file: File): Promise<T> {
  return send<T>(path, {
    method: 'POST',
    headers: { 'Content-Type': file.type || 'application/octet-stream', Accept: 'application/json' },
    body: file,
  });
}

/**
 * The text to show for any failure of a call. A server error ends with its reference (the request id), so
 * a client's screenshot or message leads the staff to the server's log line about it.
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return NETWORK_ERROR;
  return error.requestId === undefined ? error.message : `${error.message} (Reference: ${error.requestId})`;
}

import { CloudAuthError, CloudRefusedError, CloudTransientError } from './types.js';

/** Retry-After in milliseconds (seconds or an HTTP date), or null. */
export function retryAfterMs(value: string | null | undefined): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

export const NOT_FOUND = 'The cloud provider no longer has this file, or it is not shared with this account.';
export const EXPIRED = 'The access to this file has expired. Pick it again to continue.';

/**
 * What an HTTP answer other than the expected one means for an import: 401 and 410 (an expired token or
 * link) need the client; 404 is final; 403 is final unless the provider says it is a rate limit;
 * 202 (Box: not ready yet), 408, 429 and 5xx are worth another try.
 */
export function errorForStatus(
  status: number,
  retryAfter: string | null | undefined,
  detail = '',
): CloudAuthError | CloudRefusedError | CloudTransientError {
  if (status === 401 || status === 410) return new CloudAuthError(EXPIRED);
  if (status === 404) return new CloudRefusedError(NOT_FOUND, 404);
  if (status === 403 && !/rate|quota|limit/i.test(detail)) {
    return new CloudAuthError('The cloud provider refused access to this file. Pick it again to continue.');
  }
  if (status === 202 || status === 403 || status === 408 || status === 429 || status >= 500) {
    return new CloudTransientError(`The provider answered ${status}.`, retryAfterMs(retryAfter));
  }
  return new CloudRefusedError(`The cloud provider refused this file (HTTP ${status}).`, 400);
}

/** Errors thrown by fetch itself (a refused or dropped connection) are transient; ours pass through. */
export function networkError(error: unknown): Error {
  if (
    error instanceof CloudAuthError ||
    error instanceof CloudRefusedError ||
    error instanceof CloudTransientError
  ) {
    return error;
  }
  if ((error as { name?: string } | null)?.name === 'AbortError') return error as Error;
  const message = error instanceof Error ? error.message : String(error);
  return new CloudTransientError(`The connection to the provider failed: ${message}`);
}

/** The Content-Range an answer to `bytes=start-end` must carry, checked so no wrong bytes are stored. */
export function checkRange(
  response: { status: number; headers: { get(name: string): string | null } },
  range: { start: number; end: number },
): void {
  if (response.status === 200 && range.start === 0) {
    const length = Number(response.headers.get('content-length'));
    if (length === range.end + 1) return;
  }
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
  if (
    response.status !== 206 ||
    !match ||
    Number(match[1]) !== range.start ||
    Number(match[2]) !== range.end
  ) {
    throw new CloudTransientError(
      `The provider answered the byte range ${range.start}-${range.end} with ${response.status} ${response.headers.get('content-range') ?? ''}.`,
    );
  }
}

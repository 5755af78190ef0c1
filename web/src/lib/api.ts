/**
 * JSON calls to our own API. Every error becomes an ApiError carrying the server's
 * `{ error: { code, message, fields } }`, so a form can show the server's own text (DESIGN deviation 5:
 * errors are shown, not swallowed); a network failure becomes one with code 'network'.
 */

export const NETWORK_ERROR = 'Could not reach the server. Please check your connection and try again.';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; fields?: unknown };
}

function errorFrom(status: number, body: unknown): ApiError {
  const error = (body as ErrorBody | null)?.error;
  const message = typeof error?.message === 'string' ? error.message : `The server answered ${status}.`;
  const code = typeof error?.code === 'string' ? error.code : 'http_error';
  const fields =
    error?.fields && typeof error.fields === 'object' ? (error.fields as Record<string, string>) : undefined;
  return new ApiError(status, code, message, fields);
}

export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
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
  if (!res.ok) throw errorFrom(res.status, parsed);
  return parsed as T;
}

/** The text to show for any failure of a call. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : NETWORK_ERROR;
}

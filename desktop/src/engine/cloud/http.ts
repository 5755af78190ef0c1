/**
 * HTTP to the providers' REST APIs (browse, search, revoke) over got with the engine's agents (keep-alive,
 * HTTP(S)_PROXY), and one reading of errors. The only retry is of a request whose kept-alive connection
 * the server had just closed (ECONNRESET, 'socket hang up'), which in practice never reached it: browse,
 * search and revoke may be sent again (token requests are not); anything else is retried by the user.
 */
import got from 'got';
import type { Got, OptionsOfTextResponseBody } from 'got';
import { createAgents } from '../transport.js';
import { CloudAccountError } from './errors.js';

export function providerHttp(): Got {
  return got.extend({
    agent: createAgents(),
    throwHttpErrors: false,
    retry: {
      limit: 1,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      statusCodes: [],
      errorCodes: ['ECONNRESET'],
      calculateDelay: ({ attemptCount, error }) => (attemptCount <= 1 && error.code === 'ECONNRESET' ? 1 : 0),
    },
    responseType: 'text',
    timeout: { connect: 10_000, socket: 30_000, response: 30_000 },
    headers: { 'user-agent': 'av-upload (desktop engine)', accept: 'application/json' },
  });
}

export interface CallOptions extends Omit<OptionsOfTextResponseBody, 'url' | 'responseType'> {
  token?: string;
  /** What to call the thing asked for in a 404 message. */
  what?: string;
}

/** A JSON call; a 401 is 'token_refused' (the caller refreshes), a 404 'not_found', others 'provider_error'. */
export async function callJson<T>(
  http: Got,
  name: string,
  url: string,
  options: CallOptions = {},
): Promise<T> {
  const { token, what, ...rest } = options;
  const headers = { ...(rest.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  let res;
  try {
    res = await http(url, { ...rest, headers });
  } catch (error) {
    throw new CloudAccountError(
      'provider_error',
      `${name} could not be reached: ${(error as Error).message}`,
    );
  }
  let body: unknown = undefined;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    // not JSON
  }
  if (res.statusCode >= 200 && res.statusCode < 300) return body as T;
  if (res.statusCode === 401)
    throw new CloudAccountError('token_refused', `${name} did not accept the sign-in.`, 401);
  if (res.statusCode === 404 || (res.statusCode === 409 && /not_found/.test(res.body)))
    throw new CloudAccountError('not_found', `${name} has no ${what ?? 'such item'}.`, 404);
  throw new CloudAccountError(
    'provider_error',
    `${name} answered ${res.statusCode}${res.body ? `: ${res.body.slice(0, 200)}` : ''}`,
    res.statusCode,
  );
}

/** A form POST to an OAuth token endpoint: the token answer, or a 'token_refused' with the provider's reason. */
export async function tokenRequest(
  http: Got,
  name: string,
  url: string,
  form: Record<string, string>,
): Promise<Record<string, unknown>> {
  let res;
  try {
    // Never sent twice: Box's refresh tokens are single use, and a refresh that did arrive would burn it.
    res = await http.post(url, { form, retry: { limit: 0 } });
  } catch (error) {
    throw new CloudAccountError(
      'provider_error',
      `${name} could not be reached: ${(error as Error).message}`,
    );
  }
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    // not JSON
  }
  if (res.statusCode === 200 && typeof body.access_token === 'string') return body;
  const reason = String(body.error_description ?? body.error ?? `HTTP ${res.statusCode}`);
  throw new CloudAccountError(
    res.statusCode >= 500 ? 'provider_error' : 'token_refused',
    `${name} refused the sign-in: ${reason}`,
    res.statusCode,
  );
}

/**
 * Sign-in for non-browser clients (docs/api.md 'The desktop uploader'): POST /api/auth/login with
 * `token: true` answers a bearer token naming a session row (same 24 h maximum as the cookie); sign-out
 * revokes it on the server.
 */
import { loginFormSchema } from '@avp/shared';
import type { SessionUser } from '@avp/shared';
import type { Got } from 'got';
import { createHttp } from './transport.js';

export interface TokenSession {
  token: string;
  user: SessionUser;
  expiresAt: string;
}

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

function errorOf(status: number, text: string): AuthError {
  let body: { error?: { code?: string; message?: string; fields?: Record<string, string> } } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: keep the generic message
  }
  return new AuthError(
    status,
    body.error?.code ?? 'http_error',
    body.error?.message ?? `The server answered ${status}.`,
    body.error?.fields,
  );
}

export class AuthClient {
  private readonly http: Got;

  constructor(baseUrl: string, http?: Got) {
    this.http = http ?? createHttp({ baseUrl });
  }

  /** Validates with the shared login schema (the spec's messages), then signs in for a bearer token. */
  async login(email: string, password: string): Promise<TokenSession> {
    const parsed = loginFormSchema.safeParse({ email, password });
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      throw new AuthError(400, 'validation_failed', Object.values(fields)[0] ?? 'Invalid sign-in.', fields);
    }
    const res = await this.http.post('api/auth/login', { json: { ...parsed.data, token: true } });
    if (res.statusCode !== 200) throw errorOf(res.statusCode, res.body);
    const body = JSON.parse(res.body) as { token?: string; user: SessionUser; expiresAt: string };
    if (!body.token) throw new AuthError(500, 'no_token', 'The server did not issue a token.');
    return { token: body.token, user: body.user, expiresAt: body.expiresAt };
  }

  /** The session the token names, or null when it has ended. */
  async session(token: string): Promise<{ user: SessionUser; expiresAt: string } | null> {
    const res = await this.http.get('api/session', { headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode !== 200) throw errorOf(res.statusCode, res.body);
    const body = JSON.parse(res.body) as { user: SessionUser | null; expiresAt?: string };
    return body.user ? { user: body.user, expiresAt: body.expiresAt ?? '' } : null;
  }

  /** Ends the session on the server (204); an already-ended session is not an error. */
  async logout(token: string): Promise<void> {
    const res = await this.http.post('api/auth/logout', { headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode >= 400 && res.statusCode !== 401) throw errorOf(res.statusCode, res.body);
  }
}

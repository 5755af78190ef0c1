/**
 * Test helper: stands in for the API at the network boundary (global fetch) in component tests, so a
 * component's real code (forms, lib/api.ts, lib/session.tsx) runs unchanged. Browser tests against the
 * real server are Playwright's (test/e2e).
 */
import type { StaffRole } from '@avp/shared';
import { vi } from 'vitest';

export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
}

export type FakeAnswer = { status: number; body?: unknown } | undefined;
/** An answer, or a promise of one to answer later (to put answers out of order). */
export type FakeRoute = (call: FakeCall) => FakeAnswer | Promise<FakeAnswer>;

/** Installs a fetch that answers from `route` (404 when it returns undefined) and records every call. */
export function fakeApi(route: FakeRoute): { calls: FakeCall[]; restore(): void } {
  const calls: FakeCall[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call = { method, path, body };
    calls.push(call);
    const answer = (await route(call)) ?? {
      status: 404,
      body: { error: { code: 'not_found', message: 'no route' } },
    };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return { calls, restore: () => vi.unstubAllGlobals() };
}

export const SIGNED_OUT = { status: 200, body: { user: null, expired: false } };

/**
 * A signed-in session as the server would report it: signed in now, `maxSeconds` long, the seconds left
 * counted at each answer, and signed out (expired) once they have run out.
 */
export function fakeSession(
  user: {
    id?: number;
    email?: string;
    firstName?: string;
    lastName?: string;
    role?: 'client' | 'staff';
    staffRoles?: StaffRole[];
  } = {},
  maxSeconds = 86_400,
): () => FakeAnswer {
  const loginAt = Date.now();
  const expiresAt = loginAt + maxSeconds * 1000;
  return () => {
    const left = Math.floor((expiresAt - Date.now()) / 1000);
    if (left <= 0) return { status: 200, body: { user: null, expired: true } };
    return {
      status: 200,
      body: {
        user: {
          id: 1,
          email: 'ada@example.com',
          firstName: 'Ada',
          lastName: 'Lovelace',
          role: 'client',
          // Staff without roles given are owners, as every staff account became with #33's migration.
          ...(user.role === 'staff' ? { staffRoles: ['owner'] } : {}),
          ...user,
        },
        loginAt: new Date(loginAt).toISOString(),
        expiresAt: new Date(expiresAt).toISOString(),
        expiresInSeconds: left,
      },
    };
  };
}

/** The answer of a sign-in or registration that has just happened. */
export function signedInAnswer(
  user: {
    id?: number;
    email?: string;
    firstName?: string;
    lastName?: string;
    role?: 'client' | 'staff';
    staffRoles?: StaffRole[];
  } = {},
  maxSeconds = 86_400,
): FakeAnswer {
  return fakeSession(user, maxSeconds)();
}

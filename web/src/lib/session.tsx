/**
 * Who is signed in, for every page (SPEC §4 'Authentication', DESIGN deviation 1). The session itself is
 * an httpOnly cookie the page cannot read; this provider asks GET /api/session and keeps the answer.
 *
 * Two checks, as the spec describes them:
 * - everywhere (the marketing wrapper): on mount, then every 10 s the seconds since sign-in are compared
 *   with the maximum (shared `isSessionExpired`); on expiry the user is signed out quietly;
 * - on the client portal (`usePortalSessionCheck`, mounted by its pages): every 30 s the server is asked;
 *   on expiry the session is destroyed and the user is sent to /client with the spec's message
 *   ('The session has expired, please relogin and try again.'). While a portal page is mounted, its
 *   handling replaces the quiet one, whichever check notices first.
 */
import {
  isSessionExpired,
  MARKETING_SESSION_CHECK_MS,
  PORTAL_SESSION_CHECK_MS,
  SESSION_EXPIRED,
} from '@avp/shared';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { SessionUser, UserRole } from '@avp/shared';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { apiRequest } from './api';

export type { SessionUser };
export type Role = UserRole;

/** What sign-in, registration and GET /api/session answer when signed in. */
export interface SignedInBody {
  user: SessionUser;
  loginAt: string;
  expiresAt: string;
  expiresInSeconds?: number;
  /** A staff member the owner's rule requires a second factor of, who has none yet (#33). */
  secondFactorSetupRequired?: boolean;
}

type SessionAnswer = SignedInBody | { user: null; expired: boolean };

export type SessionStatus = 'loading' | 'signedIn' | 'signedOut';

export interface SessionValue {
  status: SessionStatus;
  user: SessionUser | null;
  /** When the user signed in (server time). */
  loginAt: Date | null;
  /** When the session ends, on this computer's clock. */
  expiresAt: Date | null;
  /** Whether this staff session must set up a passkey or a second factor before the staff pages (#33). */
  secondFactorSetupRequired: boolean;
  /** Asks the server who is signed in; resolves with the user, or null when signed out. */
  refresh(): Promise<SessionUser | null>;
  /** Signs out on the server (the row is deleted, the cookie cleared) and here. */
  signOut(): Promise<void>;
  /** Takes the answer of a successful sign-in or registration. */
  signedIn(body: SignedInBody): void;
  /** A message for the sign-in form after an expiry (SPEC §8), until cleared. */
  notice: string | null;
  showNotice(message: string): void;
  clearNotice(): void;
  /** Used by usePortalSessionCheck: what to do on expiry instead of signing out quietly. */
  onExpiry(handler: () => void): () => void;
}

interface Known {
  user: SessionUser;
  loginAt: Date;
  /** Sign-in time and length, on the local clock, for isSessionExpired. */
  localLoginMs: number;
  maxSeconds: number;
  setupRequired: boolean;
}

function known(body: SignedInBody): Known {
  const loginAt = new Date(body.loginAt);
  const maxSeconds = Math.round((Date.parse(body.expiresAt) - loginAt.getTime()) / 1000);
  // Measured from the server's own count, so a computer whose clock is off still ends on time.
  const remaining = body.expiresInSeconds ?? maxSeconds;
  const localExpires = Date.now() + remaining * 1000;
  return {
    user: body.user,
    loginAt,
    localLoginMs: localExpires - maxSeconds * 1000,
    maxSeconds,
    setupRequired: body.secondFactorSetupRequired === true,
  };
}

function askServer(): Promise<SessionAnswer | null> {
  return apiRequest<SessionAnswer>('GET', '/api/session').catch(() => null);
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({
  children,
  checkEveryMs = MARKETING_SESSION_CHECK_MS,
}: {
  children: ReactNode;
  /** The local expiry check's period (SPEC §9: 10 000 ms). */
  checkEveryMs?: number;
}) {
  const [status, setStatus] = useState<SessionStatus>('loading');
  const [session, setSession] = useState<Known | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const current = useRef<Known | null>(null);
  const handlers = useRef<(() => void)[]>([]);

  const apply = useCallback((next: Known | null) => {
    current.current = next;
    setSession(next);
    setStatus(next ? 'signedIn' : 'signedOut');
  }, []);

  const signOut = useCallback(async () => {
    apply(null);
    try {
      await apiRequest('POST', '/api/auth/logout');
    } catch {
      // Already signed out here; the server ends the session at its maximum anyway.
    }
  }, [apply]);

  const expired = useCallback(() => {
    const handler = handlers.current.at(-1);
    if (handler) handler();
    else void signOut();
  }, [signOut]);

  /** Takes the server's answer (null: the server could not be asked). */
  const settle = useCallback(
    (answer: SessionAnswer | null): SessionUser | null => {
      if (answer === null) {
        // Offline or the server is restarting: keep what we know and ask again at the next check.
        if (current.current === null) setStatus('signedOut');
        return current.current?.user ?? null;
      }
      if (answer.user === null) {
        if (current.current !== null) expired();
        else apply(null);
        return null;
      }
      apply(known(answer));
      return answer.user;
    },
    [apply, expired],
  );

  const refresh = useCallback(() => askServer().then(settle), [settle]);

  const signedIn = useCallback(
    (body: SignedInBody) => {
      setNotice(null);
      apply(known(body));
    },
    [apply],
  );

  const showNotice = useCallback((message: string) => setNotice(message), []);
  const clearNotice = useCallback(() => setNotice(null), []);

  const onExpiry = useCallback((handler: () => void) => {
    handlers.current.push(handler);
    return () => {
      handlers.current = handlers.current.filter((h) => h !== handler);
    };
  }, []);

  // The marketing wrapper's check: on mount (from the server), then every checkEveryMs (locally).
  useEffect(() => {
    void askServer().then(settle);
    const timer = setInterval(() => {
      const now = current.current;
      if (now && isSessionExpired(now.localLoginMs, Date.now(), now.maxSeconds)) expired();
    }, checkEveryMs);
    return () => clearInterval(timer);
  }, [settle, expired, checkEveryMs]);

  const value = useMemo<SessionValue>(
    () => ({
      status,
      user: session?.user ?? null,
      loginAt: session?.loginAt ?? null,
      expiresAt: session ? new Date(session.localLoginMs + session.maxSeconds * 1000) : null,
      secondFactorSetupRequired: session?.setupRequired ?? false,
      refresh,
      signOut,
      signedIn,
      notice,
      showNotice,
      clearNotice,
      onExpiry,
    }),
    [status, session, refresh, signOut, signedIn, notice, showNotice, clearNotice, onExpiry],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (value === null) throw new Error('useSession() needs a <SessionProvider> above it.');
  return value;
}

/**
 * The client portal's check (SPEC §4): asks the server every 30 s; on expiry the session is destroyed
 * and the user is sent to /client with 'The session has expired, please relogin and try again.'.
 */
export function usePortalSessionCheck(everyMs: number = PORTAL_SESSION_CHECK_MS): void {
  const { onExpiry, refresh, signOut, showNotice, status } = useSession();
  const navigate = useNavigate();

  useEffect(
    () =>
      onExpiry(() => {
        void signOut();
        showNotice(SESSION_EXPIRED);
        void navigate('/client');
      }),
    [onExpiry, signOut, showNotice, navigate],
  );

  useEffect(() => {
    if (status !== 'signedIn') return undefined;
    const timer = setInterval(() => void refresh(), everyMs);
    return () => clearInterval(timer);
  }, [status, refresh, everyMs]);
}

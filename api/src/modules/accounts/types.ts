import type { SessionUser } from '@avp/shared';

/** Who is signed in: what `loadSession` puts on `req.user`. */
export type { SessionUser };

/** The session row behind `req.user`. */
export interface AuthSession {
  /** sessions.id: the sha-256 (hex) of the token the browser or the desktop app holds. */
  id: string;
  userId: number;
  /** When the user signed in; the session ends SESSION_MAX_SECONDS later whatever happens. */
  createdAt: Date;
  expiresAt: Date;
  /** How the request named the session: the httpOnly cookie or `Authorization: Bearer`. */
  via: 'cookie' | 'bearer';
  /** When the holder last proved who they are (password, passkey, second factor): the fresh sign-in rule. */
  provenAt: Date;
  /** Staff who must set up a passkey or a second factor before any staff route (#33). */
  factorSetupRequired: boolean;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by loadSession when the request carries a live session. */
    user?: SessionUser;
    /** Set by loadSession together with `user`. */
    authSession?: AuthSession;
    /**
     * Set by loadSession when the request named a session that has expired or no longer exists (signed
     * out elsewhere, ended by a password reset). The row is deleted and the cookie cleared.
     */
    sessionEnded?: boolean;
  }
}

import { createHash, randomBytes } from 'node:crypto';
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { Op, QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { UserInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { AuthSession, SessionUser } from './types.js';

/**
 * Sessions (SPEC §4 'Authentication', DESIGN deviation 1): a random token held by the browser in an
 * httpOnly SameSite=Lax cookie, or by the desktop app as a bearer token, naming a row of the sessions
 * table by its sha-256. Rows live in the database so that every API process knows every session.
 * A session ends SESSION_MAX_SECONDS after sign-in (absolute; activity does not extend it), at sign-out,
 * and when the account's password is reset.
 */

export type SessionConfig = Pick<Config, 'PUBLIC_URL' | 'SESSION_MAX_SECONDS'>;

export const NOT_SIGNED_IN = 'You are not signed in, or your session has expired.';
export const NOT_AUTHORISED = 'You are not authorised to use this page.';
/** #33: the owner's rule "Staff must use a passkey or a second factor", for a member without one. */
export const SECOND_FACTOR_SETUP_REQUIRED =
  'Set up a passkey or two-step sign-in before using the staff pages.';

// How stale last_seen_at may get before a request refreshes it: one write per user per minute at most.
const LAST_SEEN_RESOLUTION_MS = 60_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function isHttps(config: Pick<Config, 'PUBLIC_URL'>): boolean {
  return config.PUBLIC_URL.startsWith('https:');
}

/** Over HTTPS the `__Host-` prefix makes browsers insist on Secure, Path=/ and no Domain. */
export function sessionCookieName(config: Pick<Config, 'PUBLIC_URL'>): string {
  return isHttps(config) ? '__Host-avp_session' : 'avp_session';
}

function cookieOptions(config: SessionConfig): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: isHttps(config), path: '/' };
}

export function setSessionCookie(res: Response, config: SessionConfig, token: string, expiresAt: Date): void {
  res.cookie(sessionCookieName(config), token, {
    ...cookieOptions(config),
    maxAge: Math.max(0, expiresAt.getTime() - Date.now()),
  });
}

export function clearSessionCookie(res: Response, config: SessionConfig): void {
  res.clearCookie(sessionCookieName(config), cookieOptions(config));
}

function readCookie(req: Request, name: string): string | undefined {
  const header = req.get('cookie');
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The token the request presents: a bearer token wins over (and disables) the cookie. */
export function presentedToken(
  req: Request,
  config: Pick<Config, 'PUBLIC_URL'>,
): { token: string; via: AuthSession['via'] } | undefined {
  const authorization = req.get('authorization');
  if (authorization !== undefined && /^Bearer\s/i.test(authorization)) {
    return { token: authorization.replace(/^Bearer\s+/i, '').trim(), via: 'bearer' };
  }
  const cookie = readCookie(req, sessionCookieName(config));
  return cookie === undefined || cookie === '' ? undefined : { token: cookie, via: 'cookie' };
}

export function toSessionUser(user: UserInstance): SessionUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
  };
}

export interface CreatedSession {
  token: string;
  session: AuthSession;
}

/** A new session row (a new id at every sign-in); the caller sends the token to the browser or app. */
export async function createSession(
  db: Database,
  config: SessionConfig,
  userId: number,
  meta: {
    ip: string | null;
    userAgent: string | null;
    via: AuthSession['via'];
    factorSetupRequired?: boolean | undefined;
  },
  transaction?: Transaction,
): Promise<CreatedSession> {
  const factorSetupRequired = meta.factorSetupRequired === true;
  const token = newToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + config.SESSION_MAX_SECONDS * 1000);
  const row = await db.models.Session.create(
    {
      id: hashToken(token),
      userId,
      createdAt: now,
      expiresAt,
      lastSeenAt: now,
      ip: meta.ip?.slice(0, 64) ?? null,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
      provenAt: now,
      factorSetupRequired,
    },
    { transaction },
  );
  return {
    token,
    session: {
      id: row.id,
      userId,
      createdAt: now,
      expiresAt,
      via: meta.via,
      provenAt: now,
      factorSetupRequired,
    },
  };
}

/** Ends the sessions of a user, all of them or all but one. Returns how many ended. */
export async function endSessionsOfUser(
  db: Database,
  userId: number,
  options: { except?: string | undefined; transaction?: Transaction } = {},
): Promise<number> {
  return db.models.Session.destroy({
    where: {
      userId,
      ...(options.except === undefined ? {} : { id: { [Op.ne]: options.except } }),
    },
    transaction: options.transaction,
  });
}

interface SessionRow {
  user: SessionUser;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
  provenAt: Date;
  factorSetupRequired: boolean;
}

/**
 * Every signed-in request (each 6 MB part of an upload among them) starts here, so the look-up is one
 * plain SELECT of the columns it needs rather than a model query with an include, whose building and
 * instance hydration cost more than the query itself.
 */
async function findSession(db: Database, id: string): Promise<SessionRow | null> {
  const rows = await db.sequelize.query<Record<string, string | number | Date>>(
    `SELECT s.created_at, s.expires_at, s.last_seen_at, s.proven_at, s.factor_setup_required, u.id, u.email, u.first_name, u.last_name, u.role
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id = $1`,
    { bind: [id], type: QueryTypes.SELECT },
  );
  const row = rows[0];
  if (row === undefined) return null;
  return {
    user: {
      id: Number(row.id),
      email: String(row.email),
      firstName: String(row.first_name),
      lastName: String(row.last_name),
      role: row.role as SessionUser['role'],
    },
    // SQLite hands back its text form, PostgreSQL a Date: both read the same through new Date().
    createdAt: new Date(row.created_at!),
    expiresAt: new Date(row.expires_at!),
    lastSeenAt: new Date(row.last_seen_at!),
    provenAt: new Date(row.proven_at ?? row.created_at!),
    // SQLite answers 0 or 1, PostgreSQL a boolean.
    factorSetupRequired:
      String(row.factor_setup_required) === 'true' || Number(row.factor_setup_required) === 1,
  };
}

/**
 * Mounted early on /api: finds the session the request names (cookie or bearer token) and sets
 * `req.user` and `req.authSession`. An expired or unknown session is deleted, its cookie cleared, and
 * `req.sessionEnded` set; the request then carries on signed out. Never refuses a request by itself:
 * routes say what they need with requireUser or requireStaff.
 */
export function loadSession(deps: { config: SessionConfig; db: Database }): RequestHandler {
  const { config, db } = deps;
  return async (req, res, next) => {
    const presented = presentedToken(req, config);
    if (presented === undefined) {
      next();
      return;
    }
    const ended = () => {
      req.sessionEnded = true;
      if (presented.via === 'cookie') clearSessionCookie(res, config);
    };
    if (!TOKEN.test(presented.token)) {
      ended();
      next();
      return;
    }
    const id = hashToken(presented.token);
    const row = await findSession(db, id);
    const now = Date.now();
    if (row === null || row.expiresAt.getTime() <= now) {
      if (row !== null) await db.models.Session.destroy({ where: { id } });
      ended();
      next();
      return;
    }
    if (now - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
      await db.models.Session.update({ lastSeenAt: new Date(now) }, { where: { id } });
    }
    req.user = row.user;
    req.authSession = {
      id,
      userId: row.user.id,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      via: presented.via,
      provenAt: row.provenAt,
      factorSetupRequired: row.factorSetupRequired,
    };
    next();
  };
}

/** 401 unless signed in. */
export const requireUser: RequestHandler = (req, _res, next) => {
  if (req.user === undefined) {
    next(new AppError(401, 'unauthenticated', NOT_SIGNED_IN));
    return;
  }
  next();
};

/** 401 when signed out, 403 for a client account. */
export const requireStaff: RequestHandler = (req, _res, next) => {
  if (req.user === undefined) {
    next(new AppError(401, 'unauthenticated', NOT_SIGNED_IN));
    return;
  }
  if (req.user.role !== 'staff') {
    next(new AppError(403, 'forbidden', NOT_AUTHORISED));
    return;
  }
  if (req.authSession?.factorSetupRequired === true) {
    next(new AppError(403, 'second_factor_setup_required', SECOND_FACTOR_SETUP_REQUIRED));
    return;
  }
  next();
};

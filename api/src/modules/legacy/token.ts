import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';

/**
 * The session token of SPEC §3 'Session token': three dotted parts whose middle one decodes to the user's
 * info. It is a JWT (HS256) in shape so that the original pages, which decode the middle part, can read it:
 *
 *   base64url({"alg":"HS256","typ":"JWT"}) . base64url(payload) . base64url(HMAC-SHA256(key, first two))
 *
 * The payload carries the user's info for the page and `sid`, the random token of a row of the sessions
 * table (the same kind of row a cookie or the desktop's bearer token names). The row is the credential: a
 * token is good exactly while its row lives, so sign-out (the row deleted), the 24 h maximum (the row's
 * expiry), a password reset (the rows of the account deleted) all end it. The signature, under a key
 * derived from SESSION_SECRET, makes the user's info tamper-proof; `sid` alone is 256 random bits that
 * nobody can guess.
 */

export interface LegacyTokenPayload {
  userid: number;
  email: string;
  firstname: string;
  lastname: string;
  /** Seconds since the epoch: sign-in and the session's end. */
  iat: number;
  exp: number;
  /** The session's random token (what a cookie would hold). */
  sid: string;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const SALT = 'avp-legacy-session-token';
const INFO = 'hs256-key';
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const DOTTED = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const keys = new Map<string, Buffer>();

function keyFor(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, SALT, INFO, 32));
    keys.set(secret, key);
  }
  return key;
}

function sign(signingInput: string, secret: string): Buffer {
  return createHmac('sha256', keyFor(secret)).update(signingInput).digest();
}

/** Whether a presented credential has the dotted shape (anything else is left to the session rules). */
export function isDottedToken(value: string): boolean {
  return DOTTED.test(value);
}

export function issueLegacyToken(
  config: Pick<Config, 'SESSION_SECRET'>,
  user: { id: number; email: string; firstName: string; lastName: string },
  session: { token: string; createdAt: Date; expiresAt: Date },
): string {
  const payload: LegacyTokenPayload = {
    userid: user.id,
    email: user.email,
    firstname: user.firstName,
    lastname: user.lastName,
    iat: Math.floor(session.createdAt.getTime() / 1000),
    exp: Math.floor(session.expiresAt.getTime() / 1000),
    sid: session.token,
  };
  const signingInput = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${signingInput}.${sign(signingInput, config.SESSION_SECRET).toString('base64url')}`;
}

/**
 * The session token inside a dotted token whose signature is ours, else undefined. Whether that session
 * is still alive is the session rules' business (loadSession), not this function's.
 */
export function sessionTokenOf(config: Pick<Config, 'SESSION_SECRET'>, token: string): string | undefined {
  if (!isDottedToken(token)) return undefined;
  const [header, body, signature] = token.split('.') as [string, string, string];
  if (header !== HEADER) return undefined;
  const expected = sign(`${header}.${body}`, config.SESSION_SECRET);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let payload: Partial<LegacyTokenPayload>;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<LegacyTokenPayload>;
  } catch {
    return undefined;
  }
  return typeof payload.sid === 'string' && SESSION_TOKEN.test(payload.sid) ? payload.sid : undefined;
}

import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { Config } from '../../config.js';

/**
 * The session token of SPEC §3 'Session token': three dotted parts whose middle one decodes to the user's
 * info. It is a JWT (HS256) in shape so that the original pages, which decode the middle part, can read it:
 *
 *   base64url({"alg":"HS256","typ":"JWT"}) . base64url(payload) . base64url(HMAC-SHA256(key, first two))
 *
 * The payload carries the user's info for the page and `ref`, an opaque reference to a row of the sessions
 * table (the same kind of row a cookie or the desktop's bearer token names): that row's random token
 * sealed with AES-256-GCM under a key derived from SESSION_SECRET. The middle part is readable by anyone
 * holding the token (the original pages decode it), so it must not carry the session token itself, which
 * would work as a cookie or bearer on the whole API. The row is the credential: a token is good exactly
 * while its row lives, so sign-out (the row deleted), the 24 h maximum (the row's expiry), a password
 * reset (the rows of the account deleted) all end it. The signature, under another key derived from
 * SESSION_SECRET, makes the user's info tamper-proof and binds it to that row. Tokens issued before `ref`
 * (with the session token in `sid`) name no session any more: their holders sign in again.
 */

export interface LegacyTokenPayload {
  userid: number;
  email: string;
  firstname: string;
  lastname: string;
  /** Seconds since the epoch: sign-in and the session's end. */
  iat: number;
  exp: number;
  /** The session's random token, sealed (sealSessionToken): useless as a cookie or bearer. */
  ref: string;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const SALT = 'avp-legacy-session-token';
const INFO = 'hs256-key';
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const DOTTED = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const REF_INFO = 'session-ref-key';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keys = new Map<string, Buffer>();

function keyFor(secret: string, info: string): Buffer {
  let key = keys.get(`${info}\0${secret}`);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, SALT, info, 32));
    keys.set(`${info}\0${secret}`, key);
  }
  return key;
}

function sign(signingInput: string, secret: string): Buffer {
  return createHmac('sha256', keyFor(secret, INFO)).update(signingInput).digest();
}

/** The session token, sealed for the payload: iv ‖ ciphertext ‖ tag, base64url. */
function sealSessionToken(token: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, REF_INFO), iv);
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

function openSessionRef(ref: string, secret: string): string | undefined {
  const bytes = Buffer.from(ref, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, REF_INFO), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const token = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
    return SESSION_TOKEN.test(token) ? token : undefined;
  } catch {
    return undefined;
  }
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
    ref: sealSessionToken(session.token, config.SESSION_SECRET),
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
  return typeof payload.ref === 'string' ? openSessionRef(payload.ref, config.SESSION_SECRET) : undefined;
}

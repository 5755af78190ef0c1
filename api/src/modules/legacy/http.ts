import type { Request, RequestHandler, Response } from 'express';
import type { Config } from '../../config.js';
import type { ErrorBody } from '../../http/errors.js';
import { isDottedToken, sessionTokenOf } from './token.js';

/**
 * What every legacy call shares: the paths, the shape of their errors, and how their token reaches the
 * session rules. app.ts mounts these around the API's own middleware (see there for the order).
 */

/** The spec's calls this module answers (SPEC §7), below /api. */
export const LEGACY_PATHS = [
  '/login.php',
  '/logout.php',
  '/updateUser.php',
  '/forgotPassword.php',
  '/check.php',
  '/status.php',
  '/log.php',
  '/submitForm.php',
  '/getStoreData.php',
  '/getAllStores.php',
  '/updateStore.php',
  '/deleteStore.php',
  '/stripeIntent.php',
  '/sendOrderConfirmationEmail.php',
  '/charge.php',
];

/** The upload call carries a 6,291,456-byte chunk as base64 (8,388,608 characters) plus its fields. */
export const LEGACY_UPLOAD_PATH = '/submitForm.php';
export const LEGACY_UPLOAD_BODY_LIMIT = '9mb';

/** Fields a route adds to its error answers, e.g. `isAuthenticated: false` (SPEC §7 'response error, …'). */
export function legacyErrorFields(fields: Record<string, unknown>): RequestHandler {
  return (_req, res, next) => {
    res.locals.legacyErrorFields = fields;
    next();
  };
}

export function setLegacyErrorFields(res: Response, fields: Record<string, unknown>): void {
  res.locals.legacyErrorFields = fields;
}

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as { error?: unknown } | null)?.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/**
 * The original pages read `error` as a text to show ('Forgot password shows the server's error text',
 * SPEC §8), so a legacy call's error answers `{ error: text, code, fields? }` with the route's extra fields
 * (`success: false`, `isAuthenticated: false`) instead of the API's `{ error: { code, message } }`. The
 * text is the first field's message when there is one: that is the spec's wording for the mistake. Every
 * error of these paths passes through res.json (the error handler, rate limits, the same-origin refusal),
 * so this one wrapper covers them all; statuses are unchanged.
 */
export const legacyAnswers: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    if (!isErrorBody(body)) return json(body);
    const { code, message, fields } = body.error;
    const first = fields ? Object.values(fields)[0] : undefined;
    const extra = (res.locals.legacyErrorFields ?? {}) as Record<string, unknown>;
    return json({ ...extra, error: first ?? message, code, ...(fields ? { fields } : {}) });
  };
  next();
};

const BEARER = /^Bearer\s+/i;
// Not a session token's shape: loadSession then treats the request as one whose session has ended.
const REFUSED = 'Bearer -';

function bodyToken(req: Request): string | undefined {
  const token = (req.body as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' && token.trim() !== '' ? token.trim() : undefined;
}

/**
 * Hands a legacy call's credential to the session rules (accounts' loadSession, mounted next): the dotted
 * token of SPEC §3, from `Authorization: Bearer` or, as the original pages send it, the body's `token`
 * field, is checked against its signature and replaced by the session token it carries. loadSession then
 * decides as for any bearer token: the same session row, the same maximum, the same sign-out. A token with
 * a bad signature names no session. A header wins over a body token, as a bearer header wins over a cookie.
 */
export function legacyCredentials(config: Pick<Config, 'SESSION_SECRET'>): RequestHandler {
  return (req, _res, next) => {
    const header = req.get('authorization');
    const fromHeader =
      header !== undefined && BEARER.test(header) ? header.replace(BEARER, '').trim() : undefined;
    const presented = fromHeader ?? bodyToken(req);
    if (presented === undefined || (fromHeader !== undefined && !isDottedToken(fromHeader))) {
      next();
      return;
    }
    const sessionToken = isDottedToken(presented) ? sessionTokenOf(config, presented) : presented;
    req.headers.authorization = sessionToken === undefined ? REFUSED : `Bearer ${sessionToken}`;
    next();
  };
}

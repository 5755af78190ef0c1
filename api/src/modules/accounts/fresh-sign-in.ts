import type { Request, RequestHandler } from 'express';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';
import type { AuthSession } from './types.js';

/**
 * Fresh sign-in (#33, ASVS 5.0 §6/§7: re-authentication before sensitive actions): staff management,
 * changes to one's own factors and refunds above REFUND_FRESH_SIGN_IN_ABOVE need the session's holder to
 * have proved who they are (password, passkey or second factor) within FRESH_SIGN_IN_MINUTES;
 * POST /api/accounts/reauthenticate renews it.
 */

export const FRESH_SIGN_IN_REQUIRED = 'Please sign in again to continue.';

export type FreshSignInConfig = Pick<Config, 'FRESH_SIGN_IN_MINUTES'>;

export function isFresh(session: Pick<AuthSession, 'provenAt'>, config: FreshSignInConfig, now = Date.now()) {
  return now - session.provenAt.getTime() <= config.FRESH_SIGN_IN_MINUTES * 60_000;
}

export function freshSignInError(): AppError {
  return new AppError(403, 'fresh_sign_in_required', FRESH_SIGN_IN_REQUIRED);
}

/** Throws 403 fresh_sign_in_required unless the request's session was proved recently enough. */
export function assertFreshSignIn(req: Request, config: FreshSignInConfig): void {
  if (req.authSession === undefined || !isFresh(req.authSession, config)) throw freshSignInError();
}

/** The middleware form; after requireUser or requireStaff. */
export function requireFreshSignIn(config: FreshSignInConfig): RequestHandler {
  return (req, _res, next) => {
    if (req.authSession === undefined || !isFresh(req.authSession, config)) {
      next(freshSignInError());
      return;
    }
    next();
  };
}

/** For a refund of `amountCents`: a fresh sign-in is needed above REFUND_FRESH_SIGN_IN_ABOVE. */
export function assertFreshSignInForRefund(
  req: Request,
  config: FreshSignInConfig & Pick<Config, 'REFUND_FRESH_SIGN_IN_ABOVE'>,
  amountCents: number,
): void {
  if (amountCents > config.REFUND_FRESH_SIGN_IN_ABOVE) assertFreshSignIn(req, config);
}

/** The holder proved who they are just now. */
export async function markProven(db: Database, sessionId: string, at = new Date()): Promise<void> {
  await db.models.Session.update({ provenAt: at }, { where: { id: sessionId } });
}

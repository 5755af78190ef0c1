import type { Request, Response } from 'express';
import { rateLimitStoreOf, refuseRateLimited, storedKey } from '../../http/rate-limit.js';

/**
 * Failed sign-ins, counted so that guessing is slow without handing an attacker the power to lock the owner
 * out (counted in the database, like every rate limit):
 *
 * - per account and address: after `perPair.max` wrong passwords from one address, that address may not
 *   try that account again until the window ends;
 * - per account, from everywhere: past `perAccount.max` wrong passwords the account is under attack, and
 *   an address that has already failed `perAccount.perPairMax` times for it is refused too, so an attacker
 *   spread over many addresses gets a few guesses per address instead of ten.
 *
 * An address that has not failed for the account is never refused by either, so the owner, from their own
 * address, signs in with the right password however many wrong ones arrive from elsewhere. (The per-address
 * limit of every sign-in, whatever the account, is the route's own.) Only wrong passwords count: an attempt
 * is counted before the password is checked, so that simultaneous guesses cannot slip past the limit, and
 * taken back when it was not a wrong password; a success also forgets that address's failures.
 */
export interface LoginFailureLimits {
  perPair: { windowSeconds: number; max: number };
  perAccount: { windowSeconds: number; max: number; perPairMax: number };
}

export interface LoginAttempt {
  /** The password was right: the attempt does not count, and this address's failures are forgotten. */
  succeeded(): Promise<void>;
  /** Not a password guess after all (a malformed request): the attempt does not count. */
  notAGuess(): Promise<void>;
}

const UNCOUNTED: LoginAttempt = { succeeded: async () => undefined, notAGuess: async () => undefined };

/**
 * Counts a sign-in attempt on `email` from `ip` before its password is checked. When the attempt is
 * refused, answers 429 and returns undefined.
 */
export async function admitLoginAttempt(
  req: Request,
  res: Response,
  who: { email: string | undefined; ip: string },
  limits: LoginFailureLimits,
  message: string,
): Promise<LoginAttempt | undefined> {
  if (who.email === undefined) return UNCOUNTED;
  const store = rateLimitStoreOf(req);
  const now = new Date();
  const pairKey = storedKey('login-pair', JSON.stringify([who.email, who.ip]));
  const accountKey = storedKey('login-account', who.email);

  // Both counted at once: each write waits for its turn behind upload bookkeeping (bench:mixed), and one
  // after the other that was two waits in every sign-in. A refused attempt takes back both counts.
  const [pair, account] = await Promise.all([
    store.hit(pairKey, limits.perPair.windowSeconds, now),
    store.hit(accountKey, limits.perAccount.windowSeconds, now),
  ]);
  if (pair.count > limits.perPair.max) {
    await Promise.all([store.undo(pairKey, now), store.undo(accountKey, now)]);
    refuseRateLimited(req, res, { name: 'login-pair', message, ...limits.perPair, ...pair, now });
    return undefined;
  }
  if (account.count > limits.perAccount.max && pair.count > limits.perAccount.perPairMax) {
    await Promise.all([store.undo(pairKey, now), store.undo(accountKey, now)]);
    const { resetAt } = account.resetAt < pair.resetAt ? account : pair;
    refuseRateLimited(req, res, {
      name: 'login-account',
      message,
      count: account.count,
      max: limits.perAccount.max,
      resetAt,
      now,
    });
    return undefined;
  }
  return {
    succeeded: () => Promise.all([store.clear(pairKey), store.undo(accountKey, now)]).then(() => undefined),
    notAGuess: () =>
      Promise.all([store.undo(pairKey, now), store.undo(accountKey, now)]).then(() => undefined),
  };
}

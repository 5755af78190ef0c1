import { forgotPasswordSchema } from '@avp/shared';
import { normaliseEmail } from '../../db/models/index.js';
import type { UserInstance } from '../../db/models/index.js';
import express from 'express';
import type { Request, RequestHandler, Response, Router } from 'express';
import { afterAnswerWork } from '../../http/after-answer.js';
import { AppError } from '../../http/errors.js';
import { clientIp, rateLimit } from '../../http/rate-limit.js';
import { admitLoginAttempt } from './login-attempts.js';
import { secondFactorState } from './second-factor.js';
import { handledSecondFactor, secondFactorRoutes } from './second-factor-routes.js';
import {
  dummyPasswordHash,
  FORGOT_PASSWORD_SENT,
  INVALID_CREDENTIALS,
  login,
  logout,
  PASSWORD_RESET_DONE,
  register,
  requestPasswordReset,
  resetPassword,
  updateAccount,
} from './service.js';
import type { AccountsDeps, RequestMeta, SignedIn } from './service.js';
import { clearSessionCookie, requireUser, setSessionCookie, toSessionUser } from './sessions.js';

/** Rate limits of the account routes (DESIGN 'Running on more than one machine': counted in the database). */
export const ACCOUNT_LIMITS = {
  loginPerIp: { windowSeconds: 15 * 60, max: 50 },
  /** Wrong passwords, not attempts (login-attempts.ts). */
  loginFailures: {
    perPair: { windowSeconds: 15 * 60, max: 10 },
    perAccount: { windowSeconds: 15 * 60, max: 100, perPairMax: 3 },
  },
  registerPerIp: { windowSeconds: 60 * 60, max: 10 },
  forgotPerIp: { windowSeconds: 60 * 60, max: 10 },
  forgotPerAccount: { windowSeconds: 60 * 60, max: 5 },
  resetPerIp: { windowSeconds: 60 * 60, max: 30 },
  /** Account updates, which may carry a guess of the current password. */
  updatePerAccount: { windowSeconds: 15 * 60, max: 20 },
} as const;

export const TOO_MANY_SIGN_INS = 'Too many sign-in attempts. Please wait 15 minutes and try again.';
export const TOO_MANY_REGISTRATIONS =
  'Too many accounts were created from this address. Please try again later.';
export const TOO_MANY_RESETS = 'Too many password reset requests. Please wait an hour and try again.';
export const TOO_MANY_UPDATES = 'Too many changes to this account. Please wait 15 minutes and try again.';

/** Where a request came from, as the service records it. */
export function requestMeta(req: Request): RequestMeta {
  return { ip: clientIp(req), userAgent: req.get('user-agent') ?? null, session: req.authSession };
}

/** The body's e-mail, normalised as stored, for limits counted per account. */
function bodyEmail(req: Request): string | undefined {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() !== '' ? normaliseEmail(email) : undefined;
}

/** SPEC §3 'Client user' (without the password, which never travels back). */
export function accountBody(user: UserInstance) {
  return {
    userid: user.id,
    email: user.email,
    firstname: user.firstName,
    lastname: user.lastName,
    company: user.company ?? '',
    phone: user.phone ?? '',
  };
}

/**
 * The rate limits of sign-in, registration, forgot-password and account updates. Every caller of these
 * actions (the JSON routes here, the spec's legacy calls) counts against the same stored counters, since a
 * counter is named by the limit's name and key.
 */
export const accountRateLimits = {
  /** Per address; wrong passwords per account are counted by `signInGuarded`. */
  /** `perWindow`: SIGN_INS_PER_15_MINUTES_PER_ADDRESS (an office or a venue's Wi-Fi shares one address). */
  login: (perWindow: number = ACCOUNT_LIMITS.loginPerIp.max): RequestHandler[] => [
    rateLimit({
      name: 'login-ip',
      ...ACCOUNT_LIMITS.loginPerIp,
      max: perWindow,
      key: clientIp,
      message: TOO_MANY_SIGN_INS,
    }),
  ],
  /** `perHour`: REGISTRATIONS_PER_HOUR_PER_ADDRESS (a venue or office behind one address may need more). */
  register: (perHour: number = ACCOUNT_LIMITS.registerPerIp.max): RequestHandler =>
    rateLimit({
      name: 'register-ip',
      ...ACCOUNT_LIMITS.registerPerIp,
      max: perHour,
      key: clientIp,
      message: TOO_MANY_REGISTRATIONS,
    }),
  forgotPassword: (): RequestHandler[] => [
    rateLimit({ name: 'forgot-ip', ...ACCOUNT_LIMITS.forgotPerIp, key: clientIp, message: TOO_MANY_RESETS }),
    rateLimit({
      name: 'forgot-account',
      ...ACCOUNT_LIMITS.forgotPerAccount,
      key: bodyEmail,
      message: TOO_MANY_RESETS,
    }),
  ],
  update: (): RequestHandler =>
    rateLimit({
      name: 'account-update',
      ...ACCOUNT_LIMITS.updatePerAccount,
      key: (req) => (req.user === undefined ? undefined : String(req.user.id)),
      message: TOO_MANY_UPDATES,
    }),
};

/**
 * Sign-in with wrong passwords counted per account and address (login-attempts.ts). Answers 429 itself and
 * returns undefined when the attempt is refused.
 */
export async function signInGuarded(
  deps: AccountsDeps,
  req: Request,
  res: Response,
  input: unknown,
): Promise<SignedIn | undefined> {
  const who = { email: bodyEmail(req), ip: clientIp(req) };
  const attempt = await admitLoginAttempt(req, res, who, ACCOUNT_LIMITS.loginFailures, TOO_MANY_SIGN_INS);
  if (attempt === undefined) return undefined;
  let result: SignedIn;
  try {
    result = await login(deps, input, requestMeta(req));
  } catch (error) {
    if (!(error instanceof AppError && error.code === INVALID_CREDENTIALS)) await attempt.notAGuess();
    throw error;
  }
  // The answer does not depend on forgetting the address's failures, so it does not wait for those two
  // writes (a third of a sign-in's writes, each queued behind upload bookkeeping: bench:mixed). They are
  // queued before the answer goes out, and until they land the limits are only ever stricter.
  void afterAnswerWork(req.app)
    .run(() => attempt.succeeded())
    .catch((error: unknown) => req.log.error({ err: error }, 'forgetting failed sign-ins failed'));
  return result;
}

/**
 * Checks the request, then lets `answer` reply before the reset work runs: that work writes rows only for
 * an account, so the time the answer takes cannot tell whether the address has one. A failure after the
 * answer is only logged.
 */
export async function requestPasswordResetAfter(
  deps: AccountsDeps,
  req: Request,
  answer: () => void,
): Promise<void> {
  const input = forgotPasswordSchema.parse(req.body);
  answer();
  try {
    await afterAnswerWork(req.app).run(() => requestPasswordReset(deps, input));
    req.log.debug('password reset request handled');
  } catch (error) {
    req.log.error({ err: error }, 'password reset request failed');
  }
}

export function secondsLeft(expiresAt: Date): number {
  return Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
}

function sessionBody(signedIn: SignedIn) {
  const { session } = signedIn.created;
  return {
    user: { ...toSessionUser(signedIn.user), staffRoles: signedIn.staffRoles ?? [] },
    loginAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    expiresInSeconds: secondsLeft(session.expiresAt),
    secondFactorSetupRequired: session.factorSetupRequired,
  };
}

/**
 * The JSON routes of accounts and sessions (docs/api.md 'Accounts and sessions'):
 *   GET  /session                      who is signed in
 *   POST /auth/login                   sign in (cookie, or a bearer token with `token: true`)
 *   POST /auth/logout                  sign out
 *   POST /auth/register                create a client account and sign in
 *   POST /auth/forgot-password         e-mail a reset link
 *   POST /auth/reset-password          set a new password with the link's token
 *   GET  /account, PUT /account        the signed-in account's details
 */
export function accountsRoutes(deps: AccountsDeps): Router {
  const { config } = deps;
  const router = express.Router();
  // Computed now, so that the first sign-in with an unknown address takes no longer than the others.
  void dummyPasswordHash();

  const signedIn = (res: Response, result: SignedIn, status: number) => {
    setSessionCookie(res, config, result.created.token, result.created.session.expiresAt);
    res.status(status).set('Cache-Control', 'no-store').json(sessionBody(result));
  };

  router.get('/session', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    if (req.user === undefined || req.authSession === undefined) {
      res.json({ user: null, expired: req.sessionEnded === true });
      return;
    }
    const { createdAt, expiresAt, factorSetupRequired } = req.authSession;
    res.json({
      user: req.user,
      loginAt: createdAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
      expiresInSeconds: secondsLeft(expiresAt),
      secondFactor: await secondFactorState(deps.db, req.user.id),
      secondFactorSetupRequired: factorSetupRequired,
    });
  });

  router.post(
    '/auth/login',
    ...accountRateLimits.login(config.SIGN_INS_PER_15_MINUTES_PER_ADDRESS),
    async (req, res) => {
      let result: SignedIn | undefined;
      try {
        result = await signInGuarded(deps, req, res, req.body);
      } catch (error) {
        if (handledSecondFactor(res, error)) return;
        throw error;
      }
      if (result === undefined) return;
      if (result.created.session.via === 'bearer') {
        // The desktop uploader: the token in the answer, no cookie.
        res
          .status(200)
          .set('Cache-Control', 'no-store')
          .json({ ...sessionBody(result), token: result.created.token });
        return;
      }
      signedIn(res, result, 200);
    },
  );

  router.post('/auth/logout', async (req, res) => {
    await logout(deps, requestMeta(req));
    if (req.authSession?.via !== 'bearer') clearSessionCookie(res, config);
    res.status(204).end();
  });

  router.post(
    '/auth/register',
    accountRateLimits.register(config.REGISTRATIONS_PER_HOUR_PER_ADDRESS),
    async (req, res) => {
      signedIn(res, await register(deps, req.body, requestMeta(req)), 201);
    },
  );

  router.post('/auth/forgot-password', ...accountRateLimits.forgotPassword(), async (req, res) => {
    await requestPasswordResetAfter(deps, req, () => res.json({ message: FORGOT_PASSWORD_SENT }));
  });

  router.post(
    '/auth/reset-password',
    rateLimit({ name: 'reset-ip', ...ACCOUNT_LIMITS.resetPerIp, key: clientIp, message: TOO_MANY_RESETS }),
    async (req, res) => {
      await resetPassword(deps, req.body, requestMeta(req));
      res.json({ message: PASSWORD_RESET_DONE });
    },
  );

  router.get('/account', requireUser, async (req, res) => {
    const user = await deps.db.models.User.findByPk(req.user?.id);
    res.set('Cache-Control', 'no-store');
    if (user === null) {
      res.status(401).json({ error: { code: 'unauthenticated', message: 'This account no longer exists.' } });
      return;
    }
    res.json(accountBody(user));
  });

  router.put('/account', requireUser, accountRateLimits.update(), async (req, res) => {
    const user = await updateAccount(deps, req.user?.id ?? 0, req.body, requestMeta(req));
    res.set('Cache-Control', 'no-store').json(accountBody(user));
  });

  // Passkeys, two-step sign-in and fresh sign-in (#33).
  router.use(secondFactorRoutes(deps));

  return router;
}

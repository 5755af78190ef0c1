import { SESSION_EXPIRED } from '@avp/shared';
import express from 'express';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';
import type { UserInstance } from '../../db/models/index.js';
import {
  accountBody,
  accountRateLimits,
  clearSessionCookie,
  FORGOT_PASSWORD_SENT,
  logout,
  presentedToken,
  register,
  requestMeta,
  requestPasswordResetAfter,
  secondsLeft,
  signInGuarded,
  updateAccount,
} from '../accounts/index.js';
import type { AccountsDeps } from '../accounts/index.js';
import { decodeFields } from './encoding.js';
import { legacyErrorFields, setLegacyErrorFields } from './http.js';
import { issueLegacyToken } from './token.js';

/**
 * The account calls of SPEC §7 on the accounts service: login, logout, register or update, forgot
 * password, and the session checks. Passwords arrive base64-encoded (DESIGN deviation 2); a sign-in or a
 * registration answers the dotted token of SPEC §3 (token.ts) for a bearer session of its own.
 */

export type LegacyAccountsDeps = AccountsDeps & {
  config: AccountsDeps['config'] & Pick<Config, 'SESSION_SECRET'>;
};

/** SPEC §3 'Client user' without company and phone: what the token's middle part carries too. */
function userInfo(user: { id: number; email: string; firstName: string; lastName: string }) {
  return { userid: user.id, email: user.email, firstname: user.firstName, lastname: user.lastName };
}

function session(expiresAt: Date, createdAt: Date) {
  return {
    loginAt: createdAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
    expiresInSeconds: secondsLeft(expiresAt),
  };
}

function signedIn(
  config: LegacyAccountsDeps['config'],
  user: UserInstance,
  created: { token: string; session: { createdAt: Date; expiresAt: Date } },
) {
  const { createdAt, expiresAt } = created.session;
  return {
    isAuthenticated: true,
    token: issueLegacyToken(config, user, { token: created.token, createdAt, expiresAt }),
    user: userInfo(user),
    ...session(expiresAt, createdAt),
  };
}

/**
 * The original pages send the password once, base64-encoded, having checked the confirmation themselves;
 * a confirmation they do send is checked by the service as usual.
 */
function withPasswords(body: unknown): Record<string, unknown> {
  const decoded = decodeFields(body, ['password', 'confirmPassword']);
  if (decoded.confirmPassword === undefined) decoded.confirmPassword = decoded.password;
  return decoded;
}

function sessionState(req: Request) {
  if (req.user === undefined || req.authSession === undefined) {
    return { isAuthenticated: false, expired: req.sessionEnded === true };
  }
  const { createdAt, expiresAt } = req.authSession;
  return {
    isAuthenticated: true,
    expired: false,
    user: userInfo(req.user),
    ...session(expiresAt, createdAt),
  };
}

function noStore(res: Response): Response {
  return res.set('Cache-Control', 'no-store');
}

export function legacyAccountRoutes(deps: LegacyAccountsDeps): Router {
  const { config } = deps;
  const router = express.Router();
  const registerLimit = accountRateLimits.register(config.REGISTRATIONS_PER_HOUR_PER_ADDRESS);
  const updateLimit = accountRateLimits.update();
  // A registration counts against the registration limit, an update against the account's own.
  const limitRegistrations: RequestHandler = (req, res, next) => {
    if (req.user !== undefined) void updateLimit(req, res, next);
    else void registerLimit(req, res, next);
  };

  router.post(
    '/login.php',
    legacyErrorFields({ isAuthenticated: false }),
    ...accountRateLimits.login(config.SIGN_INS_PER_15_MINUTES_PER_ADDRESS),
    async (req, res) => {
      const body = decodeFields(req.body, ['password']);
      const result = await signInGuarded(deps, req, res, {
        email: body.email,
        password: body.password,
        token: true,
      });
      if (result === undefined) return;
      noStore(res).json(signedIn(config, result.user, result.created));
    },
  );

  router.post('/logout.php', async (req, res) => {
    await logout(deps, requestMeta(req));
    if (req.authSession?.via === 'cookie') clearSessionCookie(res, config);
    noStore(res).json({ success: true, isAuthenticated: false });
  });

  router.post('/updateUser.php', limitRegistrations, async (req, res) => {
    setLegacyErrorFields(res, { isAuthenticated: req.user !== undefined });
    // A page updating an account whose session has ended must not fall through to registering it again.
    if (req.sessionEnded === true) throw new AppError(403, 'session_expired', SESSION_EXPIRED);
    const body = withPasswords(req.body);
    if (req.user === undefined || req.authSession === undefined) {
      const { user, created } = await register(deps, body, requestMeta(req), 'bearer');
      noStore(res)
        .status(201)
        .json({ ...signedIn(config, user, created), account: accountBody(user) });
      return;
    }
    const user = await updateAccount(deps, req.user.id, body, requestMeta(req));
    const { createdAt, expiresAt, via } = req.authSession;
    const presented = presentedToken(req, config);
    // A cookie session gets no token: that would hand its httpOnly secret to scripts.
    const token =
      via === 'bearer' && presented !== undefined
        ? issueLegacyToken(config, user, { token: presented.token, createdAt, expiresAt })
        : undefined;
    noStore(res).json({
      isAuthenticated: true,
      ...(token === undefined ? {} : { token }),
      user: userInfo(user),
      account: accountBody(user),
      ...session(expiresAt, createdAt),
    });
  });

  router.post(
    '/forgotPassword.php',
    legacyErrorFields({ success: false }),
    ...accountRateLimits.forgotPassword(),
    async (req, res) => {
      await requestPasswordResetAfter(deps, req, () =>
        noStore(res).json({ success: true, message: FORGOT_PASSWORD_SENT }),
      );
    },
  );

  // SPEC §7 'Status' (method and answer not shown): the session's state, always 200.
  const status: RequestHandler = (req, res) => {
    noStore(res).json(sessionState(req));
  };
  router.get('/status.php', status);
  router.post('/status.php', status);

  // SPEC §4: the portal's check every 30 s; a failed check ends the page's session ('The session has
  // expired, please relogin and try again.', SPEC §8), so an ended or absent session answers 403.
  router.get('/check.php', (req, res) => {
    const state = sessionState(req);
    if (!state.isAuthenticated) {
      noStore(res)
        .status(403)
        .json({ ...state, error: SESSION_EXPIRED, code: 'session_expired' });
      return;
    }
    noStore(res).json(state);
  });

  return router;
}

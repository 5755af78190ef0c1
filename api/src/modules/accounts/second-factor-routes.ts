import express from 'express';
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import type { UserInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { clientIp, rateLimit, rateLimitStoreOf } from '../../http/rate-limit.js';
import { assertFreshSignIn, isFresh, markProven } from './fresh-sign-in.js';
import {
  authenticateWithPasskey,
  authenticationOptions,
  listPasskeys,
  passkeyNameInput,
  passkeyView,
  registerPasskey,
  registrationOptions,
  relyingParty,
  removePasskey,
  renamePasskey,
} from './passkeys.js';
import { verifyPassword } from './passwords.js';
import { newRecoveryCodes, recoveryCodesLeft, removeRecoveryCodes } from './recovery.js';
import {
  admitFactorCheck,
  checkCode,
  factorSetUp,
  findPendingSignIn,
  pendingSignInExpired,
  secondStepMethods,
  SecondFactorNeeded,
  setStaffFactorRequired,
  spendPendingSignIn,
  staffFactorRequired,
} from './second-factor.js';
import { audit, completeSignIn } from './service.js';
import type { AccountsDeps, RequestMeta, SignedIn } from './service.js';
import { requireStaffRole } from './roles.js';
import { requireStaff, requireUser, setSessionCookie, toSessionUser } from './sessions.js';
import { checkTotp, enrolTotp, hasConfirmedTotp, removeTotp } from './totp.js';

/**
 * The routes of passkeys, two-step sign-in and fresh sign-in (docs/api.md 'Passkeys and two-step
 * sign-in'), mounted by accountsRoutes:
 *
 *   POST   /auth/second-factor                   finish a password sign-in with a code
 *   POST   /auth/second-factor/passkey-options   … or with a passkey: its challenge
 *   POST   /auth/second-factor/passkey           … and the passkey's answer
 *   POST   /auth/passkey-options                 sign in with a passkey (discoverable): the challenge
 *   POST   /auth/passkey                         … and the answer
 *   GET    /account/second-factor                this account's passkeys, app and recovery codes
 *   POST   /account/passkeys/options             add a passkey: the challenge (fresh sign-in)
 *   POST   /account/passkeys                     … and the answer, with its name (fresh sign-in)
 *   PATCH  /account/passkeys/:id                 rename
 *   DELETE /account/passkeys/:id                 remove (fresh sign-in)
 *   POST   /account/totp                         a new secret for an authenticator app (fresh sign-in)
 *   POST   /account/totp/confirm                 the app's first code turns it on; answers the recovery codes
 *   DELETE /account/totp                         turn two-step sign-in off (fresh sign-in)
 *   POST   /account/recovery-codes               a new set of recovery codes (fresh sign-in)
 *   POST   /accounts/reauthenticate/options      a passkey challenge for a fresh sign-in
 *   POST   /accounts/reauthenticate              fresh sign-in: password (+ code) or a passkey's answer
 *   GET    /staff-settings/second-factor         the owner setting "Staff must use a passkey or a second factor"
 *   PUT    /staff-settings/second-factor         change it
 */

export const TOO_MANY_FACTOR_REQUESTS = 'Too many attempts. Please wait 15 minutes and try again.';
export const TOTP_ALREADY_ON = 'Two-step sign-in is already on. Turn it off first to use another app.';
export const TOTP_NOT_STARTED = 'Start setting up two-step sign-in again.';
export const PASSWORD_NOT_ACCEPTED = 'That password is not right.';

/** Per address, like sign-in's: every route here that checks something. */
const perIp = (name: string, max = 50): RequestHandler =>
  rateLimit({ name, windowSeconds: 15 * 60, max, key: clientIp, message: TOO_MANY_FACTOR_REQUESTS });

/**
 * Passkey challenges asked for per address in 15 minutes. Every sign-in form asks for one as it opens (the
 * browser's autofill offers passkeys from the e-mail field), so a venue's exhibitors behind one address
 * spent the 50 attempts of passkey sign-in by opening the page, and the button then failed for all of
 * them. A challenge is a stored row that runs out, so its own limit only bounds that; the sign-ins
 * themselves keep theirs.
 */
export const PASSKEY_CHALLENGES_PER_IP = 1000;

function meta(req: Request): RequestMeta {
  return { ip: clientIp(req), userAgent: req.get('user-agent') ?? null, session: req.authSession };
}

export function sessionAnswer(result: SignedIn) {
  const { session } = result.created;
  return {
    user: { ...toSessionUser(result.user), staffRoles: result.staffRoles ?? [] },
    loginAt: session.createdAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    expiresInSeconds: Math.max(0, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000)),
    secondFactorSetupRequired: session.factorSetupRequired,
  };
}

/** The answer to a right password when a second step is needed (401, no session). */
export function answerSecondFactorNeeded(res: Response, error: SecondFactorNeeded): void {
  const { token, expiresAt, methods } = error.pending;
  res
    .status(401)
    .set('Cache-Control', 'no-store')
    .json({
      error: { code: error.code, message: error.message },
      secondFactor: {
        pendingToken: token,
        expiresInSeconds: Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
        methods,
      },
    });
}

const userId = (req: Request): number => {
  if (req.user === undefined) throw new AppError(401, 'unauthenticated', 'You are not signed in.');
  return req.user.id;
};

const idParam = (req: Request): number => {
  const id = Number(req.params.id);
  if (!Number.isSafeInteger(id) || id < 1)
    throw new AppError(404, 'not_found', 'This passkey no longer exists.');
  return id;
};

export function secondFactorRoutes(deps: AccountsDeps): Router {
  const { db, config } = deps;
  const router = express.Router();
  const secretKey = config.SESSION_SECRET;
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };
  const fresh: RequestHandler = (req, _res, next) => {
    assertFreshSignIn(req, config);
    next();
  };

  const loadUser = async (id: number): Promise<UserInstance> => {
    const user = await db.models.User.findByPk(id);
    if (user === null) throw new AppError(401, 'unauthenticated', 'This account no longer exists.');
    return user;
  };

  const factorAudit = (req: Request, id: number, sentence: string, change: string, extra = {}) =>
    audit(db, 'second_factor_change', id, meta(req), { after: { sentence, change, ...extra } });

  const signedIn = (res: Response, result: SignedIn) => {
    const answer = sessionAnswer(result);
    if (result.created.session.via === 'bearer') {
      res
        .status(200)
        .set('Cache-Control', 'no-store')
        .json({ ...answer, token: result.created.token });
      return;
    }
    setSessionCookie(res, config, result.created.token, result.created.session.expiresAt);
    res.status(200).set('Cache-Control', 'no-store').json(answer);
  };

  // --- The second step of a password sign-in ---------------------------------------------------------

  router.post('/auth/second-factor', perIp('factor-ip'), async (req, res) => {
    const body = (req.body ?? {}) as { pendingToken?: unknown; code?: unknown };
    const pending = await findPendingSignIn(db, body.pendingToken);
    const kind = await checkCode({ db, secretKey, store: rateLimitStoreOf(req) }, pending.userId, body.code);
    if (!(await spendPendingSignIn(db, pending.id))) throw pendingSignInExpired();
    const user = await loadUser(pending.userId);
    if (kind === 'recovery_code') {
      await factorAudit(req, user.id, 'Signed in with a recovery code.', 'recovery_code_used', {
        left: await recoveryCodesLeft(db, user.id),
      });
    }
    signedIn(res, await completeSignIn(deps, user, meta(req), pending.via, kind));
  });

  router.post('/auth/second-factor/passkey-options', perIp('factor-ip'), async (req, res) => {
    const pending = await findPendingSignIn(db, (req.body as { pendingToken?: unknown })?.pendingToken);
    res
      .set('Cache-Control', 'no-store')
      .json(await authenticationOptions(db, config, 'authenticate', pending.userId));
  });

  router.post('/auth/second-factor/passkey', perIp('factor-ip'), async (req, res) => {
    const body = (req.body ?? {}) as { pendingToken?: unknown; credential?: unknown };
    const pending = await findPendingSignIn(db, body.pendingToken);
    const admitted = await admitFactorCheck(rateLimitStoreOf(req), pending.userId);
    await authenticateWithPasskey(db, config, 'authenticate', pending.userId, body.credential);
    await admitted.passed();
    if (!(await spendPendingSignIn(db, pending.id))) throw pendingSignInExpired();
    signedIn(
      res,
      await completeSignIn(deps, await loadUser(pending.userId), meta(req), pending.via, 'passkey'),
    );
  });

  // --- Signing in with a passkey alone ---------------------------------------------------------------

  router.post(
    '/auth/passkey-options',
    perIp('passkey-options-ip', PASSKEY_CHALLENGES_PER_IP),
    async (_req, res) => {
      res
        .set('Cache-Control', 'no-store')
        .json(await authenticationOptions(db, config, 'authenticate', null));
    },
  );

  router.post('/auth/passkey', perIp('passkey-ip'), async (req, res) => {
    const body = (req.body ?? {}) as { credential?: unknown; token?: unknown };
    const id = await authenticateWithPasskey(db, config, 'authenticate', null, body.credential);
    const via = body.token === true ? 'bearer' : 'cookie';
    signedIn(res, await completeSignIn(deps, await loadUser(id), meta(req), via, 'passkey'));
  });

  // --- The account's factors -------------------------------------------------------------------------

  router.get('/account/second-factor', requireUser, noStore, async (req, res) => {
    const id = userId(req);
    const [passkeys, totp, codesLeft, required] = await Promise.all([
      listPasskeys(db, id),
      hasConfirmedTotp(db, id),
      recoveryCodesLeft(db, id),
      staffFactorRequired(db),
    ]);
    res.json({
      passkeys: passkeys.map(passkeyView),
      totp,
      recoveryCodesLeft: totp ? codesLeft : 0,
      staffFactorRequired: req.user?.role === 'staff' && required,
      freshSignIn: req.authSession !== undefined && isFresh(req.authSession, config),
      relyingPartyId: relyingParty(config).id,
    });
  });

  router.post('/account/passkeys/options', requireUser, noStore, fresh, async (req, res) => {
    res.json(await registrationOptions(db, config, await loadUser(userId(req))));
  });

  router.post('/account/passkeys', requireUser, noStore, fresh, perIp('passkey-ip'), async (req, res) => {
    const id = userId(req);
    const { name } = passkeyNameInput.parse(req.body);
    const passkey = await registerPasskey(
      db,
      config,
      id,
      name,
      (req.body as { credential?: unknown }).credential,
    );
    await factorSetUp(db, id);
    await factorAudit(req, id, `Added the passkey "${name}".`, 'passkey_added', { name });
    res.status(201).json(passkeyView(passkey));
  });

  router.patch('/account/passkeys/:id', requireUser, noStore, async (req, res) => {
    const id = userId(req);
    const { name } = passkeyNameInput.parse(req.body);
    const passkey = await renamePasskey(db, id, idParam(req), name);
    res.json(passkeyView(passkey));
  });

  router.delete('/account/passkeys/:id', requireUser, noStore, fresh, async (req, res) => {
    const id = userId(req);
    const passkey = await removePasskey(db, id, idParam(req));
    await factorAudit(req, id, `Removed the passkey "${passkey.name}".`, 'passkey_removed', {
      name: passkey.name,
    });
    res.status(204).end();
  });

  router.post('/account/totp', requireUser, noStore, fresh, async (req, res) => {
    const user = await loadUser(userId(req));
    const enrolment = await enrolTotp(db, secretKey, user, relyingParty(config).name);
    if (enrolment === null) throw new AppError(409, 'totp_already_on', TOTP_ALREADY_ON);
    res.json(enrolment);
  });

  router.post('/account/totp/confirm', requireUser, noStore, perIp('factor-ip'), async (req, res) => {
    const id = userId(req);
    const code = z.object({ code: z.string().trim().default('') }).parse(req.body ?? {}).code;
    if (await hasConfirmedTotp(db, id)) throw new AppError(409, 'totp_already_on', TOTP_ALREADY_ON);
    const admitted = await admitFactorCheck(rateLimitStoreOf(req), id);
    if (!(await checkTotp(db, secretKey, id, code, { pending: true }))) {
      const message = 'That code is not right. Check the time on your phone and try the newest code.';
      throw new AppError(400, 'code_not_accepted', message, { code: message });
    }
    await admitted.passed();
    const recoveryCodes = await newRecoveryCodes(db, id);
    await factorSetUp(db, id);
    await factorAudit(req, id, 'Turned on two-step sign-in with an authenticator app.', 'totp_on');
    res.json({ recoveryCodes });
  });

  router.delete('/account/totp', requireUser, noStore, fresh, async (req, res) => {
    const id = userId(req);
    await db.sequelize.transaction(async (transaction) => {
      await removeTotp(db, id, transaction);
      await removeRecoveryCodes(db, id, transaction);
    });
    await factorAudit(req, id, 'Turned off two-step sign-in.', 'totp_off');
    res.status(204).end();
  });

  router.post('/account/recovery-codes', requireUser, noStore, fresh, async (req, res) => {
    const id = userId(req);
    if (!(await hasConfirmedTotp(db, id)))
      throw new AppError(409, 'totp_off', 'Turn on two-step sign-in first.');
    const recoveryCodes = await newRecoveryCodes(db, id);
    await factorAudit(req, id, 'Made a new set of recovery codes.', 'recovery_codes_renewed');
    res.json({ recoveryCodes });
  });

  // --- Fresh sign-in ---------------------------------------------------------------------------------

  router.post(
    '/accounts/reauthenticate/options',
    requireUser,
    noStore,
    perIp('factor-ip'),
    async (req, res) => {
      res.json(await authenticationOptions(db, config, 'reauthenticate', userId(req)));
    },
  );

  router.post('/accounts/reauthenticate', requireUser, noStore, perIp('factor-ip'), async (req, res) => {
    const id = userId(req);
    const session = req.authSession;
    if (session === undefined) throw new AppError(401, 'unauthenticated', 'You are not signed in.');
    const body = (req.body ?? {}) as { password?: unknown; code?: unknown; credential?: unknown };
    const store = rateLimitStoreOf(req);
    if (body.credential !== undefined) {
      const admitted = await admitFactorCheck(store, id);
      await authenticateWithPasskey(db, config, 'reauthenticate', id, body.credential);
      await admitted.passed();
    } else {
      const user = await loadUser(id);
      const password = typeof body.password === 'string' ? body.password : '';
      if (password === '') {
        throw new AppError(400, 'validation_failed', 'Please enter your password.', {
          password: 'Please enter your password.',
        });
      }
      const admitted = await admitFactorCheck(store, id);
      if (!(await verifyPassword(user.passwordHash, password))) {
        throw new AppError(400, 'password_not_accepted', PASSWORD_NOT_ACCEPTED, {
          password: PASSWORD_NOT_ACCEPTED,
        });
      }
      await admitted.passed();
      const methods = await secondStepMethods(db, user);
      if (methods !== null) {
        if (!methods.totp) {
          throw new AppError(400, 'passkey_required', 'Please confirm with your passkey.');
        }
        await checkCode({ db, secretKey, store }, id, body.code);
      }
    }
    const now = new Date();
    await markProven(db, session.id, now);
    res.json({
      provenAt: now.toISOString(),
      freshUntil: new Date(now.getTime() + config.FRESH_SIGN_IN_MINUTES * 60_000).toISOString(),
    });
  });

  // --- The owner setting -----------------------------------------------------------------------------

  router.get('/staff-settings/second-factor', requireStaff, noStore, async (_req, res) => {
    res.json({ required: await staffFactorRequired(db) });
  });

  router.put(
    '/staff-settings/second-factor',
    requireStaff,
    requireStaffRole('owner'),
    noStore,
    async (req, res) => {
      const { required } = z.object({ required: z.boolean() }).parse(req.body ?? {});
      const id = userId(req);
      await setStaffFactorRequired(db, required, id);
      await factorAudit(
        req,
        id,
        required
          ? 'Required staff to use a passkey or a second factor.'
          : 'Stopped requiring staff to use a passkey or a second factor.',
        required ? 'staff_factor_required' : 'staff_factor_optional',
      );
      res.json({ required });
    },
  );

  return router;
}

/** For the login route: answers a SecondFactorNeeded itself; true when it did. */
export function handledSecondFactor(res: Response, error: unknown): boolean {
  if (!(error instanceof SecondFactorNeeded)) return false;
  answerSecondFactorNeeded(res, error);
  return true;
}

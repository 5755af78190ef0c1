import { Op } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { Database } from '../../db/index.js';
import type { UserInstance } from '../../db/models/index.js';
import { secondFactorModels } from '../../db/models/second-factors.js';
import { AppError } from '../../http/errors.js';
import type { RateLimitStore } from '../../http/rate-limit.js';
import { storedKey } from '../../http/rate-limit.js';
import { countPasskeys } from './passkeys.js';
import { recoveryCodesLeft, useRecoveryCode } from './recovery.js';
import { hashToken, newToken } from './sessions.js';
import { checkTotp, hasConfirmedTotp, isTotpCode } from './totp.js';
import type { AuthSession } from './types.js';

/**
 * Second factors at sign-in (#33). A password is enough on its own only for an account with no second
 * factor: an account with a confirmed authenticator app, and a staff account with a passkey, get a
 * pending sign-in instead of a session (a token valid five minutes, its sha-256 stored) and finish with a
 * code from the app, a recovery code or the passkey. Every check of a code counts against the account's
 * limit of wrong codes (as wrong passwords do), wherever it comes from: the sign-in step, a fresh sign-in,
 * turning the app on.
 */

export const PENDING_SIGN_IN_TTL_MS = 5 * 60 * 1000;
export const SECOND_FACTOR_REQUIRED = 'Enter the code from your authenticator app, or use your passkey.';
export const SECOND_FACTOR_IN_BROWSER =
  'This account uses two-step sign-in: send the code from the authenticator app with the sign-in (code), or sign in in the browser.';
export const CODE_NOT_ACCEPTED = 'That code is not right, or it has already been used.';
export const PENDING_SIGN_IN_EXPIRED =
  'Your sign-in took too long. Please enter your email and password again.';
export const TOO_MANY_CODES = 'Too many wrong codes. Please wait 15 minutes and try again.';

/** Wrong codes (and passkey answers) per account, from anywhere, like wrong passwords. */
export const FACTOR_LIMITS = { windowSeconds: 15 * 60, max: 10 } as const;

/** The owner setting "Staff must use a passkey or a second factor". */
export const STAFF_FACTOR_SETTING = 'staff_second_factor_required';

export interface SecondFactorState {
  passkeys: number;
  totp: boolean;
}

export async function secondFactorState(db: Database, userId: number): Promise<SecondFactorState> {
  const [passkeys, totp] = await Promise.all([countPasskeys(db, userId), hasConfirmedTotp(db, userId)]);
  return { passkeys, totp };
}

export interface SecondFactorMethods {
  totp: boolean;
  recoveryCode: boolean;
  passkey: boolean;
}

/** The ways this account may finish a password sign-in, or null when the password is enough. */
export async function secondStepMethods(
  db: Database,
  user: Pick<UserInstance, 'id' | 'role'>,
): Promise<SecondFactorMethods | null> {
  const state = await secondFactorState(db, user.id);
  const passkey = user.role === 'staff' && state.passkeys > 0;
  if (!state.totp && !passkey) return null;
  const recoveryCode = state.totp && (await recoveryCodesLeft(db, user.id)) > 0;
  return { totp: state.totp, recoveryCode, passkey };
}

export async function staffFactorRequired(db: Database): Promise<boolean> {
  const { AppSetting } = secondFactorModels(db.sequelize);
  const row = await AppSetting.findByPk(STAFF_FACTOR_SETTING);
  return row?.value === 'true';
}

export async function setStaffFactorRequired(db: Database, required: boolean, by: number): Promise<void> {
  const { AppSetting } = secondFactorModels(db.sequelize);
  await AppSetting.upsert({
    key: STAFF_FACTOR_SETTING,
    value: required ? 'true' : 'false',
    updatedAt: new Date(),
    updatedBy: by,
  });
}

/** At sign-in: the owner's rule applies and this staff member has neither a passkey nor the app. */
export async function mustSetUpFactor(
  db: Database,
  user: Pick<UserInstance, 'id' | 'role'>,
): Promise<boolean> {
  if (user.role !== 'staff' || !(await staffFactorRequired(db))) return false;
  const state = await secondFactorState(db, user.id);
  return state.passkeys === 0 && !state.totp;
}

/** A factor was set up: the member's sessions may use the staff pages again. */
export async function factorSetUp(db: Database, userId: number, transaction?: Transaction): Promise<void> {
  await db.models.Session.update({ factorSetupRequired: false }, { where: { userId }, transaction });
}

export class SecondFactorNeeded extends AppError {
  constructor(
    readonly pending: { token: string; expiresAt: Date; methods: SecondFactorMethods },
    via: AuthSession['via'],
  ) {
    super(
      401,
      'second_factor_required',
      via === 'bearer' ? SECOND_FACTOR_IN_BROWSER : SECOND_FACTOR_REQUIRED,
    );
    this.name = 'SecondFactorNeeded';
  }
}

export async function startPendingSignIn(
  db: Database,
  userId: number,
  via: AuthSession['via'],
  methods: SecondFactorMethods,
): Promise<SecondFactorNeeded> {
  const { PendingSignIn } = secondFactorModels(db.sequelize);
  const token = newToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + PENDING_SIGN_IN_TTL_MS);
  await PendingSignIn.destroy({ where: { expiresAt: { [Op.lte]: now } } });
  await PendingSignIn.create({ id: hashToken(token), userId, via, expiresAt, createdAt: now });
  return new SecondFactorNeeded({ token, expiresAt, methods }, via);
}

/** 400, not 401: the pending token is what is wrong, not who is asking (no session is involved). */
export const pendingSignInExpired = () =>
  new AppError(400, 'pending_sign_in_expired', PENDING_SIGN_IN_EXPIRED);

/** The pending sign-in a token names, while it lasts. */
export async function findPendingSignIn(
  db: Database,
  token: unknown,
): Promise<{ id: string; userId: number; via: AuthSession['via'] }> {
  const { PendingSignIn } = secondFactorModels(db.sequelize);
  const row =
    typeof token === 'string' && token.length <= 64
      ? await PendingSignIn.findOne({ where: { id: hashToken(token), expiresAt: { [Op.gt]: new Date() } } })
      : null;
  if (row === null) throw pendingSignInExpired();
  return { id: row.id, userId: row.userId, via: row.via };
}

/** Spends the pending sign-in; false when another request spent it first. */
export async function spendPendingSignIn(
  db: Database,
  id: string,
  transaction?: Transaction,
): Promise<boolean> {
  const { PendingSignIn } = secondFactorModels(db.sequelize);
  return (await PendingSignIn.destroy({ where: { id }, transaction })) === 1;
}

/**
 * Counts one factor check for the account before it is made; refuses with 429 past the limit. The check's
 * outcome then says whether it counts: `passed` takes the hit back.
 */
export async function admitFactorCheck(
  store: RateLimitStore,
  userId: number,
): Promise<{ passed(): Promise<void> }> {
  const key = storedKey('factor-account', String(userId));
  const now = new Date();
  const hit = await store.hit(key, FACTOR_LIMITS.windowSeconds, now);
  if (hit.count > FACTOR_LIMITS.max) {
    await store.undo(key, now);
    throw new AppError(429, 'rate_limited', TOO_MANY_CODES);
  }
  return { passed: () => store.undo(key, now) };
}

/**
 * A code typed at the second step or a fresh sign-in: six digits are an authenticator code, anything
 * else is tried as a recovery code. Counted against the account's limit; throws when not accepted.
 */
export async function checkCode(
  deps: { db: Database; secretKey: string; store: RateLimitStore },
  userId: number,
  code: unknown,
): Promise<'totp' | 'recovery_code'> {
  const value = typeof code === 'string' ? code.trim() : '';
  if (value === '' || value.length > 64) {
    throw new AppError(400, 'validation_failed', 'Please enter a code.', { code: 'Please enter a code.' });
  }
  const admitted = await admitFactorCheck(deps.store, userId);
  const kind = isTotpCode(value) ? 'totp' : 'recovery_code';
  const ok =
    kind === 'totp'
      ? await checkTotp(deps.db, deps.secretKey, userId, value)
      : await useRecoveryCode(deps.db, userId, value);
  if (!ok) throw new AppError(400, 'code_not_accepted', CODE_NOT_ACCEPTED, { code: CODE_NOT_ACCEPTED });
  await admitted.passed();
  return kind;
}

import { randomBytes } from 'node:crypto';
import {
  CURRENT_PASSWORD_WRONG,
  EMAIL_ALREADY_EXISTS,
  LOGIN_FAILED,
  loginFormSchema,
  PASSWORDS_MUST_MATCH,
  registrationSchema,
  whenStrings,
} from '@avp/shared';
import type { ForgotPasswordForm } from '@avp/shared';
import { Op, QueryTypes, UniqueConstraintError } from 'sequelize';
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { dateParam } from '../../db/bind.js';
import type { Database } from '../../db/index.js';
import { normaliseEmail } from '../../db/models/index.js';
import type { UserInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { enqueueMailToAccount } from '../mail/index.js';
import { isCommonPassword, newPasswordError, PASSWORD_TOO_COMMON } from './password-policy.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { assertNotDeactivated, staffRolesOf } from './roles.js';
import type { StaffRole } from './roles.js';
import { databaseRateLimitStore } from '../../http/rate-limit.js';
import { checkCode, mustSetUpFactor, secondStepMethods, startPendingSignIn } from './second-factor.js';
import { createSession, endSessionsOfUser, hashToken, newToken, NOT_AUTHORISED } from './sessions.js';
import type { CreatedSession, SessionConfig } from './sessions.js';
import type { AuthSession } from './types.js';

export interface AccountsDeps {
  config: SessionConfig &
    Pick<
      Config,
      | 'PUBLIC_URL'
      | 'REGISTRATIONS_PER_HOUR_PER_ADDRESS'
      | 'SIGN_INS_PER_15_MINUTES_PER_ADDRESS'
      | 'SESSION_SECRET'
      | 'WEBAUTHN_RP_ID'
      | 'WEBAUTHN_RP_NAME'
      | 'WEBAUTHN_ORIGINS'
      | 'FRESH_SIGN_IN_MINUTES'
    >;
  db: Database;
}

/** What a request tells the service about where it came from. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  /** The session the request arrived with, if any. */
  session?: AuthSession | undefined;
}

export const RESET_LINK_TTL_SECONDS = 3600;
export const RESET_PATH = '/reset_password';
/** not in SPEC: the forgot-password answer, the same whether or not the address has an account. */
export const FORGOT_PASSWORD_SENT =
  'If an account exists for that email address, we have sent it a link to reset the password. The link works once, within one hour.';
export const RESET_LINK_INVALID =
  'This password reset link is invalid, has already been used or has expired. Please ask for a new one.';
export const PASSWORD_RESET_DONE = 'Your password has been changed. Please sign in with your new password.';
export const RESET_MAIL_SUBJECT = 'Reset your password';

/** The error code of a wrong address or password: the one answer a password guess gets. */
export const INVALID_CREDENTIALS = 'invalid_credentials';

export type AuditAction =
  'sign_in' | 'sign_out' | 'password_change' | 'password_reset' | 'account_create' | 'second_factor_change';

export async function audit(
  db: Database,
  action: AuditAction,
  userId: number,
  meta: Pick<RequestMeta, 'ip'>,
  options: { after?: Record<string, unknown>; transaction?: Transaction } = {},
): Promise<void> {
  await db.models.AuditLog.create(
    {
      actorUserId: userId,
      action,
      entity: 'user',
      entityId: String(userId),
      after: options.after ?? null,
      ip: meta.ip?.slice(0, 64) ?? null,
      createdAt: new Date(),
    },
    { transaction: options.transaction },
  );
}

/**
 * Adds the common-password refusal to a shared registration schema, whose own checks already cover the
 * length and the confirmation. The check is asynchronous (its dictionaries load on first use): parse
 * these schemas with parseAsync.
 */
function withCommonPasswordCheck<T extends z.ZodObject>(schema: T): T {
  return schema.superRefine(async (value, ctx) => {
    const password = (value as { password?: unknown }).password;
    if (typeof password === 'string' && password !== '' && (await isCommonPassword(password))) {
      ctx.addIssue({ code: 'custom', message: PASSWORD_TOO_COMMON, path: ['password'] });
    }
  }, whenStrings('password'));
}

const registerInput = withCommonPasswordCheck(registrationSchema({ mode: 'create' }));
/** The update form of the account whose e-mail is `currentEmail`: a different one needs the password. */
const updateInput = (currentEmail: string) =>
  withCommonPasswordCheck(registrationSchema({ mode: 'update', currentEmail }));

export const loginInput = loginFormSchema.extend({
  /** true: answer the session token in JSON (for the desktop uploader) instead of setting a cookie. */
  token: z.boolean().optional(),
  /** 'staff': refuse a client account with 403 before any session is created (the staff screens). */
  requireRole: z.literal('staff').optional(),
  /**
   * #33, with `token: true` only: the second factor's code (authenticator or recovery code) in the same
   * request, for programs that cannot show a second step.
   */
  code: z.string().max(64).optional(),
});

export const resetInput = z
  .object({
    token: z.string({ error: RESET_LINK_INVALID }).min(1, RESET_LINK_INVALID),
    password: z.string().default(''),
    confirmPassword: z.string().default(''),
  })
  .superRefine(
    async ({ password, confirmPassword }, ctx) => {
      if (password === '' || password !== confirmPassword) {
        ctx.addIssue({ code: 'custom', message: PASSWORDS_MUST_MATCH, path: ['confirmPassword'] });
      }
      const error = password === '' ? undefined : await newPasswordError(password);
      if (error) ctx.addIssue({ code: 'custom', message: error, path: ['password'] });
    },
    whenStrings('password', 'confirmPassword'),
  );

let dummyHash: Promise<string> | undefined;

/**
 * A hash to verify against when the e-mail has no account, so that a wrong address costs the same
 * argon2 time as a wrong password and login timing does not reveal which addresses are registered.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  return dummyHash;
}

function accountGone(): AppError {
  return new AppError(401, 'unauthenticated', 'This account no longer exists.');
}

function emailTaken(): AppError {
  return new AppError(409, 'email_taken', EMAIL_ALREADY_EXISTS, { email: EMAIL_ALREADY_EXISTS });
}

export interface SignedIn {
  user: UserInstance;
  created: CreatedSession;
  /** #33: the member's staff roles, for the sign-in answer (none for a client). */
  staffRoles?: StaffRole[];
}

async function startSession(
  deps: AccountsDeps,
  user: UserInstance,
  meta: RequestMeta,
  via: AuthSession['via'],
  transaction: Transaction,
  after: Record<string, unknown>,
  factorSetupRequired = false,
): Promise<CreatedSession> {
  const { db, config } = deps;
  // The session the browser arrived with is replaced, never reused (a new id at every sign-in).
  if (meta.session) await db.models.Session.destroy({ where: { id: meta.session.id }, transaction });
  await db.models.Session.destroy({ where: { expiresAt: { [Op.lte]: new Date() } }, transaction });
  const created = await createSession(
    db,
    config,
    user.id,
    { ip: meta.ip, userAgent: meta.userAgent, via, factorSetupRequired },
    transaction,
  );
  await user.update({ lastLoginAt: created.session.createdAt }, { transaction });
  await audit(db, 'sign_in', user.id, meta, { after: { ...after, via }, transaction });
  return created;
}

/**
 * Registration (SPEC §5): a new client account, signed in at once: with a cookie, or with `via: 'bearer'`
 * a token the caller holds (the spec's legacy register call).
 */
export async function register(
  deps: AccountsDeps,
  body: unknown,
  meta: RequestMeta,
  via: AuthSession['via'] = 'cookie',
): Promise<SignedIn> {
  const { db } = deps;
  const input = await registerInput.parseAsync(body);
  // Hashing first makes a taken address answer after the same work as a new one.
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.sequelize.transaction(async (transaction) => {
      const email = normaliseEmail(input.email);
      const existing = await db.models.User.findOne({ where: { email }, transaction });
      if (existing) throw emailTaken();
      const user = await db.models.User.create(
        {
          email,
          passwordHash,
          firstName: input.firstname,
          lastName: input.lastname,
          company: input.company,
          phone: input.phone,
          role: 'client',
        },
        { transaction },
      );
      await audit(db, 'account_create', user.id, meta, { transaction });
      const created = await startSession(deps, user, meta, via, transaction, { how: 'registration' });
      return { user, created };
    });
  } catch (error) {
    // Two registrations of one address at the same moment: the unique index decides.
    if (error instanceof UniqueConstraintError) throw emailTaken();
    throw error;
  }
}

/** Sign-in with e-mail and password (SPEC §5 'Login'); a wrong address or password get the same answer. */
export async function login(deps: AccountsDeps, body: unknown, meta: RequestMeta): Promise<SignedIn> {
  const { db } = deps;
  const input = loginInput.parse(body);
  const user = await db.models.User.findOne({ where: { email: normaliseEmail(input.email) } });
  const matches = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (user === null || !matches) throw new AppError(401, INVALID_CREDENTIALS, LOGIN_FAILED);
  if (input.requireRole === 'staff' && user.role !== 'staff') {
    throw new AppError(403, 'forbidden', NOT_AUTHORISED);
  }
  await assertNotDeactivated(db, user.id);
  const via = input.token === true ? 'bearer' : 'cookie';
  // #33: an account with a second factor gets a pending sign-in, not a session (second-factor.ts).
  const methods = await secondStepMethods(db, user);
  if (methods !== null) {
    if (via !== 'bearer' || input.code === undefined)
      throw await startPendingSignIn(db, user.id, via, methods);
    const store = databaseRateLimitStore(db);
    const kind = await checkCode({ db, secretKey: deps.config.SESSION_SECRET, store }, user.id, input.code);
    return completeSignIn(deps, user, meta, via, kind);
  }
  return completeSignIn(deps, user, meta, via, 'password');
}

/**
 * A session for an account that has proved who it is (`how`: 'password', 'passkey', 'second_factor'),
 * flagged when the owner requires staff to set up a factor and this member has none (#33).
 */
export async function completeSignIn(
  deps: AccountsDeps,
  user: UserInstance,
  meta: RequestMeta,
  via: AuthSession['via'],
  how: string,
): Promise<SignedIn> {
  await assertNotDeactivated(deps.db, user.id);
  const setup = await mustSetUpFactor(deps.db, user);
  const created = await deps.db.sequelize.transaction((transaction) =>
    startSession(deps, user, meta, via, transaction, { how }, setup),
  );
  return { user, created, staffRoles: user.role === 'staff' ? await staffRolesOf(deps.db, user.id) : [] };
}

/** Sign-out: the session row is deleted (the route clears the cookie). */
export async function logout(deps: AccountsDeps, meta: RequestMeta): Promise<void> {
  const { db } = deps;
  const session = meta.session;
  if (session === undefined) return;
  await db.sequelize.transaction(async (transaction) => {
    const ended = await db.models.Session.destroy({ where: { id: session.id }, transaction });
    if (ended > 0)
      await audit(db, 'sign_out', session.userId, meta, { after: { via: session.via }, transaction });
  });
}

/**
 * The account update form (SPEC §2 '/register' when signed in): the same fields as registration, where
 * an empty password and confirmation keep the current password. A new e-mail or a new password needs the
 * current password (docs/decisions.md: someone at an unattended, signed-in browser must not be able to take
 * the account over). A new password ends every other session of the account.
 */
export async function updateAccount(
  deps: AccountsDeps,
  userId: number,
  body: unknown,
  meta: RequestMeta,
): Promise<UserInstance> {
  const { db } = deps;
  const account = await db.models.User.findByPk(userId);
  if (account === null) throw accountGone();
  const input = await updateInput(account.email).parseAsync(body);
  const email = normaliseEmail(input.email);
  if (email !== account.email || input.password !== '') {
    // The schema made sure there is one; whether it is right only the stored hash can tell.
    if (!(await verifyPassword(account.passwordHash, input.currentPassword ?? ''))) {
      throw new AppError(400, 'validation_failed', 'Some fields are missing or invalid.', {
        currentPassword: CURRENT_PASSWORD_WRONG,
      });
    }
  }
  const passwordHash = input.password === '' ? undefined : await hashPassword(input.password);
  try {
    return await db.sequelize.transaction(async (transaction) => {
      const user = await db.models.User.findByPk(userId, { transaction });
      if (user === null) throw accountGone();
      if (email !== user.email) {
        const other = await db.models.User.findOne({ where: { email }, transaction });
        if (other) throw emailTaken();
      }
      await user.update(
        {
          email,
          firstName: input.firstname,
          lastName: input.lastname,
          company: input.company,
          phone: input.phone,
          ...(passwordHash === undefined ? {} : { passwordHash }),
        },
        { transaction },
      );
      if (passwordHash !== undefined) {
        const ended = await endSessionsOfUser(db, user.id, { except: meta.session?.id, transaction });
        await audit(db, 'password_change', user.id, meta, {
          after: { otherSessionsEnded: ended },
          transaction,
        });
      }
      return user;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintError) throw emailTaken();
    throw error;
  }
}

export function resetLink(config: Pick<Config, 'PUBLIC_URL'>, token: string): string {
  // In the fragment, so the token never reaches a server log, a proxy or a Referer header.
  return `${config.PUBLIC_URL}${RESET_PATH}#token=${token}`;
}

function resetMail(link: string, email: string): { subject: string; text: string; html: string } {
  const text = [
    'Hello,',
    '',
    `Someone, hopefully you, asked to reset the password of the account ${email}.`,
    'To choose a new password, open this link within one hour:',
    '',
    link,
    '',
    'The link works once. If you did not ask for this, ignore this message: your password stays as it is.',
  ].join('\n');
  const escape = (value: string) =>
    value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html =
    `<p>Hello,</p><p>Someone, hopefully you, asked to reset the password of the account ${escape(email)}.` +
    ` To choose a new password, open this link within one hour:</p>` +
    `<p><a href="${escape(link)}">Reset your password</a></p>` +
    '<p>The link works once. If you did not ask for this, ignore this message: your password stays as it is.</p>';
  return { subject: RESET_MAIL_SUBJECT, text, html };
}

/**
 * Forgot password (SPEC §5): when the address has an account, a single-use link valid for one hour is
 * queued in the mail outbox in the same transaction as the token's row. The route answers before this
 * runs, with the same text whatever the address; and the work is the same either way: the token, its
 * hash and the mail are made for any address, and each row is written by an
 * `INSERT … SELECT … FROM users WHERE email = $1` that writes it or not.
 */
export async function requestPasswordReset(deps: AccountsDeps, input: ForgotPasswordForm): Promise<void> {
  const { db, config } = deps;
  const email = normaliseEmail(input.email);
  const token = newToken();
  const mail = resetMail(resetLink(config, token), email);
  const now = new Date();
  const date = (value: Date) => dateParam(db.dialect, value);
  await db.sequelize.transaction(async (transaction) => {
    await db.sequelize.query(
      `INSERT INTO password_resets (user_id, token_hash, expires_at, created_at)
       SELECT id, $2, $3, $4 FROM users WHERE email = $1`,
      {
        bind: [
          email,
          hashToken(token),
          date(new Date(now.getTime() + RESET_LINK_TTL_SECONDS * 1000)),
          date(now),
        ],
        type: QueryTypes.INSERT,
        transaction,
      },
    );
    await enqueueMailToAccount(db, email, mail, { transaction });
  });
}

/**
 * The reset page: sets the new password when the token is known, unused and under an hour old. The token,
 * and any other outstanding one of the account, is spent; every session of the account ends except the
 * one this request arrived with, if that is the same account's.
 */
export async function resetPassword(deps: AccountsDeps, body: unknown, meta: RequestMeta): Promise<void> {
  const { db } = deps;
  const input = await resetInput.parseAsync(body);
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  await db.sequelize.transaction(async (transaction) => {
    const reset = await db.models.PasswordReset.findOne({
      where: { tokenHash: hashToken(input.token), usedAt: null, expiresAt: { [Op.gt]: now } },
      transaction,
    });
    if (reset === null) throw new AppError(400, 'invalid_reset_token', RESET_LINK_INVALID);
    // Conditional on still being unused, so two requests racing with one link cannot both succeed.
    const [spent] = await db.models.PasswordReset.update(
      { usedAt: now },
      { where: { userId: reset.userId, usedAt: null }, transaction },
    );
    if (spent === 0) throw new AppError(400, 'invalid_reset_token', RESET_LINK_INVALID);
    await db.models.User.update({ passwordHash }, { where: { id: reset.userId }, transaction });
    const keep = meta.session?.userId === reset.userId ? meta.session.id : undefined;
    const ended = await endSessionsOfUser(db, reset.userId, { except: keep, transaction });
    await audit(db, 'password_reset', reset.userId, meta, { after: { sessionsEnded: ended }, transaction });
  });
}

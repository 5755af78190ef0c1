import './types.js';

/**
 * Accounts and sessions: registration, sign-in and sign-out, the account form, password
 * reset, and the middleware every other module uses to know who is asking.
 *
 *   loadSession(deps)  mounted once on /api by app.ts: sets req.user / req.authSession
 *   requireUser        401 unless signed in
 *   requireStaff       401 signed out, 403 for a client account
 */
export {
  accountBody,
  accountRateLimits,
  accountsRoutes,
  ACCOUNT_LIMITS,
  requestMeta,
  requestPasswordResetAfter,
  secondsLeft,
  signInGuarded,
  TOO_MANY_SIGN_INS,
  TOO_MANY_UPDATES,
} from './routes.js';
export {
  clearSessionCookie,
  loadSession,
  presentedToken,
  requireUser,
  requireStaff,
  sessionCookieName,
  hashToken,
  NOT_SIGNED_IN,
  NOT_AUTHORISED,
} from './sessions.js';
export { isCommonPassword, newPasswordError, PASSWORD_TOO_COMMON } from './password-policy.js';
export {
  ACCOUNT_DEACTIVATED,
  ensureSomeStaffRole,
  forbiddenRole,
  loadStaffRoles,
  ownerForFields,
  requireAnyStaffRole,
  requireStaffRole,
  staffRolesOf,
  staffStanding,
  storePaymentKeysOwnerOnly,
} from './roles.js';
export {
  FORGOT_PASSWORD_SENT,
  login,
  logout,
  PASSWORD_RESET_DONE,
  register,
  requestPasswordReset,
  RESET_LINK_INVALID,
  RESET_LINK_TTL_SECONDS,
  RESET_MAIL_SUBJECT,
  RESET_PATH,
  updateAccount,
} from './service.js';
export type { AccountsDeps, RequestMeta, SignedIn } from './service.js';
export type { AuthSession, SessionUser } from './types.js';

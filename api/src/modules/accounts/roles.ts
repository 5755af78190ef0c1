import type { RequestHandler } from 'express';
import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import { FORBIDDEN_ROLE_MESSAGE, isStaffRole, STAFF_ROLES, staffRolesAllow } from '@avp/shared';
import type { StaffRole } from '@avp/shared';
import { dateParam } from '../../db/bind.js';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';
import { clearSessionCookie, requireStaff } from './sessions.js';
import type { SessionConfig } from './sessions.js';

/**
 * Staff roles (#33, contract in docs/api.md 'Staff roles'): owner, store manager, finance, media; a
 * member may hold several, and owner passes every check. `loadStaffRoles` (mounted once, right after
 * loadSession) puts the member's roles on `req.user.staffRoles` and ends the session of a deactivated
 * member; `requireStaffRole(...roles)` guards each staff route.
 */

export { FORBIDDEN_ROLE_MESSAGE };
export type { StaffRole };

export const ACCOUNT_DEACTIVATED = 'This staff account is deactivated. Ask an owner to reactivate it.';

interface RoleRow {
  deactivated_at: string | Date | null;
  role: string | null;
}

/** The member's roles (sorted as STAFF_ROLES) and whether the account is deactivated: one query. */
export async function staffStanding(
  db: Database,
  userId: number,
  transaction?: Transaction,
): Promise<{ roles: StaffRole[]; deactivated: boolean; exists: boolean }> {
  const rows = await db.sequelize.query<RoleRow>(
    `SELECT u.deactivated_at, r.role FROM users u LEFT JOIN staff_roles r ON r.user_id = u.id WHERE u.id = $1`,
    { bind: [userId], type: QueryTypes.SELECT, transaction },
  );
  const held = new Set(rows.map((row) => row.role).filter(isStaffRole));
  return {
    roles: STAFF_ROLES.filter((role) => held.has(role)),
    deactivated: rows[0]?.deactivated_at !== null && rows[0]?.deactivated_at !== undefined,
    exists: rows.length > 0,
  };
}

/** Sign-in's check (password, passkey, second factor): a deactivated member gets no session (#33). */
export async function assertNotDeactivated(db: Database, userId: number): Promise<void> {
  if ((await staffStanding(db, userId)).deactivated)
    throw new AppError(403, 'account_deactivated', ACCOUNT_DEACTIVATED);
}

export async function staffRolesOf(db: Database, userId: number, transaction?: Transaction) {
  return (await staffStanding(db, userId, transaction)).roles;
}

/** Gives a staff account the owner role when it has no role at all (the CLI's first owner, old staff). */
export async function ensureSomeStaffRole(db: Database, userId: number, transaction?: Transaction) {
  const { roles } = await staffStanding(db, userId, transaction);
  if (roles.length > 0) return;
  await db.sequelize.query(`INSERT INTO staff_roles (user_id, role, created_at) VALUES ($1, 'owner', $2)`, {
    bind: [userId, dateParam(db.dialect, new Date())],
    transaction,
  });
}

/**
 * After loadSession: a signed-in staff member's roles on `req.user.staffRoles` (clients: none, no query).
 * A deactivated member's session is ended here too, whatever path created it, so a deactivation holds
 * even against a session that slipped in between.
 */
export function loadStaffRoles(deps: { config: SessionConfig; db: Database }): RequestHandler {
  return async (req, res, next) => {
    const user = req.user;
    if (user === undefined) {
      next();
      return;
    }
    if (user.role !== 'staff') {
      req.user = { ...user, staffRoles: [] };
      next();
      return;
    }
    const standing = await staffStanding(deps.db, user.id);
    if (standing.deactivated) {
      if (req.authSession !== undefined) {
        await deps.db.models.Session.destroy({ where: { userId: user.id } });
        if (req.authSession.via === 'cookie') clearSessionCookie(res, deps.config);
      }
      req.user = undefined;
      req.authSession = undefined;
      req.sessionEnded = true;
      next();
      return;
    }
    req.user = { ...user, staffRoles: standing.roles };
    next();
  };
}

export function forbiddenRole(): AppError {
  return new AppError(403, 'forbidden_role', FORBIDDEN_ROLE_MESSAGE);
}

/**
 * 401 signed out, 403 `forbidden` for a client account, 403 `second_factor_setup_required` while the
 * owner's factor rule waits on this member, 403 `forbidden_role` unless the member holds one of `roles`
 * (owner always does; no roles given: any staff role will do).
 */
export function requireStaffRole(...roles: StaffRole[]): RequestHandler {
  return (req, res, next) => {
    // requireStaff's checks first (signed in, staff, the factor rule), then the roles.
    requireStaff(req, res, (error?: unknown) => {
      if (error !== undefined) {
        next(error);
        return;
      }
      next(staffRolesAllow(req.user?.staffRoles ?? [], roles) ? undefined : forbiddenRole());
    });
  };
}

/** Any staff role: the staff settings and the overview. */
export const requireAnyStaffRole: RequestHandler = requireStaffRole();

/**
 * After requireStaffRole: a body naming any of `fields` (even to clear them) is the owner's alone, on a
 * route otherwise open to other roles: the store form is the store manager's, its Stripe keys the owner's.
 */
export function ownerForFields(...fields: string[]): RequestHandler {
  return (req, _res, next) => {
    const body: unknown = req.body;
    const names =
      body !== null && typeof body === 'object'
        ? fields.filter((f) => (body as Record<string, unknown>)[f] !== undefined)
        : [];
    if (names.length > 0 && !(req.user?.staffRoles ?? []).includes('owner')) {
      next(forbiddenRole());
      return;
    }
    next();
  };
}

/** The store fields that hold its own Stripe account: the owner's (#33 'store payment keys'). */
export const storePaymentKeysOwnerOnly = ownerForFields('stripe_publishable_key', 'stripe_secret_key');

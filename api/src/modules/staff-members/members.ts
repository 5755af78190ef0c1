import { isValidEmail, STAFF_ROLES, staffRolesSentence } from '@avp/shared';
import type { StaffMemberJson, StaffRole } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import { dateParam } from '../../db/bind.js';
import type { Database } from '../../db/index.js';
import { staffRoleModels } from '../../db/models/staff-roles.js';
import { AppError } from '../../http/errors.js';
import { staffStanding } from '../accounts/index.js';

/**
 * Staff members (#33): the list an owner sees, role changes, deactivation and reactivation, and the rule
 * that there is always an active owner. Every change writes an audit row whose `after.sentence` says it
 * in words ("Ana Lee deactivated Sam Park."), in the change's own transaction.
 */

export interface Actor {
  userId: number;
  ip: string | null;
}

export const LAST_OWNER = 'There must always be an active owner: make another member an owner first.';
export const MEMBER_UNKNOWN = 'There is no staff member with that id.';

export const rolesInput = z
  .array(z.enum(STAFF_ROLES), { error: 'must list roles' })
  .min(1, 'must have at least one role')
  .max(STAFF_ROLES.length)
  .transform((roles) => STAFF_ROLES.filter((role) => roles.includes(role)));

export const emailInput = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(254, 'must be at most 254 characters')
  .refine(isValidEmail, 'must be a valid e-mail address')
  .transform((email) => email.toLowerCase());

interface NameRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
}

export async function nameOf(db: Database, userId: number, transaction?: Transaction): Promise<string> {
  const rows = await db.sequelize.query<NameRow>(
    'SELECT id, email, first_name, last_name FROM users WHERE id = $1',
    { bind: [userId], type: QueryTypes.SELECT, transaction },
  );
  const row = rows[0];
  return row === undefined ? 'Someone' : `${row.first_name} ${row.last_name}`.trim() || row.email;
}

/** One audit row whose sentence is what the audit log shows. */
export async function recordSentence(
  db: Database,
  actor: Actor,
  entry: { action: string; entity: string; entityId: string | number; sentence: string; details?: object },
  transaction?: Transaction,
): Promise<void> {
  await db.models.AuditLog.create(
    {
      actorUserId: actor.userId,
      action: entry.action,
      entity: entry.entity,
      entityId: String(entry.entityId),
      after: { sentence: entry.sentence, ...(entry.details ?? {}) },
      ip: actor.ip?.slice(0, 64) ?? null,
      createdAt: new Date(),
    },
    { transaction },
  );
}

interface MemberRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  last_login_at: string | Date | null;
  deactivated_at: string | Date | null;
  passkeys: number | string;
  totp: number | string;
}

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/** Every staff account, active first, by name; with roles, last sign-in and second-factor state. */
export async function listMembers(db: Database): Promise<StaffMemberJson[]> {
  const rows = await db.sequelize.query<MemberRow>(
    `SELECT u.id, u.email, u.first_name, u.last_name, u.last_login_at, u.deactivated_at,
            (SELECT COUNT(*) FROM passkeys p WHERE p.user_id = u.id) AS passkeys,
            (SELECT COUNT(*) FROM totp_secrets t WHERE t.user_id = u.id AND t.confirmed_at IS NOT NULL) AS totp
       FROM users u WHERE u.role = 'staff'
      ORDER BY CASE WHEN u.deactivated_at IS NULL THEN 0 ELSE 1 END, u.last_name, u.first_name, u.id`,
    { type: QueryTypes.SELECT },
  );
  const roleRows = await db.sequelize.query<{ user_id: number; role: string }>(
    `SELECT r.user_id, r.role FROM staff_roles r JOIN users u ON u.id = r.user_id WHERE u.role = 'staff'`,
    { type: QueryTypes.SELECT },
  );
  const rolesOf = new Map<number, Set<string>>();
  for (const row of roleRows) {
    const id = Number(row.user_id);
    rolesOf.set(id, (rolesOf.get(id) ?? new Set()).add(row.role));
  }
  return rows.map((row) => {
    const held = rolesOf.get(Number(row.id)) ?? new Set<string>();
    return {
      id: Number(row.id),
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      roles: STAFF_ROLES.filter((role) => held.has(role)),
      lastSignInAt: iso(row.last_login_at),
      secondFactor: { passkeys: Number(row.passkeys), totp: Number(row.totp) > 0 },
      deactivatedAt: iso(row.deactivated_at),
    };
  });
}

/**
 * The active owners, locked on PostgreSQL until the transaction ends, so two owners demoting each other
 * at once cannot both succeed (the second re-reads after the first commits). SQLite writes one
 * transaction at a time anyway.
 */
async function activeOwners(db: Database, transaction: Transaction): Promise<number[]> {
  const lock = db.dialect === 'postgres' ? ' FOR UPDATE OF r' : '';
  const rows = await db.sequelize.query<{ user_id: number }>(
    `SELECT r.user_id FROM staff_roles r JOIN users u ON u.id = r.user_id
      WHERE r.role = 'owner' AND u.role = 'staff' AND u.deactivated_at IS NULL${lock}`,
    { type: QueryTypes.SELECT, transaction },
  );
  return rows.map((row) => Number(row.user_id));
}

async function assertNotLastOwner(db: Database, userId: number, transaction: Transaction) {
  const owners = await activeOwners(db, transaction);
  if (owners.length === 1 && owners[0] === userId) throw new AppError(409, 'last_owner', LAST_OWNER);
}

async function staffMember(db: Database, userId: number, transaction: Transaction) {
  const rows = await db.sequelize.query<{ role: string }>('SELECT role FROM users WHERE id = $1', {
    bind: [userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  if (rows[0]?.role !== 'staff') throw new AppError(404, 'not_found', MEMBER_UNKNOWN);
  return staffStanding(db, userId, transaction);
}

export function parseMemberId(value: string): number {
  if (!/^\d{1,10}$/.test(value)) throw new AppError(404, 'not_found', MEMBER_UNKNOWN);
  return Number(value);
}

export async function setRoles(db: Database, actor: Actor, userId: number, body: unknown) {
  const roles = z.object({ roles: rolesInput }).parse(body).roles;
  await db.sequelize.transaction(async (transaction) => {
    const before = (await staffMember(db, userId, transaction)).roles;
    if (before.includes('owner') && !roles.includes('owner'))
      await assertNotLastOwner(db, userId, transaction);
    if (sameRoles(before, roles)) return;
    await db.sequelize.query('DELETE FROM staff_roles WHERE user_id = $1', { bind: [userId], transaction });
    await insertRoles(db, userId, roles, transaction);
    const who = await nameOf(db, actor.userId, transaction);
    const whom = await nameOf(db, userId, transaction);
    await recordSentence(
      db,
      actor,
      {
        action: 'staff_roles_change',
        entity: 'staff_member',
        entityId: userId,
        sentence: `${who} changed ${whom}'s roles from ${staffRolesSentence(before)} to ${staffRolesSentence(roles)}.`,
        details: { before, roles },
      },
      transaction,
    );
  });
  return listMembers(db);
}

function sameRoles(a: readonly StaffRole[], b: readonly StaffRole[]) {
  return a.length === b.length && a.every((role) => b.includes(role));
}

export async function insertRoles(
  db: Database,
  userId: number,
  roles: readonly StaffRole[],
  transaction: Transaction,
) {
  await staffRoleModels(db.sequelize).StaffRole.bulkCreate(
    roles.map((role) => ({ userId, role, createdAt: new Date() })),
    { transaction },
  );
}

/**
 * Deactivation: the member cannot sign in, and every session of theirs ends now, with it every token the
 * desktop uploader or a legacy page holds (each names a session row), every sign-in half-way through its
 * second step and every password reset link not yet used.
 */
export async function setActive(db: Database, actor: Actor, userId: number, active: boolean) {
  await db.sequelize.transaction(async (transaction) => {
    const standing = await staffMember(db, userId, transaction);
    if (standing.deactivated !== active) return;
    if (!active && standing.roles.includes('owner')) await assertNotLastOwner(db, userId, transaction);
    await db.sequelize.query('UPDATE users SET deactivated_at = $2 WHERE id = $1', {
      bind: [userId, active ? null : dateParam(db.dialect, new Date())],
      transaction,
    });
    if (!active) {
      await db.models.Session.destroy({ where: { userId }, transaction });
      for (const table of ['pending_sign_ins', 'password_resets']) {
        await db.sequelize.query(`DELETE FROM ${table} WHERE user_id = $1`, { bind: [userId], transaction });
      }
    }
    const who = await nameOf(db, actor.userId, transaction);
    const whom = await nameOf(db, userId, transaction);
    await recordSentence(
      db,
      actor,
      {
        action: active ? 'staff_reactivate' : 'staff_deactivate',
        entity: 'staff_member',
        entityId: userId,
        sentence: `${who} ${active ? 'reactivated' : 'deactivated'} ${whom}.`,
      },
      transaction,
    );
  });
  return listMembers(db);
}

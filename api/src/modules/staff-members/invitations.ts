import {
  NAME_MAX,
  requiredText,
  STAFF_INVITATION_TTL_HOURS,
  STAFF_INVITE_PATH,
  STAFF_ROLES,
  staffRolesSentence,
} from '@avp/shared';
import type { StaffInvitationJson, StaffInvitationLookupJson, StaffRole } from '@avp/shared';
import { Op } from 'sequelize';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { normaliseEmail } from '../../db/models/index.js';
import { staffRoleModels } from '../../db/models/staff-roles.js';
import type { StaffInvitationInstance } from '../../db/models/staff-roles.js';
import { AppError } from '../../http/errors.js';
import { hashToken, newPasswordError } from '../accounts/index.js';
import { hashPassword } from '../accounts/passwords.js';
import { newToken } from '../accounts/sessions.js';
import type { SessionUser } from '../accounts/index.js';
import { enqueueMail } from '../mail/index.js';
import { emailInput, insertRoles, nameOf, recordSentence, rolesInput } from './members.js';
import type { Actor } from './members.js';

/**
 * Invitations (#33): an owner invites an address with roles; the link (PUBLIC_URL/staff/invite#token=<token>)
 * works once, for 72 hours, and only the token's sha-256 is stored. The invitee sets a name and a
 * password (the same policy as everywhere) and gets a staff account with those roles. A new invitation
 * to the same address withdraws the older one.
 */

export const INVITATION_UNKNOWN =
  'This invitation link is not valid. Ask the owner who invited you to send a new one.';
export const INVITATION_EXPIRED =
  'This invitation has expired: links work for 72 hours. Ask the owner who invited you to send a new one.';
export const INVITATION_USED = 'This invitation has already been used. Sign in with the password you chose.';
export const INVITATION_REVOKED = 'This invitation was withdrawn. Ask the owner who invited you.';
export const ALREADY_STAFF = 'That address already has a staff account.';
export const CLIENT_ACCOUNT =
  'That address belongs to a client account. Invite a different address for staff work.';
export const ACCOUNT_EXISTS =
  'An account with this address exists already. Ask the owner who invited you to send a new invitation.';
export const INVITATION_MAIL_SUBJECT = 'You are invited to the staff pages';
export const INVITATION_NOT_FOUND = 'There is no pending invitation with that id.';

export function wrongAccount(email: string): string {
  return `This invitation is for ${email}. Sign out, then open the link again.`;
}

function models(db: Database) {
  return staffRoleModels(db.sequelize);
}

function rolesOf(invitation: StaffInvitationInstance): StaffRole[] {
  const listed = invitation.roles.split(',');
  return STAFF_ROLES.filter((role) => listed.includes(role));
}

function inviteLink(config: Pick<Config, 'PUBLIC_URL'>, token: string): string {
  return `${config.PUBLIC_URL}${STAFF_INVITE_PATH}#token=${token}`;
}

function invitationMail(inviter: string, roles: readonly StaffRole[], link: string) {
  const as = staffRolesSentence(roles);
  const text = [
    'Hello,',
    '',
    `${inviter} invited you to the staff pages as ${as}.`,
    `To accept, open this link within ${STAFF_INVITATION_TTL_HOURS} hours and choose your password:`,
    '',
    link,
    '',
    'The link works once. If you did not expect this, ignore this message.',
  ].join('\n');
  const escape = (value: string) =>
    value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html =
    `<p>Hello,</p><p>${escape(inviter)} invited you to the staff pages as ${escape(as)}.` +
    ` To accept, open this link within ${STAFF_INVITATION_TTL_HOURS} hours and choose your password:</p>` +
    `<p><a href="${escape(link)}">Accept the invitation</a></p>` +
    '<p>The link works once. If you did not expect this, ignore this message.</p>';
  return { subject: INVITATION_MAIL_SUBJECT, text, html };
}

async function inviterName(db: Database, userId: number | null): Promise<string | null> {
  return userId === null ? null : nameOf(db, userId);
}

async function toJson(db: Database, row: StaffInvitationInstance): Promise<StaffInvitationJson> {
  return {
    id: row.id,
    email: row.email,
    roles: rolesOf(row),
    invitedBy: await inviterName(db, row.invitedBy),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** Invitations neither used, withdrawn nor expired, newest first. */
export async function listInvitations(db: Database): Promise<StaffInvitationJson[]> {
  const rows = await models(db).StaffInvitation.findAll({
    where: { usedAt: null, revokedAt: null, expiresAt: { [Op.gt]: new Date() } },
    order: [['id', 'DESC']],
  });
  return Promise.all(rows.map((row) => toJson(db, row)));
}

export async function invite(
  deps: { db: Database; config: Pick<Config, 'PUBLIC_URL'> },
  actor: Actor,
  body: unknown,
): Promise<StaffInvitationJson> {
  const { db, config } = deps;
  const { email, roles } = z.object({ email: emailInput, roles: rolesInput }).parse(body);
  const existing = await db.models.User.findOne({ where: { email: normaliseEmail(email) } });
  if (existing !== null) {
    const staff = existing.role === 'staff';
    throw new AppError(
      409,
      staff ? 'already_staff' : 'client_account',
      staff ? ALREADY_STAFF : CLIENT_ACCOUNT,
      {
        email: staff ? ALREADY_STAFF : CLIENT_ACCOUNT,
      },
    );
  }
  const token = newToken();
  const now = new Date();
  const who = await nameOf(db, actor.userId);
  const row = await db.sequelize.transaction(async (transaction) => {
    const { StaffInvitation } = models(db);
    await StaffInvitation.update(
      { revokedAt: now },
      { where: { email, usedAt: null, revokedAt: null }, transaction },
    );
    const created = await StaffInvitation.create(
      {
        email,
        roles: roles.join(','),
        tokenHash: hashToken(token),
        invitedBy: actor.userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + STAFF_INVITATION_TTL_HOURS * 3_600_000),
      },
      { transaction },
    );
    await enqueueMail(
      db,
      { to: email, ...invitationMail(who, roles, inviteLink(config, token)) },
      { transaction },
    );
    await recordSentence(
      db,
      actor,
      {
        action: 'staff_invite',
        entity: 'staff_invitation',
        entityId: created.id,
        sentence: `${who} invited ${email} as ${staffRolesSentence(roles)}.`,
        details: { email, roles },
      },
      transaction,
    );
    return created;
  });
  return toJson(db, row);
}

export async function revokeInvitation(db: Database, actor: Actor, id: number): Promise<void> {
  await db.sequelize.transaction(async (transaction) => {
    const { StaffInvitation } = models(db);
    const row = await StaffInvitation.findOne({ where: { id, usedAt: null, revokedAt: null }, transaction });
    if (row === null) throw new AppError(404, 'not_found', INVITATION_NOT_FOUND);
    await row.update({ revokedAt: new Date() }, { transaction });
    const who = await nameOf(db, actor.userId, transaction);
    await recordSentence(
      db,
      actor,
      {
        action: 'staff_invitation_revoke',
        entity: 'staff_invitation',
        entityId: id,
        sentence: `${who} withdrew the invitation of ${row.email}.`,
      },
      transaction,
    );
  });
}

const tokenInput = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/** The invitation a token names, or the refusal that says why it does not work. */
async function usable(db: Database, body: unknown): Promise<StaffInvitationInstance> {
  const parsed = tokenInput.safeParse(body);
  if (!parsed.success) throw new AppError(404, 'invitation_unknown', INVITATION_UNKNOWN);
  const row = await models(db).StaffInvitation.findOne({
    where: { tokenHash: hashToken(parsed.data.token) },
  });
  if (row === null) throw new AppError(404, 'invitation_unknown', INVITATION_UNKNOWN);
  if (row.usedAt !== null) throw new AppError(410, 'invitation_used', INVITATION_USED);
  if (row.revokedAt !== null) throw new AppError(410, 'invitation_revoked', INVITATION_REVOKED);
  if (row.expiresAt.getTime() <= Date.now())
    throw new AppError(410, 'invitation_expired', INVITATION_EXPIRED);
  return row;
}

export async function lookupInvitation(db: Database, body: unknown): Promise<StaffInvitationLookupJson> {
  const row = await usable(db, body);
  return {
    email: row.email,
    roles: rolesOf(row),
    invitedBy: await inviterName(db, row.invitedBy),
    expiresAt: row.expiresAt.toISOString(),
  };
}

const acceptInput = z.object({
  firstName: requiredText('is required', NAME_MAX),
  lastName: requiredText('is required', NAME_MAX),
  password: z.string({ error: 'is required' }).min(1, 'is required'),
});

/**
 * Accepting: a new staff account with the invitation's address and roles. Whoever is signed in as another
 * account is told to sign out first (the link may have been opened in the wrong browser). The invitation
 * is spent by a conditional update, so two tabs racing with one link make one account.
 */
export async function acceptInvitation(
  db: Database,
  signedIn: SessionUser | undefined,
  ip: string | null,
  body: unknown,
): Promise<{ email: string; roles: StaffRole[] }> {
  const row = await usable(db, body);
  if (signedIn !== undefined && signedIn.email !== row.email)
    throw new AppError(409, 'wrong_account', wrongAccount(row.email));
  const input = acceptInput.parse(body);
  const policy = await newPasswordError(input.password);
  if (policy !== undefined)
    throw new AppError(400, 'validation_failed', 'Some fields are missing or invalid.', { password: policy });
  if ((await db.models.User.findOne({ where: { email: row.email } })) !== null)
    throw new AppError(409, 'account_exists', ACCOUNT_EXISTS);
  const passwordHash = await hashPassword(input.password);
  const roles = rolesOf(row);
  await db.sequelize.transaction(async (transaction) => {
    const now = new Date();
    const [spent] = await models(db).StaffInvitation.update(
      { usedAt: now },
      { where: { id: row.id, usedAt: null, revokedAt: null, expiresAt: { [Op.gt]: now } }, transaction },
    );
    if (spent !== 1) throw new AppError(410, 'invitation_used', INVITATION_USED);
    const user = await db.models.User.create(
      { email: row.email, passwordHash, firstName: input.firstName, lastName: input.lastName, role: 'staff' },
      { transaction },
    );
    await insertRoles(db, user.id, roles, transaction);
    await recordSentence(
      db,
      { userId: user.id, ip },
      {
        action: 'staff_invitation_accept',
        entity: 'staff_invitation',
        entityId: row.id,
        sentence: `${input.firstName} ${input.lastName} accepted the invitation for ${row.email} as ${staffRolesSentence(roles)}.`,
      },
      transaction,
    );
  });
  return { email: row.email, roles };
}

/**
 * Staff management (#33): members, their roles, deactivation, invitations. Owner-only except the
 * invitee's lookup and accept.
 */
export { staffMembersRoutes, TOO_MANY_INVITATION_TRIES } from './routes.js';
export type { StaffMembersDeps } from './routes.js';
export { LAST_OWNER, listMembers, MEMBER_UNKNOWN } from './members.js';
export {
  ACCOUNT_EXISTS,
  ALREADY_STAFF,
  CLIENT_ACCOUNT,
  INVITATION_EXPIRED,
  INVITATION_MAIL_SUBJECT,
  INVITATION_REVOKED,
  INVITATION_UNKNOWN,
  INVITATION_USED,
  wrongAccount,
} from './invitations.js';

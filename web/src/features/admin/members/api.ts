/**
 * Staff management calls (#33, owner only): members, their roles and standing, and pending invitations.
 * Changes need a fresh sign-in; callers wrap them in useConfirmItsYou().withFreshSignIn.
 */
import type { StaffInvitationJson, StaffMemberJson, StaffRole } from '@avp/shared';
import { apiRequest } from '../../../lib/api';

type Members = { members: StaffMemberJson[] };

export const membersApi = {
  members: () => apiRequest<Members>('GET', '/api/staff/members').then((answer) => answer.members),
  setRoles: (id: number, roles: StaffRole[]) =>
    apiRequest<Members>('PUT', `/api/staff/members/${id}/roles`, { roles }).then((answer) => answer.members),
  setActive: (id: number, active: boolean) =>
    apiRequest<Members>('POST', `/api/staff/members/${id}/${active ? 'reactivate' : 'deactivate'}`).then(
      (answer) => answer.members,
    ),
  invitations: () =>
    apiRequest<{ invitations: StaffInvitationJson[] }>('GET', '/api/staff/invitations').then(
      (answer) => answer.invitations,
    ),
  invite: (email: string, roles: StaffRole[]) =>
    apiRequest<{ invitation: StaffInvitationJson }>('POST', '/api/staff/invitations', { email, roles }),
  revoke: (id: number) => apiRequest<void>('DELETE', `/api/staff/invitations/${id}`),
};

export const membersKeys = {
  members: ['staff', 'members'] as const,
  invitations: ['staff', 'invitations'] as const,
};

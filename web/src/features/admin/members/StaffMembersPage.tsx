/**
 * /staff/members (#33, owners only): every staff member with their roles, last sign-in, second-factor
 * state and standing; invitations by e-mail and the pending ones (withdrawable); role changes and
 * deactivation with a confirmation. Every change needs a recent sign-in: the server answers
 * fresh_sign_in_required, "Confirm it's you" asks for the password (and second factor), and the change is
 * sent again. The server's refusals (the last owner kept, an address already taken) are shown in its words.
 */
import {
  staffRolesSentence,
  type StaffInvitationJson,
  type StaffMemberJson,
  type StaffRole,
} from '@avp/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { putQueryData } from '../../../lib/queryData';
import { useConfirmItsYou } from '../../../lib/confirm-its-you';
import { useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { Button, ConfirmDialog } from '../../../ui';
import { useStaffDateTime } from '../queries';
import { membersApi, membersKeys } from './api';
import { InviteDialog, RolesDialog } from './MemberDialogs';
import '../admin.css';
import './members.css';

type Notice = { error: boolean; text: string } | null;
type Asking =
  | { kind: 'invite' }
  | { kind: 'roles'; member: StaffMemberJson }
  | { kind: 'active'; member: StaffMemberJson; active: boolean }
  | { kind: 'revoke'; invitation: StaffInvitationJson }
  | null;

const nameOf = (member: StaffMemberJson) => `${member.firstName} ${member.lastName}`.trim() || member.email;

export function secondFactorText(factor: StaffMemberJson['secondFactor']): string {
  if (factor === null) return 'Unknown';
  const parts: string[] = [];
  if (factor.passkeys > 0) parts.push(factor.passkeys === 1 ? '1 passkey' : `${factor.passkeys} passkeys`);
  if (factor.totp) parts.push('authenticator app');
  if (parts.length === 0) return 'None';
  const text = parts.join(' and ');
  return text[0]!.toUpperCase() + text.slice(1);
}

export default function StaffMembersPage() {
  useDocumentTitle('Staff');
  const queryClient = useQueryClient();
  const me = useSession().user?.id;
  const when = useStaffDateTime();
  const { dialog: confirmItsYou, withFreshSignIn } = useConfirmItsYou();
  const members = useQuery({ queryKey: membersKeys.members, queryFn: membersApi.members });
  const invitations = useQuery({ queryKey: membersKeys.invitations, queryFn: membersApi.invitations });
  const [asking, setAsking] = useState<Asking>(null);
  const [notice, setNotice] = useState<Notice>(null);

  const showMembers = (list: StaffMemberJson[]) => putQueryData(queryClient, membersKeys.members, list);
  const refreshInvitations = () => queryClient.invalidateQueries({ queryKey: membersKeys.invitations });

  /** A change confirmed in a ConfirmDialog: its outcome is said on the page. */
  const change = async (action: () => Promise<unknown>, done: string) => {
    setAsking(null);
    setNotice(null);
    try {
      await withFreshSignIn(action);
      setNotice({ error: false, text: done });
    } catch (error) {
      setNotice({ error: true, text: errorMessage(error) });
    }
  };

  const invite = async (email: string, roles: StaffRole[]) => {
    await withFreshSignIn(() => membersApi.invite(email, roles));
    setAsking(null);
    setNotice({ error: false, text: `Invitation sent to ${email} as ${staffRolesSentence(roles)}.` });
    void refreshInvitations();
  };

  const saveRoles = (member: StaffMemberJson) => async (roles: StaffRole[]) => {
    showMembers(await withFreshSignIn(() => membersApi.setRoles(member.id, roles)));
    setAsking(null);
    setNotice({ error: false, text: `${nameOf(member)} is now ${staffRolesSentence(roles)}.` });
  };

  return (
    <section className="staff-members" aria-labelledby="staff-members-title">
      <div className="staff-heading">
        <h1 id="staff-members-title">Staff</h1>
        <Button onPress={() => setAsking({ kind: 'invite' })}>Invite a staff member</Button>
      </div>
      <div aria-live="polite" role="status">
        {notice && !notice.error ? <p className="staff-status">{notice.text}</p> : null}
      </div>
      {notice?.error ? (
        <p className="staff-error" role="alert">
          {notice.text}
        </p>
      ) : null}

      <h2>Members</h2>
      {members.isPending ? (
        <p role="status">Loading…</p>
      ) : members.isError ? (
        <p className="staff-error" role="alert">
          {errorMessage(members.error)}
        </p>
      ) : (
        <table className="staff-table staff-table--cards">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Roles</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">Second factor</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="staff-members__hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((member) => (
              <tr key={member.id} className={member.deactivatedAt ? 'staff-members__off' : undefined}>
                <td data-label="Name">
                  <div>
                    <strong>{nameOf(member)}</strong>
                    {member.id === me ? ' (you)' : ''}
                    <br />
                    <span className="staff-muted">{member.email}</span>
                  </div>
                </td>
                <td data-label="Roles">{staffRolesSentence(member.roles)}</td>
                <td data-label="Last sign-in">{member.lastSignInAt ? when(member.lastSignInAt) : 'Never'}</td>
                <td data-label="Second factor">{secondFactorText(member.secondFactor)}</td>
                <td data-label="Status">
                  {member.deactivatedAt ? `Deactivated ${when(member.deactivatedAt)}` : 'Active'}
                </td>
                <td data-label="Actions">
                  <div className="staff-actions">
                    <Button
                      variant="secondary"
                      dense
                      aria-label={`Change roles of ${nameOf(member)}`}
                      onPress={() => setAsking({ kind: 'roles', member })}
                    >
                      Change roles
                    </Button>
                    <Button
                      variant="secondary"
                      dense
                      aria-label={`${member.deactivatedAt ? 'Reactivate' : 'Deactivate'} ${nameOf(member)}`}
                      onPress={() => setAsking({ kind: 'active', member, active: !!member.deactivatedAt })}
                    >
                      {member.deactivatedAt ? 'Reactivate' : 'Deactivate'}
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>Pending invitations</h2>
      {invitations.isPending ? (
        <p role="status">Loading…</p>
      ) : invitations.isError ? (
        <p className="staff-error" role="alert">
          {errorMessage(invitations.error)}
        </p>
      ) : invitations.data.length === 0 ? (
        <p className="staff-muted">No pending invitations.</p>
      ) : (
        <table className="staff-table staff-table--cards">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Roles</th>
              <th scope="col">Invited by</th>
              <th scope="col">Link works until</th>
              <th scope="col">
                <span className="staff-members__hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invitations.data.map((invitation) => (
              <tr key={invitation.id}>
                <td data-label="E-mail">{invitation.email}</td>
                <td data-label="Roles">{staffRolesSentence(invitation.roles)}</td>
                <td data-label="Invited by">{invitation.invitedBy ?? '—'}</td>
                <td data-label="Works until">{when(invitation.expiresAt)}</td>
                <td data-label="Actions">
                  <Button
                    variant="secondary"
                    dense
                    aria-label={`Withdraw the invitation of ${invitation.email}`}
                    onPress={() => setAsking({ kind: 'revoke', invitation })}
                  >
                    Withdraw
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {asking?.kind === 'invite' ? <InviteDialog onClose={() => setAsking(null)} invite={invite} /> : null}
      {asking?.kind === 'roles' ? (
        <RolesDialog
          name={nameOf(asking.member)}
          current={asking.member.roles}
          onClose={() => setAsking(null)}
          save={saveRoles(asking.member)}
        />
      ) : null}
      <ConfirmDialog
        isOpen={asking?.kind === 'active'}
        title={
          asking?.kind === 'active'
            ? `${asking.active ? 'Reactivate' : 'Deactivate'} ${nameOf(asking.member)}?`
            : ''
        }
        text={
          asking?.kind === 'active'
            ? asking.active
              ? 'They can sign in again with their password and roles.'
              : 'They are signed out everywhere at once, their desktop uploader is disconnected, and they cannot sign in until reactivated.'
            : ''
        }
        confirmLabel={asking?.kind === 'active' && asking.active ? 'Reactivate' : 'Deactivate'}
        destructive={asking?.kind === 'active' && !asking.active}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          if (asking?.kind !== 'active') return;
          const { member, active } = asking;
          void change(
            async () => showMembers(await membersApi.setActive(member.id, active)),
            `${nameOf(member)} is ${active ? 'reactivated' : 'deactivated'}.`,
          );
        }}
      />
      <ConfirmDialog
        isOpen={asking?.kind === 'revoke'}
        title="Withdraw this invitation?"
        text={asking?.kind === 'revoke' ? `The link sent to ${asking.invitation.email} stops working.` : ''}
        confirmLabel="Withdraw"
        destructive
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          if (asking?.kind !== 'revoke') return;
          const { invitation } = asking;
          void change(async () => {
            await membersApi.revoke(invitation.id);
            await refreshInvitations();
          }, `The invitation of ${invitation.email} is withdrawn.`);
        }}
      />
      {confirmItsYou}
    </section>
  );
}

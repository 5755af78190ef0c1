/**
 * /staff/invite#token=… (#33): where a staff invitation's e-mail leads. It shows the address and roles the
 * owner chose, takes the invitee's name and a password (the registration policy, with its hints), then
 * signs them in and lands on the staff pages. A link that is expired, used, withdrawn or unknown gets the
 * server's words and no form. The token goes to the API in the body of each call.
 */
import {
  passwordPolicyError,
  PASSWORDS_MUST_MATCH,
  staffRolesSentence,
  type StaffInvitationLookupJson,
  type StaffRole,
} from '@avp/shared';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError, apiRequest, errorMessage } from '../../lib/api';
import { useSession, type SignedInBody } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Button, FormPasswordField, FormTextField } from '../../ui';
import './account.css';
import './invite.css';

interface InviteValues {
  firstName: string;
  lastName: string;
  password: string;
  confirmPassword: string;
}

const REQUIRED = 'Please fill in this field.';

const resolver: Resolver<InviteValues> = (values) => {
  const errors: FieldErrors<InviteValues> = {};
  if (values.firstName.trim() === '') errors.firstName = { type: 'required', message: REQUIRED };
  if (values.lastName.trim() === '') errors.lastName = { type: 'required', message: REQUIRED };
  const policy = values.password === '' ? REQUIRED : passwordPolicyError(values.password);
  if (policy) errors.password = { type: 'policy', message: policy };
  if (values.password === '' || values.password !== values.confirmPassword) {
    errors.confirmPassword = { type: 'match', message: PASSWORDS_MUST_MATCH };
  }
  return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
};

/** Refusals that mean the link itself is no good: the form goes, the words stay. */
const DEAD_LINK = new Set([
  'invitation_unknown',
  'invitation_expired',
  'invitation_used',
  'invitation_revoked',
]);

export default function InvitePage() {
  useDocumentTitle('Staff invitation');
  const headingId = useId();
  // The token travels in the fragment (#token=…), so it never reaches a server log.
  const token = new URLSearchParams(useLocation().hash.replace(/^#/, '')).get('token') ?? '';
  const lookup = useQuery({
    queryKey: ['staff-invitation', token],
    queryFn: () =>
      apiRequest<{ invitation: StaffInvitationLookupJson }>('POST', '/api/staff-invitations/lookup', {
        token,
      }).then((answer) => answer.invitation),
    retry: false,
    staleTime: Infinity,
  });
  const [dead, setDead] = useState<string | null>(null);

  let body;
  if (lookup.isPending) body = <p role="status">Loading…</p>;
  else if (lookup.isError || dead !== null) {
    const used = lookup.error instanceof ApiError && lookup.error.code === 'invitation_used';
    body = (
      <div className="account-form account-form--narrow">
        <p className="account-alert" role="alert">
          {dead ?? errorMessage(lookup.error)}
        </p>
        {used || dead !== null ? (
          <p>
            <Link to="/staff">Go to the staff sign-in</Link>
          </p>
        ) : null}
      </div>
    );
  } else body = <AcceptForm token={token} invitation={lookup.data} onDeadLink={setDead} />;

  return (
    <section className="account-page" aria-labelledby={headingId}>
      <h1 id={headingId}>Join the staff</h1>
      {body}
    </section>
  );
}

function AcceptForm({
  token,
  invitation,
  onDeadLink,
}: {
  token: string;
  invitation: StaffInvitationLookupJson;
  onDeadLink: (message: string) => void;
}) {
  const session = useSession();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<InviteValues>({
    resolver,
    defaultValues: { firstName: '', lastName: '', password: '', confirmPassword: '' },
  });
  const wrongAccount = session.user !== null && session.user.email !== invitation.email;

  const submit = handleSubmit(async ({ firstName, lastName, password }) => {
    setFailure(null);
    try {
      await apiRequest<{ email: string; roles: StaffRole[] }>('POST', '/api/staff-invitations/accept', {
        token,
        firstName,
        lastName,
        password,
      });
    } catch (error) {
      if (error instanceof ApiError && DEAD_LINK.has(error.code)) return onDeadLink(error.message);
      if (error instanceof ApiError && error.code === 'validation_failed') {
        let placed = false;
        for (const [name, message] of Object.entries(error.fields)) {
          if (name === 'password' || name === 'firstName' || name === 'lastName') {
            setError(name, { type: 'server', message });
            placed = true;
          }
        }
        if (placed) return;
      }
      setFailure(errorMessage(error));
      return;
    }
    // The account exists now: sign in with the password just chosen and open the staff pages.
    try {
      const signedIn = await apiRequest<SignedInBody & { secondFactorSetupRequired?: boolean }>(
        'POST',
        '/api/auth/login',
        { email: invitation.email, password, requireRole: 'staff' },
      );
      session.signedIn(signedIn);
      if (signedIn.secondFactorSetupRequired) {
        void navigate('/account/security', { state: { factorSetup: true } });
      } else void navigate('/staff');
    } catch (error) {
      setFailure(`Your account is ready, but signing in failed: ${errorMessage(error)}`);
    }
  });

  return (
    <form
      className="account-form account-form--narrow"
      noValidate
      aria-label="Join the staff"
      onSubmit={submit}
    >
      <p>
        {invitation.invitedBy
          ? `${invitation.invitedBy} invited you to the staff pages.`
          : 'You are invited to the staff pages.'}{' '}
        Choose your password to finish.
      </p>
      <dl className="account-invite">
        <dt>E-mail</dt>
        <dd>{invitation.email}</dd>
        <dt>Roles</dt>
        <dd>{staffRolesSentence(invitation.roles)}</dd>
      </dl>
      {wrongAccount ? (
        <div className="account-alert" role="alert">
          <p>
            You are signed in as {session.user?.email}. This invitation is for {invitation.email}.
          </p>
          <Button variant="secondary" onPress={() => void session.signOut()}>
            Sign out
          </Button>
        </div>
      ) : (
        <>
          <div className="kit-form-row">
            <FormTextField
              control={control}
              name="firstName"
              label="First name"
              isRequired
              autoComplete="given-name"
            />
            <FormTextField
              control={control}
              name="lastName"
              label="Last name"
              isRequired
              autoComplete="family-name"
            />
          </div>
          <FormPasswordField control={control} name="password" label="Password" isRequired />
          <FormPasswordField
            control={control}
            name="confirmPassword"
            label="Confirm password"
            isRequired
            hints={() => []}
          />
          {failure ? (
            <p className="account-alert" role="alert">
              {failure}
            </p>
          ) : null}
          <div className="account-actions">
            <Button type="submit" isDisabled={isSubmitting}>
              {isSubmitting ? 'Setting up…' : 'Set password and sign in'}
            </Button>
          </div>
        </>
      )}
    </form>
  );
}

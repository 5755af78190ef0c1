/**
 * The sign-in form (SPEC §5 'Login', §8), shown on /client and, for staff, on /manage_order_forms.
 * Wrong credentials show the spec's text and clear the password; with `requireRole="staff"` a client
 * account is told it is not authorised and no session is created.
 */
import { loginFormSchema, type LoginForm as LoginValues } from '@avp/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button, FormEmailField, FormPasswordField } from '../../ui';
import { ApiError, apiRequest, errorMessage } from '../../lib/api';
import { useSession, type SessionUser, type SignedInBody } from '../../lib/session';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import './account.css';

export interface LoginFormProps {
  /** Called once signed in (the session provider already knows). */
  onSignedIn?: (user: SessionUser) => void;
  /** 'staff': only staff accounts may sign in here (the staff screens). */
  requireRole?: 'staff';
  /** A message shown above the form, e.g. the session-expired notice. */
  notice?: string | null;
  /** The form's heading (default 'Sign in'). */
  title?: string;
}

const EMPTY: LoginValues = { email: '', password: '' };
const FORGOT_HASH = '#forgotPassword';

export default function LoginForm({ onSignedIn, requireRole, notice, title = 'Sign in' }: LoginFormProps) {
  const session = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = useId();
  const {
    control,
    handleSubmit,
    setError,
    setValue,
    setFocus,
    formState: { isSubmitting },
  } = useForm<LoginValues>({ resolver: zodResolver(loginFormSchema), defaultValues: EMPTY });
  const email = useWatch({ control, name: 'email' });
  const location = useLocation();
  const navigate = useNavigate();

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const body = await apiRequest<SignedInBody>('POST', '/api/auth/login', {
        ...values,
        ...(requireRole ? { requireRole } : {}),
      });
      session.signedIn(body);
      onSignedIn?.(body.user);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'validation_failed') {
        for (const [name, message] of Object.entries(error.fields)) {
          if (name === 'email' || name === 'password') setError(name, { type: 'server', message });
        }
        return;
      }
      setFailure(errorMessage(error));
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        // SPEC §8: the password is cleared after a failed sign-in.
        setValue('password', '');
        setFocus('password');
      }
    }
  });

  return (
    <>
      <form
        className="account-form account-form--narrow"
        noValidate
        aria-labelledby={headingId}
        onSubmit={submit}
      >
        <h2 id={headingId}>{title}</h2>
        {notice ? (
          <p className="account-alert" role="alert">
            {notice}
          </p>
        ) : null}
        <FormEmailField control={control} name="email" label="Email" autoComplete="username" isRequired />
        <FormPasswordField
          control={control}
          name="password"
          label="Password"
          autoComplete="current-password"
          isRequired
        />
        {failure ? (
          <p className="account-alert" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="account-actions">
          <Button type="submit" isDisabled={isSubmitting}>
            {isSubmitting ? 'Signing in…' : 'Sign in'}
          </Button>
        </div>
        {requireRole === undefined ? (
          <p className="account-links">
            {/* The dialog opens over this page, so closing it returns to the link, not to another page. */}
            <Link to={{ hash: FORGOT_HASH }}>Forgot Password?</Link>
            <Link to="/register">Create an account</Link>
          </p>
        ) : null}
      </form>
      {/* Outside the form: React events bubble out of a portal, and the dialog's submit is not a sign-in. */}
      {requireRole === undefined ? (
        <ForgotPasswordDialog
          isOpen={location.hash === FORGOT_HASH}
          defaultEmail={email}
          onClose={() => void navigate({ pathname: location.pathname, hash: '' }, { replace: true })}
        />
      ) : null}
    </>
  );
}

/**
 * The sign-in form (SPEC §5 'Login', §8), shown on /client and, for staff, on /manage_order_forms.
 * Wrong credentials show the spec's text and clear the password; with `requireRole="staff"` a client
 * account is told it is not authorised and no session is created.
 */
import { loginFormSchema, type LoginForm as LoginValues } from '@avp/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button, FormEmailField, FormPasswordField } from '../../ui';
import { ApiError, errorMessage } from '../../lib/api';
import { useSession, type SessionUser } from '../../lib/session';
import {
  autofillSupported,
  cancelPasskeyRequest,
  passkeyFailure,
  passkeySignIn,
  passkeysSupported,
  passwordSignIn,
  type FactorSignedIn,
  type PendingSignIn,
} from './factors-api';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import SecondFactorStep from './SecondFactorStep';
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
const NOT_STAFF = 'You are not authorised to use this page.';
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
  const [pending, setPending] = useState<PendingSignIn | null>(null);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  /** The button's request is under way: an autofill request whose challenge comes back meanwhile stays unasked. */
  const buttonPressed = useRef(false);

  /** Signed in by any way (#33): staff the owner requires a factor of are taken to set one up first. */
  const finish = useCallback(
    (body: FactorSignedIn) => {
      if (requireRole === 'staff' && body.user.role !== 'staff') {
        void session.signOut();
        setFailure(NOT_STAFF);
        return;
      }
      session.signedIn(body);
      if (body.secondFactorSetupRequired) {
        void navigate('/account/security', { state: { factorSetup: true } });
        return;
      }
      onSignedIn?.(body.user);
    },
    [navigate, onSignedIn, requireRole, session],
  );

  // The latest `finish`, for the autofill request below (which must not restart at every render).
  const finishRef = useRef(finish);
  useEffect(() => {
    finishRef.current = finish;
  });

  // The browser's autofill offers this site's passkeys in the e-mail field's suggestions, where it can.
  useEffect(() => {
    if (pending !== null || !passkeysSupported()) return undefined;
    let live = true;
    void autofillSupported().then(async (supported) => {
      if (!supported || !live) return;
      try {
        const body = await passkeySignIn(true, () => live && !buttonPressed.current);
        if (live) finishRef.current(body);
      } catch {
        // Cancelled, or replaced by the button or by leaving the page: nothing to say.
      }
    });
    return () => {
      live = false;
      cancelPasskeyRequest();
    };
  }, [pending]);

  const withPasskey = async () => {
    buttonPressed.current = true;
    setFailure(null);
    setPasskeyBusy(true);
    try {
      finish(await passkeySignIn(false));
    } catch (error) {
      setFailure(passkeyFailure(error));
    } finally {
      buttonPressed.current = false;
      setPasskeyBusy(false);
    }
  };

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await passwordSignIn({ ...values, ...(requireRole ? { requireRole } : {}) });
      if ('pending' in answer) {
        setPending(answer.pending);
        return;
      }
      finish(answer.signedIn);
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

  if (pending !== null) {
    return (
      <SecondFactorStep
        pending={pending}
        onSignedIn={finish}
        onRestart={(message) => {
          setPending(null);
          setValue('password', '');
          setFailure(message ?? null);
        }}
      />
    );
  }

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
        <FormEmailField
          control={control}
          name="email"
          label="Email"
          autoComplete="username webauthn"
          isRequired
        />
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
        {passkeysSupported() ? (
          <>
            <p className="account-separator">or</p>
            <div className="account-actions">
              <Button variant="secondary" isDisabled={passkeyBusy} onPress={() => void withPasskey()}>
                {passkeyBusy ? 'Waiting for the passkey…' : 'Sign in with a passkey'}
              </Button>
            </div>
          </>
        ) : null}
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

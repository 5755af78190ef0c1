/**
 * /register (SPEC §2 'Client pages', §5 'Registration'): client registration, or, when signed in, the
 * account update form, where an empty password leaves it unchanged and a new e-mail or password needs the
 * current password (docs/decisions.md). #forgotPassword opens the forgot-password dialog; a taken e-mail
 * offers it through the spec's 'Forgot Password?' link.
 */
import {
  EMAIL_ALREADY_EXISTS,
  passwordPolicyError,
  registrationSchema,
  type ClientUser,
  type RegistrationForm,
  type RegistrationFormInput,
  type RegistrationMode,
} from '@avp/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch, type Path, type Resolver } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button, FormEmailField, FormPasswordField, FormPhoneField, FormTextField } from '../../ui';
import { ApiError, apiRequest, errorMessage } from '../../lib/api';
import { useSession, type SignedInBody } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import './account.css';

const FORGOT_HASH = '#forgotPassword';
const FORGOT_LINK_TEXT = 'Forgot Password?';
/** 'This email already exists. ' — the spec's text before its link. */
const EMAIL_EXISTS_LEAD = EMAIL_ALREADY_EXISTS.slice(0, EMAIL_ALREADY_EXISTS.indexOf(FORGOT_LINK_TEXT));

export const ACCOUNT_CREATED = 'Your account has been created and you are signed in.';
export const ACCOUNT_UPDATED = 'Your account has been updated.';

const EMPTY: RegistrationFormInput = {
  email: '',
  firstname: '',
  lastname: '',
  company: '',
  phone: '',
  password: '',
  confirmPassword: '',
  currentPassword: '',
};

const FIELDS = new Set(Object.keys(EMPTY));

function fetchAccount(): Promise<ClientUser> {
  return apiRequest<ClientUser>('GET', '/api/account');
}

export default function RegisterPage() {
  const { status } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [done, setDone] = useState<string | null>(null);
  const [typedEmail, setTypedEmail] = useState('');
  const mode: RegistrationMode = status === 'signedIn' ? 'update' : 'create';
  useDocumentTitle(mode === 'update' ? 'Your account' : 'Register');

  return (
    <section className="account-page" aria-labelledby="register-title">
      <h1 id="register-title">{mode === 'update' ? 'Your Account' : 'Client Registration'}</h1>
      {status === 'loading' ? (
        <p role="status">Loading…</p>
      ) : (
        <AccountForm key={mode} mode={mode} done={done} onDone={setDone} onEmailChange={setTypedEmail} />
      )}
      <ForgotPasswordDialog
        isOpen={location.hash === FORGOT_HASH}
        defaultEmail={typedEmail}
        onClose={() => void navigate({ pathname: location.pathname, hash: '' }, { replace: true })}
      />
    </section>
  );
}

interface AccountFormProps {
  mode: RegistrationMode;
  /** The last success message; kept by the page so that it survives the switch to the update form. */
  done: string | null;
  onDone: (message: string | null) => void;
  onEmailChange: (email: string) => void;
}

/** Whether the form changes what only the current password may change: the e-mail or the password. */
function needsCurrentPassword(values: Partial<RegistrationFormInput>, storedEmail: string): boolean {
  const email = (values.email ?? '').trim().toLowerCase();
  return values.password !== '' || values.confirmPassword !== '' || email !== storedEmail.toLowerCase();
}

/**
 * The shared schema reports an empty new-account password once, on Confirm ('Passwords must match.'):
 * the Password field itself then says what it lacks too, in the policy's words.
 */
function withEmptyPasswordError(
  base: Resolver<RegistrationFormInput, unknown, RegistrationForm>,
  mode: RegistrationMode,
): Resolver<RegistrationFormInput, unknown, RegistrationForm> {
  return async (values, context, options) => {
    const result = await base(values, context, options);
    if (mode === 'create' && values.password === '' && !result.errors.password) {
      const message = passwordPolicyError('') ?? '';
      return { values: {}, errors: { ...result.errors, password: { type: 'required', message } } };
    }
    return result;
  };
}

function AccountForm({ mode, done, onDone, onEmailChange }: AccountFormProps) {
  const session = useSession();
  /** The account's e-mail as stored: another one in the form is a change of e-mail. */
  const [storedEmail, setStoredEmail] = useState('');
  const schema = useMemo(() => registrationSchema({ mode, currentEmail: storedEmail }), [mode, storedEmail]);
  const resolver = useMemo(() => withEmptyPasswordError(zodResolver(schema), mode), [schema, mode]);
  const doneRef = useRef<HTMLParagraphElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [emailTaken, setEmailTaken] = useState(false);
  const [loading, setLoading] = useState(mode === 'update');
  const [loadFailure, setLoadFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting },
  } = useForm<RegistrationFormInput, unknown, RegistrationForm>({
    resolver,
    defaultValues: EMPTY,
  });

  const email = useWatch({ control, name: 'email' });
  useEffect(() => onEmailChange(email ?? ''), [email, onEmailChange]);
  const [password, confirmPassword] = useWatch({ control, name: ['password', 'confirmPassword'] });
  const currentPasswordNeeded = needsCurrentPassword({ email, password, confirmPassword }, storedEmail);

  const fill = useCallback(
    (account: ClientUser) => {
      setStoredEmail(account.email);
      reset({ ...EMPTY, ...account, password: '', confirmPassword: '', currentPassword: '' });
    },
    [reset],
  );

  useEffect(() => {
    if (mode !== 'update') return;
    fetchAccount().then(
      (account) => {
        fill(account);
        setLoading(false);
      },
      (error: unknown) => {
        setLoadFailure(errorMessage(error));
        setLoading(false);
      },
    );
  }, [mode, fill]);

  const retry = async () => {
    setLoadFailure(null);
    setLoading(true);
    try {
      fill(await fetchAccount());
    } catch (error) {
      setLoadFailure(errorMessage(error));
    } finally {
      setLoading(false);
    }
  };

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    setEmailTaken(false);
    onDone(null);
    try {
      if (mode === 'create') {
        const body = await apiRequest<SignedInBody>('POST', '/api/auth/register', values);
        onDone(ACCOUNT_CREATED);
        session.signedIn(body);
      } else {
        const account = await apiRequest<ClientUser>('PUT', '/api/account', values);
        fill(account);
        onDone(ACCOUNT_UPDATED);
        // The name shown as 'Logged in as' may have changed.
        void session.refresh();
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'email_taken') {
        setEmailTaken(true);
        return;
      }
      if (error instanceof ApiError && error.code === 'validation_failed') {
        const unplaced: string[] = [];
        for (const [name, message] of Object.entries(error.fields)) {
          if (FIELDS.has(name)) setError(name as Path<RegistrationFormInput>, { type: 'server', message });
          else unplaced.push(message);
        }
        if (unplaced.length > 0) setFailure(unplaced.join(' '));
        return;
      }
      setFailure(errorMessage(error));
    }
  });

  // On a phone the outcome is far above the button: bring it into view and move focus to it, as the upload
  // form does, so that Register and Update account visibly answer.
  useEffect(() => {
    if (!done || loading) return;
    doneRef.current?.scrollIntoView({ block: 'center' });
    doneRef.current?.focus();
  }, [done, loading]);

  if (loading) return <p role="status">Loading your details…</p>;
  if (loadFailure) {
    return (
      <div className="account-form">
        <p className="account-alert" role="alert">
          {loadFailure}
        </p>
        <Button onPress={() => void retry()}>Try again</Button>
      </div>
    );
  }

  const update = mode === 'update';
  return (
    <form
      className="account-form"
      noValidate
      aria-label={update ? 'Account details' : 'Registration'}
      onSubmit={(event) => {
        // A new attempt: the last success no longer describes the form, even if this one is refused here.
        onDone(null);
        void submit(event);
      }}
    >
      {done ? (
        <p className="account-success" role="status" tabIndex={-1} ref={doneRef}>
          {done}
          {done === ACCOUNT_CREATED ? (
            <>
              {' '}
              <Link to="/client">Go to the file upload utility</Link>
            </>
          ) : null}
        </p>
      ) : null}
      <FormEmailField control={control} name="email" label="Email" isRequired autoComplete="email" />
      {emailTaken ? (
        <p className="account-alert" role="alert">
          {EMAIL_EXISTS_LEAD}
          <Link to={{ hash: FORGOT_HASH }}>{FORGOT_LINK_TEXT}</Link>
        </p>
      ) : null}
      <div className="kit-form-row">
        <FormTextField
          control={control}
          name="firstname"
          label="First name"
          isRequired
          autoComplete="given-name"
        />
        <FormTextField
          control={control}
          name="lastname"
          label="Last name"
          isRequired
          autoComplete="family-name"
        />
        <FormTextField
          control={control}
          name="company"
          label="Company"
          isRequired
          autoComplete="organization"
        />
        <FormPhoneField
          control={control}
          name="phone"
          label="Phone"
          isRequired
          description="As (xxx)-xxx-xxxx, for example (555)-123-4567."
        />
        <FormPasswordField
          control={control}
          name="password"
          label={update ? 'New password' : 'Password'}
          isRequired={!update}
          description={update ? 'Leave empty to keep your current password.' : 'At least 8 characters.'}
        />
        <FormPasswordField
          control={control}
          name="confirmPassword"
          label={update ? 'Confirm new password' : 'Confirm password'}
          isRequired={!update}
          hints={() => []}
        />
        {update ? (
          <FormPasswordField
            control={control}
            name="currentPassword"
            label="Current password"
            autoComplete="current-password"
            isRequired={currentPasswordNeeded}
            description="Needed to change your email or password."
          />
        ) : null}
      </div>
      {failure ? (
        <p className="account-alert" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="account-actions">
        <Button type="submit" isDisabled={isSubmitting}>
          {update ? 'Update account' : 'Register'}
        </Button>
      </div>
      {update ? null : (
        <p className="account-links">
          Already registered? <Link to="/client">Sign in</Link>
        </p>
      )}
    </form>
  );
}

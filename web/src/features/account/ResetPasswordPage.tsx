/**
 * /reset_password#token=...: the page the forgot-password e-mail links to. It sets a new password (the
 * same policy as registration, with the password hints) and the server ends every other session of the
 * account. The token travels in the fragment, so it never reaches a server log.
 */
import { passwordPolicyError, PASSWORDS_MUST_MATCH } from '@avp/shared';
import { useId, useState } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import { Button, FormPasswordField } from '../../ui';
import { ApiError, apiRequest, errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import './account.css';

interface ResetValues {
  password: string;
  confirmPassword: string;
}

export const RESET_LINK_INCOMPLETE =
  'This password reset link is incomplete. Please open the link from the e-mail again, or ask for a new one.';

/** The registration rules for a new password (shared), as a react-hook-form resolver. */
const resolver: Resolver<ResetValues> = (values) => {
  const errors: FieldErrors<ResetValues> = {};
  const policy = values.password === '' ? undefined : passwordPolicyError(values.password);
  if (policy) errors.password = { type: 'policy', message: policy };
  if (values.password === '' || values.password !== values.confirmPassword) {
    errors.confirmPassword = { type: 'match', message: PASSWORDS_MUST_MATCH };
  }
  return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
};

export default function ResetPasswordPage() {
  useDocumentTitle('Reset password');
  const location = useLocation();
  const token = new URLSearchParams(location.hash.replace(/^#/, '')).get('token') ?? '';
  const headingId = useId();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ message: string; linkDead: boolean } | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useForm<ResetValues>({ resolver, defaultValues: { password: '', confirmPassword: '' } });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await apiRequest<{ message: string }>('POST', '/api/auth/reset-password', {
        token,
        ...values,
      });
      setDone(answer.message);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'validation_failed') {
        let placed = false;
        for (const [name, message] of Object.entries(error.fields)) {
          if (name === 'password' || name === 'confirmPassword') {
            setError(name, { type: 'server', message });
            placed = true;
          }
        }
        if (placed) return;
      }
      setFailure({
        message: errorMessage(error),
        linkDead:
          error instanceof ApiError && (error.code === 'invalid_reset_token' || 'token' in error.fields),
      });
    }
  });

  return (
    <section className="account-page" aria-labelledby={headingId}>
      <h1 id={headingId}>Reset Password</h1>
      {done ? (
        <div className="account-form account-form--narrow">
          <p className="account-success" role="status">
            {done}
          </p>
          <p>
            <Link to="/client">Sign in</Link>
          </p>
        </div>
      ) : token === '' ? (
        <div className="account-form account-form--narrow">
          <p className="account-alert" role="alert">
            {RESET_LINK_INCOMPLETE}
          </p>
          <p>
            <Link to="/register#forgotPassword">Ask for a new link</Link>
          </p>
        </div>
      ) : (
        <form
          className="account-form account-form--narrow"
          noValidate
          aria-label="New password"
          onSubmit={submit}
        >
          <FormPasswordField control={control} name="password" label="New password" isRequired />
          <FormPasswordField
            control={control}
            name="confirmPassword"
            label="Confirm new password"
            isRequired
            hints={() => []}
          />
          {failure ? (
            <p className="account-alert" role="alert">
              {failure.message}{' '}
              {failure.linkDead ? <Link to="/register#forgotPassword">Ask for a new link</Link> : null}
            </p>
          ) : null}
          <div className="account-actions">
            <Button type="submit" isDisabled={isSubmitting}>
              Set new password
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

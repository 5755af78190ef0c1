/**
 * The second step of a password sign-in (#33): the password was right and the account has two-step
 * sign-in or (staff) a passkey. A code from the authenticator app or a recovery code finishes it, or the
 * passkey. The pending sign-in lasts five minutes; after that the password is asked again.
 */
import { useId, useState } from 'react';
import { Button, TextField } from '../../ui';
import { ApiError, errorMessage } from '../../lib/api';
import {
  finishWithCode,
  finishWithPasskey,
  passkeyFailure,
  passkeysSupported,
  type FactorSignedIn,
  type PendingSignIn,
} from './factors-api';
import './account.css';

export const SECOND_STEP_TITLE = 'Two-step sign-in';

export interface SecondFactorStepProps {
  pending: PendingSignIn;
  onSignedIn: (body: FactorSignedIn) => void;
  /** Back to the password (the pending sign-in ran out, or the person chose to). */
  onRestart: (message?: string) => void;
}

export default function SecondFactorStep({ pending, onSignedIn, onRestart }: SecondFactorStepProps) {
  const headingId = useId();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { methods } = pending;
  const codes = methods.totp || methods.recoveryCode;

  const failed = (error: unknown, passkey: boolean) => {
    if (error instanceof ApiError && error.code === 'pending_sign_in_expired') {
      onRestart(error.message);
      return;
    }
    if (!passkey && error instanceof ApiError && error.fields.code !== undefined) {
      setCodeError(error.fields.code);
      return;
    }
    setFailure(passkey ? passkeyFailure(error) : errorMessage(error));
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (code.trim() === '') {
      setCodeError('Please enter a code.');
      return;
    }
    setCodeError(undefined);
    setBusy(true);
    try {
      onSignedIn(await finishWithCode(pending.pendingToken, code.trim()));
    } catch (error) {
      failed(error, false);
    } finally {
      setBusy(false);
    }
  };

  const confirmWithPasskey = async () => {
    setFailure(null);
    setBusy(true);
    try {
      onSignedIn(await finishWithPasskey(pending.pendingToken));
    } catch (error) {
      failed(error, true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="account-form account-form--narrow"
      noValidate
      aria-labelledby={headingId}
      onSubmit={(event) => void submit(event)}
    >
      <h2 id={headingId}>{SECOND_STEP_TITLE}</h2>
      <p>
        {codes
          ? 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.'
          : 'Confirm with your passkey to finish signing in.'}
      </p>
      {codes ? (
        <>
          <TextField
            label="Code"
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
            errorMessage={codeError}
            maxLength={20}
            isRequired
          />
          <div className="account-actions">
            <Button type="submit" isDisabled={busy}>
              {busy ? 'Checking…' : 'Continue'}
            </Button>
          </div>
        </>
      ) : null}
      {methods.passkey && passkeysSupported() ? (
        <div className="account-actions">
          <Button
            variant={codes ? 'secondary' : 'primary'}
            isDisabled={busy}
            onPress={() => void confirmWithPasskey()}
          >
            Use your passkey
          </Button>
        </div>
      ) : null}
      {failure ? (
        <p className="account-alert" role="alert">
          {failure}
        </p>
      ) : null}
      <p className="account-links">
        <Button variant="secondary" onPress={() => onRestart()}>
          Back to the password
        </Button>
      </p>
    </form>
  );
}

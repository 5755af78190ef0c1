/**
 * "Confirm it's you" (#33 fresh sign-in), in lib because every feature may need it (staff management,
 * refunds, one's own passkeys): actions that need a recent sign-in (staff management, one's own
 * passkeys and two-step sign-in, large refunds) answer 403 fresh_sign_in_required when the last proof is
 * older than FRESH_SIGN_IN_MINUTES. `useConfirmItsYou().withFreshSignIn(action)` runs the action, and on
 * that answer opens this dialog (password, plus the authenticator code when the account has one, or a
 * passkey) and runs the action once more after a success. Cancelled, the action's own error stands.
 */
import { useCallback, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { Button, TextField } from '../ui';
import { ApiError, apiRequest, errorMessage } from './api';
import './confirm-its-you.css';

/** The API's refusal of an action that needs a recent sign-in. */
export const isFreshSignInRequired = (error: unknown): boolean =>
  error instanceof ApiError && error.code === 'fresh_sign_in_required';

/** Fresh sign-in with a password (and a code when the account has two-step sign-in). */
const reauthenticateWithPassword = (password: string, code?: string) =>
  apiRequest<{ freshUntil: string }>('POST', '/api/accounts/reauthenticate', {
    password,
    ...(code ? { code } : {}),
  });

async function reauthenticateWithPasskey(): Promise<void> {
  const optionsJSON = await apiRequest<PublicKeyCredentialRequestOptionsJSON>(
    'POST',
    '/api/accounts/reauthenticate/options',
  );
  const credential = await startAuthentication({ optionsJSON });
  await apiRequest('POST', '/api/accounts/reauthenticate', { credential });
}

function passkeyFailure(error: unknown): string {
  if (error instanceof ApiError) return errorMessage(error);
  return 'The passkey was not used. Please try again.';
}

export const CONFIRM_TITLE = "Confirm it's you";

interface ConfirmProps {
  isOpen: boolean;
  onDone: (confirmed: boolean) => void;
}

export function ConfirmItsYouDialog({ isOpen, onDone }: ConfirmProps) {
  return (
    <ModalOverlay
      className="kit-overlay"
      isOpen={isOpen}
      isDismissable
      onOpenChange={(open) => {
        if (!open) onDone(false);
      }}
    >
      <Modal className="kit-modal">
        <Dialog className="kit-dialog">
          <Heading slot="title" className="kit-dialog__title">
            {CONFIRM_TITLE}
          </Heading>
          <ConfirmForm onDone={onDone} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function ConfirmForm({ onDone }: { onDone: (confirmed: boolean) => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setErrors({});
    if (password === '') {
      setErrors({ password: 'Please enter your password.' });
      return;
    }
    setBusy(true);
    try {
      await reauthenticateWithPassword(password, needsCode ? code.trim() : undefined);
      onDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.fields.code !== undefined) {
        setNeedsCode(true);
        if (needsCode) setErrors({ code: error.fields.code });
      } else if (error instanceof ApiError && error.fields.password !== undefined) {
        setErrors({ password: error.fields.password });
      } else {
        setFailure(errorMessage(error));
      }
    } finally {
      setBusy(false);
    }
  };

  const confirmWithPasskey = async () => {
    setFailure(null);
    setBusy(true);
    try {
      await reauthenticateWithPasskey();
      onDone(true);
    } catch (error) {
      setFailure(passkeyFailure(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label={CONFIRM_TITLE}>
      <div className="kit-dialog__body">
        <p>For your security, please confirm it&apos;s you to continue.</p>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          errorMessage={errors.password}
          isRequired
        />
        {needsCode ? (
          <TextField
            label="Code from your authenticator app, or a recovery code"
            autoComplete="one-time-code"
            inputMode="text"
            value={code}
            onChange={setCode}
            errorMessage={errors.code}
            isRequired
          />
        ) : null}
        {failure ? (
          <p className="confirm-alert" role="alert">
            {failure}
          </p>
        ) : null}
      </div>
      <div className="kit-dialog__actions confirm-actions">
        <Button variant="secondary" onPress={() => onDone(false)}>
          Cancel
        </Button>
        {browserSupportsWebAuthn() ? (
          <Button variant="secondary" onPress={() => void confirmWithPasskey()} isDisabled={busy}>
            Use a passkey
          </Button>
        ) : null}
        <Button type="submit" isDisabled={busy}>
          {busy ? 'Checking…' : 'Confirm'}
        </Button>
      </div>
    </form>
  );
}

/** The dialog and a wrapper that asks for a fresh sign-in when an action needs one. */
export function useConfirmItsYou(): {
  dialog: ReactNode;
  withFreshSignIn: <T>(action: () => Promise<T>) => Promise<T>;
} {
  const [open, setOpen] = useState(false);
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);

  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setOpen(true);
      }),
    [],
  );

  const withFreshSignIn = useCallback(
    async <T,>(action: () => Promise<T>): Promise<T> => {
      try {
        return await action();
      } catch (error) {
        if (!isFreshSignInRequired(error)) throw error;
        if (!(await ask())) throw error;
        return action();
      }
    },
    [ask],
  );

  const dialog = (
    <ConfirmItsYouDialog
      isOpen={open}
      onDone={(confirmed) => {
        setOpen(false);
        resolver.current?.(confirmed);
        resolver.current = null;
      }}
    />
  );
  return { dialog, withFreshSignIn };
}

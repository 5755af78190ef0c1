/**
 * The forgot-password dialog (SPEC §4, §5, §8): a non-empty e-mail; the server's answer is shown, the same
 * whether or not the address has an account, and the dialog closes 4 s after success; a server error
 * shows the server's own text.
 */
import {
  FORGOT_PASSWORD_CLOSE_MS,
  forgotPasswordSchema,
  type ForgotPasswordForm as ForgotValues,
} from '@avp/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button, FormEmailField } from '../../ui';
import { apiRequest, errorMessage } from '../../lib/api';

export interface ForgotPasswordDialogProps {
  isOpen: boolean;
  onClose: () => void;
  /** Prefills the address (the one typed into the registration form). */
  defaultEmail?: string;
}

export const FORGOT_PASSWORD_TITLE = 'Forgot Password';

export function ForgotPasswordDialog({ isOpen, onClose, defaultEmail = '' }: ForgotPasswordDialogProps) {
  return (
    <ModalOverlay
      className="kit-overlay"
      isOpen={isOpen}
      isDismissable
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Modal className="kit-modal">
        <Dialog className="kit-dialog">
          <Heading slot="title" className="kit-dialog__title">
            {FORGOT_PASSWORD_TITLE}
          </Heading>
          {/* Mounted only while open, so every opening starts with a fresh form. */}
          <ForgotPasswordForm onClose={onClose} defaultEmail={defaultEmail} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function ForgotPasswordForm({ onClose, defaultEmail }: { onClose: () => void; defaultEmail: string }) {
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The latest onClose, for the timer below (a parent re-rendering must not restart the 4 s).
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  const {
    control,
    handleSubmit,
    formState: { isSubmitting },
  } = useForm<ForgotValues>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: defaultEmail },
  });

  useEffect(() => {
    if (sent === null) return undefined;
    const timer = setTimeout(() => closeRef.current(), FORGOT_PASSWORD_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [sent]);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await apiRequest<{ message: string }>('POST', '/api/auth/forgot-password', values);
      setSent(answer.message);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  });

  if (sent !== null) {
    return (
      <>
        <p className="account-success" role="status">
          {sent}
        </p>
        <div className="kit-dialog__actions">
          <Button onPress={onClose}>Close</Button>
        </div>
      </>
    );
  }
  return (
    <form noValidate onSubmit={submit} aria-label={FORGOT_PASSWORD_TITLE}>
      <div className="kit-dialog__body">
        <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
        <FormEmailField control={control} name="email" label="Email" autoComplete="username" isRequired />
        {failure ? (
          <p className="account-alert" role="alert">
            {failure}
          </p>
        ) : null}
      </div>
      <div className="kit-dialog__actions">
        <Button variant="secondary" onPress={onClose}>
          Cancel
        </Button>
        <Button type="submit" isDisabled={isSubmitting}>
          {isSubmitting ? 'Sending…' : 'Send'}
        </Button>
      </div>
    </form>
  );
}

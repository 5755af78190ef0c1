/**
 * The staff page's two forms in dialogs: inviting someone by e-mail with their roles, and changing a
 * member's roles. Both send through `run`, which asks for a fresh sign-in when the server wants one.
 */
import { isValidEmail, type StaffRole } from '@avp/shared';
import { useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { errorMessage } from '../../../lib/api';
import { Button, TextField } from '../../../ui';
import { CHOOSE_A_ROLE, RolesField } from './RolesField';

export const INVITE_TITLE = 'Invite a staff member';

function DialogFrame({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: React.ReactNode;
}) {
  return (
    <ModalOverlay
      className="kit-overlay"
      isOpen
      isDismissable
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Modal className="kit-modal staff-modal staff-modal--narrow">
        <Dialog className="kit-dialog staff-dialog">
          <Heading slot="title" className="kit-dialog__title staff-dialog__title">
            {title}
          </Heading>
          {children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** Sends the form's action; a refusal stays in the dialog, in the server's words. */
function useSend(run: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const send = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await run();
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, send };
}

export function InviteDialog({
  onClose,
  invite,
}: {
  onClose: () => void;
  /** Sends the invitation (with a fresh sign-in when asked); throws the server's refusal. */
  invite: (email: string, roles: StaffRole[]) => Promise<void>;
}) {
  const [email, setEmail] = useState('');
  const [roles, setRoles] = useState<StaffRole[]>([]);
  const [errors, setErrors] = useState<{ email?: string; roles?: string }>({});
  const { busy, failure, send } = useSend(() => invite(email.trim(), roles));
  return (
    <DialogFrame title={INVITE_TITLE} onClose={onClose}>
      <form
        className="staff-dialog__form"
        noValidate
        aria-label={INVITE_TITLE}
        onSubmit={(event) => {
          event.preventDefault();
          const found: typeof errors = {};
          if (email.trim() === '') found.email = 'Please enter an e-mail address.';
          else if (!isValidEmail(email.trim())) found.email = 'Please enter a valid e-mail address.';
          if (roles.length === 0) found.roles = CHOOSE_A_ROLE;
          setErrors(found);
          if (Object.keys(found).length === 0) void send();
        }}
      >
        <div className="staff-dialog__body">
          <p className="staff-muted">
            They get an e-mail with a link to set their password. The link works once, for 72 hours.
          </p>
          <TextField
            label="E-mail"
            type="email"
            autoComplete="off"
            isRequired
            value={email}
            onChange={(value) => {
              setEmail(value);
              setErrors(({ roles: rolesError }) => ({ roles: rolesError }));
            }}
            errorMessage={errors.email}
          />
          <RolesField
            value={roles}
            onChange={(value) => {
              setRoles(value);
              setErrors(({ email: emailError }) => ({ email: emailError }));
            }}
            error={errors.roles}
          />
          {failure ? (
            <p className="staff-error" role="alert">
              {failure}
            </p>
          ) : null}
        </div>
        <div className="staff-dialog__actions staff-actions">
          <Button type="submit" isDisabled={busy}>
            {busy ? 'Sending…' : 'Send invitation'}
          </Button>
          <Button variant="secondary" onPress={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </DialogFrame>
  );
}

export function RolesDialog({
  name,
  current,
  onClose,
  save,
}: {
  name: string;
  current: readonly StaffRole[];
  onClose: () => void;
  save: (roles: StaffRole[]) => Promise<void>;
}) {
  const [roles, setRoles] = useState<StaffRole[]>([...current]);
  const [missing, setMissing] = useState(false);
  const { busy, failure, send } = useSend(() => save(roles));
  const title = `Roles of ${name}`;
  return (
    <DialogFrame title={title} onClose={onClose}>
      <form
        className="staff-dialog__form"
        noValidate
        aria-label={title}
        onSubmit={(event) => {
          event.preventDefault();
          setMissing(roles.length === 0);
          if (roles.length > 0) void send();
        }}
      >
        <div className="staff-dialog__body">
          <RolesField
            value={roles}
            onChange={(value) => {
              setRoles(value);
              setMissing(false);
            }}
            error={missing ? CHOOSE_A_ROLE : null}
          />
          {failure ? (
            <p className="staff-error" role="alert">
              {failure}
            </p>
          ) : null}
        </div>
        <div className="staff-dialog__actions staff-actions">
          <Button type="submit" isDisabled={busy}>
            {busy ? 'Saving…' : 'Save roles'}
          </Button>
          <Button variant="secondary" onPress={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </DialogFrame>
  );
}

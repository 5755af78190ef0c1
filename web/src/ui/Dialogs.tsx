/**
 * The site's modal dialogs (react-aria ModalOverlay + Dialog: focus is trapped inside, restored on close,
 * Escape closes). MessageDialog is SPEC §2's 'modal message dialog with a Continue button';
 * ConfirmDialog asks before an action (title, text, confirm and cancel labels).
 */
import { CONTINUE } from '@avp/shared';
import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './Button';

export interface MessageDialogProps {
  isOpen: boolean;
  /** Continue, Escape or a click outside. */
  onClose: () => void;
  title?: ReactNode;
  children: ReactNode;
  continueLabel?: string;
}

export function MessageDialog({
  isOpen,
  onClose,
  title,
  children,
  continueLabel = CONTINUE,
}: MessageDialogProps) {
  return (
    <ModalOverlay
      className="kit-overlay"
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      isDismissable
    >
      <Modal className="kit-modal">
        <Dialog className="kit-dialog" aria-label={title ? undefined : 'Message'}>
          {title ? (
            <Heading slot="title" className="kit-dialog__title">
              {title}
            </Heading>
          ) : null}
          <div className="kit-dialog__body">{children}</div>
          <div className="kit-dialog__actions">
            <Button autoFocus onPress={onClose}>
              {continueLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

export interface ConfirmDialogProps {
  isOpen: boolean;
  title: ReactNode;
  text: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  /** Cancel or Escape. */
  onCancel: () => void;
  /** Marks the confirm button as destructive (delete, archive). */
  destructive?: boolean;
}

export function ConfirmDialog({
  isOpen,
  title,
  text,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  onCancel,
  destructive = false,
}: ConfirmDialogProps) {
  return (
    <ModalOverlay
      className="kit-overlay"
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
    >
      <Modal className="kit-modal">
        <Dialog className="kit-dialog" role="alertdialog">
          <Heading slot="title" className="kit-dialog__title">
            {title}
          </Heading>
          <div className="kit-dialog__body">{text}</div>
          <div className="kit-dialog__actions">
            {/* The safe choice takes the focus first. */}
            <Button variant="secondary" autoFocus onPress={onCancel}>
              {cancelLabel}
            </Button>
            <Button className={destructive ? 'kit-button--danger' : undefined} onPress={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

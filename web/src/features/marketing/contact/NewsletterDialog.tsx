/**
 * The Hot Trends sign-up dialog (SPEC §2 /hottrends): the contact form in newsletter mode inside a modal.
 * The kit has message and confirm dialogs but no dialog that holds a form, so this one is composed here from
 * the same react-aria parts and the kit's dialog styles.
 */
import { useId } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from '../../../ui';
import ContactForm from './ContactForm';

export interface NewsletterDialogProps {
  isOpen: boolean;
  onClose: () => void;
}

export default function NewsletterDialog({ isOpen, onClose }: NewsletterDialogProps) {
  const titleId = useId();
  return (
    <ModalOverlay
      className="kit-overlay"
      isOpen={isOpen}
      isDismissable
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Modal className="kit-modal newsletter-modal">
        <Dialog className="kit-dialog" aria-labelledby={titleId}>
          <Heading slot="title" id={titleId} className="kit-dialog__title">
            Sign up for Hot Trends
          </Heading>
          <p className="newsletter-modal__intro">
            One short e-mail a month on event technology: what worked on stage, in hybrid meetings and on the
            show floor. No sales pitches, and you can unsubscribe from any issue.
          </p>
          <ContactForm variant="newsletter" labelledBy={titleId} />
          <div className="kit-dialog__actions">
            <Button variant="secondary" onPress={onClose}>
              Close
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

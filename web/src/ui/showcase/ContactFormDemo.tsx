/**
 * The kit inside a real form: react-hook-form with the shared contact schema (SPEC §5 'Contact form'),
 * so the messages shown are the spec's own.
 */
import { CONTACT_MESSAGE_MAX, contactFormSchema, type ContactForm, type ContactFormInput } from '@avp/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../Button';
import { MessageDialog } from '../Dialogs';
import { FormEmailField, FormPhoneField, FormTextArea, FormTextField } from '../form/bindings';

const EMPTY: ContactFormInput = {
  firstname: '',
  lastname: '',
  email: '',
  phone: '',
  company: '',
  title: '',
  message: '',
};

export function ContactFormDemo({ onValid }: { onValid?: (message: ContactForm) => void }) {
  const { control, handleSubmit, reset } = useForm<ContactFormInput, unknown, ContactForm>({
    resolver: zodResolver(contactFormSchema),
    defaultValues: EMPTY,
    mode: 'onTouched',
  });
  const [sent, setSent] = useState<ContactForm | null>(null);

  return (
    <form
      noValidate
      aria-label="Contact form example"
      onSubmit={handleSubmit((message) => {
        setSent(message);
        onValid?.(message);
      })}
    >
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
        <FormEmailField control={control} name="email" label="E-mail" isRequired />
        <FormPhoneField
          control={control}
          name="phone"
          label="Phone"
          description="Optional, e.g. (555) 123-4567"
        />
        <FormTextField control={control} name="company" label="Company" autoComplete="organization" />
        <FormTextField control={control} name="title" label="Title" autoComplete="organization-title" />
      </div>
      <FormTextArea control={control} name="message" label="Message" isRequired limit={CONTACT_MESSAGE_MAX} />
      <Button type="submit">Send</Button>
      <MessageDialog
        isOpen={sent !== null}
        title="Message sent"
        onClose={() => {
          setSent(null);
          reset(EMPTY);
        }}
      >
        Thank you, {sent?.firstname}. (Example only: nothing was sent.)
      </MessageDialog>
    </form>
  );
}

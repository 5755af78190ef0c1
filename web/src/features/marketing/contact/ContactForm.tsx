/**
 * The contact form of SPEC §2, §4 and §5 on the widget kit and the shared schema: two columns with the
 * form gutter, a hidden subject, the spec's messages, and in newsletter mode ('blog mode') no message field.
 * Submitting first clears the previous errors; the form then shows 'sending' and 'sent'; the confirmation
 * fades after 3 s and the fields clear after 3 s. A failed send opens a message dialog with Continue and
 * keeps what was typed, so the visitor can try again.
 */
import {
  CONTACT_CLEAR_MS,
  CONTACT_CONFIRMATION_FADE_MS,
  CONTACT_MESSAGE_MAX,
  CONTACT_SUBJECT,
  contactFormSchemaFor,
  NEWSLETTER_SUBJECT,
  type ContactForm as ContactFormValues,
  type ContactFormInput,
  type ContactFormVariant,
} from '@avp/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  Button,
  Checkbox,
  FormEmailField,
  FormPhoneField,
  FormTextArea,
  FormTextField,
  MessageDialog,
} from '../../../ui';
import { submitContact } from './api';

const EMPTY: ContactFormInput = {
  firstname: '',
  lastname: '',
  email: '',
  phone: '',
  company: '',
  title: '',
  message: '',
};

type Phase = 'idle' | 'sending' | 'sent';

export interface ContactFormProps {
  variant?: ContactFormVariant;
  /** The id of the heading that names this form. */
  labelledBy?: string;
  /** Called once the server has accepted the submission. */
  onSent?: () => void;
}

export default function ContactForm({ variant = 'contact', labelledBy, onSent }: ContactFormProps) {
  const newsletter = variant === 'newsletter';
  const schema = useMemo(() => contactFormSchemaFor(variant), [variant]);
  const { control, handleSubmit, reset, clearErrors, setError, getValues } = useForm<
    ContactFormInput,
    unknown,
    ContactFormValues
  >({
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const [phase, setPhase] = useState<Phase>('idle');
  const [confirmation, setConfirmation] = useState<{ text: string; fading: boolean } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [optIn, setOptIn] = useState(false);
  const [trap, setTrap] = useState('');
  const timers = useRef<number[]>([]);
  const idPrefix = useId();

  useEffect(() => () => timers.current.forEach((t) => window.clearTimeout(t)), []);

  const later = (ms: number, run: () => void) => {
    timers.current.push(window.setTimeout(run, ms));
  };

  const send = async (values: ContactFormValues) => {
    setPhase('sending');
    const result = await submitContact({
      ...values,
      subject: newsletter ? NEWSLETTER_SUBJECT : CONTACT_SUBJECT,
      hottrends: newsletter || optIn ? 'YES' : 'NO',
      message: newsletter ? '' : values.message,
      variant,
      website: trap,
    });
    if (!result.ok) {
      setPhase('idle');
      const fields = Object.entries(result.fields ?? {}).filter(([name]) => name in EMPTY);
      if (fields.length > 0) {
        for (const [name, message] of fields) setError(name as keyof ContactFormInput, { message });
      } else {
        setFailure(result.message);
      }
      return;
    }
    setPhase('sent');
    const first = getValues('firstname').trim();
    setConfirmation({
      text: newsletter
        ? `Thank you, ${first}. You are signed up for Hot Trends.`
        : `Thank you, ${first}. Your message is on its way; a producer will answer within one business day.`,
      fading: false,
    });
    onSent?.();
    later(CONTACT_CONFIRMATION_FADE_MS, () => setConfirmation((c) => (c ? { ...c, fading: true } : c)));
    later(CONTACT_CONFIRMATION_FADE_MS + 600, () => setConfirmation(null));
    later(CONTACT_CLEAR_MS, () => {
      reset(EMPTY);
      setOptIn(false);
      setPhase('idle');
    });
  };

  return (
    <form
      className="contact-form"
      noValidate
      aria-labelledby={labelledBy}
      aria-busy={phase === 'sending'}
      onSubmit={(event) => {
        if (phase !== 'idle') {
          event.preventDefault();
          return;
        }
        // SPEC §4: a submit begins by clearing the previous error styling and messages.
        clearErrors();
        void handleSubmit(send)(event);
      }}
    >
      <input type="hidden" name="subject" value={newsletter ? NEWSLETTER_SUBJECT : CONTACT_SUBJECT} />
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
          description="Optional, e.g. (312) 555-0142"
        />
        <FormTextField control={control} name="company" label="Company" autoComplete="organization" />
        <FormTextField control={control} name="title" label="Title" autoComplete="organization-title" />
      </div>
      {newsletter ? null : (
        <FormTextArea
          control={control}
          name="message"
          label="Message"
          isRequired
          limit={CONTACT_MESSAGE_MAX}
          description="Dates, city, number of attendees: whatever you know so far."
        />
      )}
      {newsletter ? null : (
        <Checkbox
          label="Also send me the Hot Trends newsletter"
          value={optIn}
          onChange={setOptIn}
          name="hottrends"
        />
      )}
      <div className="contact-form__trap" aria-hidden="true">
        <label htmlFor={`${idPrefix}-website`}>Leave this field empty</label>
        <input
          id={`${idPrefix}-website`}
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={trap}
          onChange={(event) => setTrap(event.target.value)}
        />
      </div>
      <div className="contact-form__actions">
        {/* Pending rather than disabled: the button keeps the focus (and Escape still reaches a dialog). */}
        <Button type="submit" isPending={phase !== 'idle'}>
          {phase === 'sending'
            ? 'Sending…'
            : phase === 'sent'
              ? 'Sent'
              : newsletter
                ? 'Sign up'
                : 'Send message'}
        </Button>
        <p className="contact-form__status" role="status" aria-live="polite">
          {confirmation ? (
            <span
              className={
                confirmation.fading ? 'contact-form__sent contact-form__sent--fading' : 'contact-form__sent'
              }
            >
              {confirmation.text}
            </span>
          ) : null}
        </p>
      </div>
      <MessageDialog isOpen={failure !== null} title="Not sent yet" onClose={() => setFailure(null)}>
        <p>{failure}</p>
      </MessageDialog>
    </form>
  );
}

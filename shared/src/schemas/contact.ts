/** SPEC §3 'Contact message' and §5 'Contact form' (with its newsletter variant on /hottrends). */
import { z } from 'zod';
import {
  COMPANY_MAX,
  CONTACT_MESSAGE_MAX,
  NAME_LONG_MAX,
  NAME_MAX,
  PHONE_MAX,
  TITLE_MAX,
} from '../constants.js';
import {
  CONTACT_FIRST_NAME_REQUIRED,
  CONTACT_INVALID_EMAIL,
  CONTACT_INVALID_PHONE,
  CONTACT_LAST_NAME_REQUIRED,
  CONTACT_MESSAGE_TOO_LONG,
  CONTACT_SUBJECT,
  NEWSLETTER_SUBJECT,
  TEXT_HAS_NUL,
} from '../messages.js';
import { isValidEmail } from '../validation/email.js';
import { isValidPhone } from '../validation/phone.js';
import { bounded, containsNul, emailText, optionalText, requiredText } from './common.js';

export const HOT_TRENDS_OPTIONS = ['YES', 'NO'] as const;
export const hotTrendsSchema = z.enum(HOT_TRENDS_OPTIONS);

/** The message as stored and forwarded; the form schemas below produce exactly this shape. */
export const contactMessageSchema = z.object({
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  company: z.string(),
  phone: z.string(),
  title: z.string(),
  message: z.string(),
  subject: z.string(),
  hottrends: hotTrendsSchema,
});

export type ContactMessage = z.infer<typeof contactMessageSchema>;

export type ContactFormVariant = 'contact' | 'newsletter';

/**
 * The newsletter variant hides the message field, so it is optional there (still bounded), and the
 * subject and newsletter opt-in default to the sign-up values. The message's bound is the spec's, with
 * the spec's text.
 */
export function contactFormSchemaFor(variant: ContactFormVariant) {
  const newsletter = variant === 'newsletter';
  const messageText = z
    .string({ error: CONTACT_MESSAGE_TOO_LONG })
    .trim()
    .refine((value) => !containsNul(value), TEXT_HAS_NUL)
    .max(CONTACT_MESSAGE_MAX, CONTACT_MESSAGE_TOO_LONG);
  const message = newsletter ? messageText.default('') : messageText.min(1, CONTACT_MESSAGE_TOO_LONG);
  return z.object({
    firstname: requiredText(CONTACT_FIRST_NAME_REQUIRED, NAME_MAX),
    lastname: requiredText(CONTACT_LAST_NAME_REQUIRED, NAME_MAX),
    email: emailText(CONTACT_INVALID_EMAIL, isValidEmail),
    phone: optionalText(PHONE_MAX).refine((v) => v === '' || isValidPhone(v), CONTACT_INVALID_PHONE),
    company: optionalText(COMPANY_MAX),
    title: optionalText(TITLE_MAX),
    message,
    subject: bounded(z.string().trim(), NAME_LONG_MAX).default(
      newsletter ? NEWSLETTER_SUBJECT : CONTACT_SUBJECT,
    ),
    hottrends: hotTrendsSchema.default(newsletter ? 'YES' : 'NO'),
  });
}

export const contactFormSchema = contactFormSchemaFor('contact');
export const newsletterFormSchema = contactFormSchemaFor('newsletter');

export type ContactForm = z.infer<typeof contactFormSchema>;
export type ContactFormInput = z.input<typeof contactFormSchema>;
export type NewsletterForm = z.infer<typeof newsletterFormSchema>;

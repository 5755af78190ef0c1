/** SPEC §3 'Contact message' and §5 'Contact form' (with its newsletter variant on /hottrends). */
import { z } from 'zod';
import { CONTACT_MESSAGE_MAX } from '../constants.js';
import {
  CONTACT_FIRST_NAME_REQUIRED,
  CONTACT_INVALID_EMAIL,
  CONTACT_INVALID_PHONE,
  CONTACT_LAST_NAME_REQUIRED,
  CONTACT_MESSAGE_TOO_LONG,
  CONTACT_SUBJECT,
  NEWSLETTER_SUBJECT,
} from '../messages.js';
import { isValidEmail } from '../validation/email.js';
import { isValidPhone } from '../validation/phone.js';
import { optionalText, requiredText } from './common.js';

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
 * subject and newsletter opt-in default to the sign-up values.
 */
export function contactFormSchemaFor(variant: ContactFormVariant) {
  const newsletter = variant === 'newsletter';
  const message = newsletter
    ? z.string().trim().max(CONTACT_MESSAGE_MAX, CONTACT_MESSAGE_TOO_LONG).default('')
    : requiredText(CONTACT_MESSAGE_TOO_LONG).max(CONTACT_MESSAGE_MAX, CONTACT_MESSAGE_TOO_LONG);
  return z.object({
    firstname: requiredText(CONTACT_FIRST_NAME_REQUIRED),
    lastname: requiredText(CONTACT_LAST_NAME_REQUIRED),
    email: z.string({ error: CONTACT_INVALID_EMAIL }).trim().refine(isValidEmail, CONTACT_INVALID_EMAIL),
    phone: optionalText().refine((v) => v === '' || isValidPhone(v), CONTACT_INVALID_PHONE),
    company: optionalText(),
    title: optionalText(),
    message,
    subject: z
      .string()
      .trim()
      .default(newsletter ? NEWSLETTER_SUBJECT : CONTACT_SUBJECT),
    hottrends: hotTrendsSchema.default(newsletter ? 'YES' : 'NO'),
  });
}

export const contactFormSchema = contactFormSchemaFor('contact');
export const newsletterFormSchema = contactFormSchemaFor('newsletter');

export type ContactForm = z.infer<typeof contactFormSchema>;
export type ContactFormInput = z.input<typeof contactFormSchema>;
export type NewsletterForm = z.infer<typeof newsletterFormSchema>;

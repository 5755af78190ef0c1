import {
  CONTACT_SUBJECT,
  contactFormSchemaFor,
  formatDateTime,
  NEWSLETTER_SUBJECT,
  type ContactFormVariant,
  type ContactMessage,
} from '@avp/shared';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { Logger } from '../../logger.js';
import { enqueueMail } from '../mail/index.js';

export interface ContactDeps {
  config: Pick<Config, 'STAFF_EMAIL' | 'MAILING_LIST_URL' | 'PUBLIC_URL' | 'TZ_STORE'>;
  db: Database;
  logger: Logger;
}

/**
 * The honeypot: a field a person never sees (hidden by CSS, out of the tab order, autocomplete off) and
 * that form-filling robots happily complete. A request carrying it gets the normal answer and is dropped.
 */
export const HONEYPOT_FIELD = 'website';

const envelope = z.object({
  variant: z.enum(['contact', 'newsletter']).default('contact'),
  [HONEYPOT_FIELD]: z.unknown().optional(),
});

export type ContactOutcome =
  { stored: true; id: number; message: ContactMessage } | { stored: false; reason: 'honeypot' };

/** How long the mailing-list service may take before the forward is abandoned (it never delays the visitor). */
export const MAILING_LIST_TIMEOUT_MS = 5_000;

function isFilled(value: unknown): boolean {
  return typeof value === 'string'
    ? value.trim() !== ''
    : value !== undefined && value !== null && value !== false;
}

/** The staff notification: every field, labelled, in plain text; when, in the company's zone, named. */
export function notificationText(
  message: ContactMessage,
  receivedAt: Date,
  publicUrl: string,
  timeZone: string,
): string {
  const line = (label: string, value: string) => `${label}: ${value === '' ? '-' : value}`;
  const lines = [
    message.subject === NEWSLETTER_SUBJECT
      ? 'A visitor signed up for the Hot Trends newsletter on the website.'
      : 'A visitor sent a message through the website contact form.',
    '',
    line('Name', `${message.firstname} ${message.lastname}`),
    line('E-mail', message.email),
    line('Phone', message.phone),
    line('Company', message.company),
    line('Title', message.title),
    line('Hot Trends newsletter', message.hottrends),
  ];
  if (message.message !== '') lines.push('', 'Message:', message.message);
  lines.push('', `Received ${formatDateTime(receivedAt, timeZone)} via ${publicUrl}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Validates a contact or newsletter submission with the shared schema (a ZodError becomes a 400 with field
 * errors), stores it in `contact_messages` and queues the staff notification in the same transaction.
 * The subject and, in newsletter mode, the opt-in are decided here, not taken from the browser:
 * 'Website Inquiry' for the contact form, 'User Signed Up For Hot Trends Newsletter' and hottrends YES for
 * the newsletter sign-up (SPEC §3).
 */
export async function submitContact(
  deps: ContactDeps,
  body: unknown,
  ip: string | null,
): Promise<ContactOutcome> {
  const { variant, [HONEYPOT_FIELD]: trap } = envelope.parse(body ?? {});
  const parsed = contactFormSchemaFor(variant as ContactFormVariant).parse(body);
  if (isFilled(trap)) {
    deps.logger.warn({ ip }, 'contact form honeypot filled in: submission dropped');
    return { stored: false, reason: 'honeypot' };
  }
  const newsletter = variant === 'newsletter';
  const message: ContactMessage = {
    ...parsed,
    subject: newsletter ? NEWSLETTER_SUBJECT : CONTACT_SUBJECT,
    hottrends: newsletter ? 'YES' : parsed.hottrends,
    message: newsletter ? '' : parsed.message,
  };
  const { db, config } = deps;
  const receivedAt = new Date();
  const id = await db.sequelize.transaction(async (transaction) => {
    const row = await db.models.ContactMessage.create(
      {
        email: message.email,
        firstName: message.firstname,
        lastName: message.lastname,
        company: message.company || null,
        phone: message.phone || null,
        title: message.title || null,
        message: message.message || null,
        subject: message.subject,
        hottrends: message.hottrends,
        // Behind a trusted proxy the address is what the client claimed; the column keeps 64 characters.
        ip: ip?.slice(0, 64) ?? null,
        createdAt: receivedAt,
      },
      { transaction },
    );
    await enqueueMail(
      db,
      {
        to: config.STAFF_EMAIL,
        subject: message.subject,
        text: notificationText(message, receivedAt, config.PUBLIC_URL, config.TZ_STORE),
      },
      { transaction },
    );
    return row.id;
  });
  if (message.hottrends === 'YES' && config.MAILING_LIST_URL) {
    // Not awaited: the visitor's request never waits on, or fails because of, the mailing-list service.
    void forwardToMailingList(config.MAILING_LIST_URL, message, deps.logger);
  }
  return { stored: true, id, message };
}

/**
 * SPEC §7: a newsletter opt-in is also posted to the external mailing list. A failure is logged and
 * otherwise ignored. The body is JSON with the subscriber's details.
 */
export async function forwardToMailingList(
  url: string,
  message: ContactMessage,
  logger: Logger,
): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        email: message.email,
        firstname: message.firstname,
        lastname: message.lastname,
        company: message.company,
        phone: message.phone,
        title: message.title,
        hottrends: message.hottrends,
        subject: message.subject,
      }),
      signal: AbortSignal.timeout(MAILING_LIST_TIMEOUT_MS),
    });
    if (!res.ok) {
      logger.warn({ status: res.status, mailingList: url }, 'mailing-list sign-up was refused');
      return false;
    }
    logger.info({ mailingList: url }, 'newsletter sign-up forwarded to the mailing list');
    return true;
  } catch (error) {
    logger.warn({ err: error, mailingList: url }, 'mailing-list sign-up failed');
    return false;
  }
}

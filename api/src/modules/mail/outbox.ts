import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import { dateParam } from '../../db/bind.js';
import type { Database } from '../../db/index.js';
import type { MailAttachment } from '../../db/models/index.js';

/** One or several addresses; a list is stored as 'a@x, b@y'. */
export type Recipients = string | readonly string[];

export interface OutgoingAttachment {
  filename: string;
  contentType: string;
  /** Bytes, or text (`encoding` 'utf8', the default for a string) or base64 text (`encoding` 'base64'). */
  content: Uint8Array | string;
  encoding?: 'utf8' | 'base64';
}

export interface OutgoingMail {
  to: Recipients;
  subject: string;
  text: string;
  html?: string | undefined;
  cc?: Recipients | undefined;
  bcc?: Recipients | undefined;
  attachments?: readonly OutgoingAttachment[] | undefined;
}

export interface EnqueueOptions {
  /**
   * The transaction of whatever caused the mail (DESIGN 'Data': the outbox row is written in the same
   * transaction), so the mail exists exactly when the change that caused it was committed.
   */
  transaction?: Transaction | null | undefined;
}

export interface QueuedMail {
  id: number;
}

function joinRecipients(value: Recipients | undefined): string | null {
  if (value === undefined) return null;
  const list = (typeof value === 'string' ? value.split(',') : [...value])
    .map((a) => a.trim())
    .filter(Boolean);
  return list.length > 0 ? list.join(', ') : null;
}

function toStoredAttachment(attachment: OutgoingAttachment): MailAttachment {
  const { filename, contentType, content, encoding } = attachment;
  let base64: string;
  if (typeof content === 'string') {
    base64 = encoding === 'base64' ? content : Buffer.from(content, 'utf8').toString('base64');
  } else {
    base64 = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('base64');
  }
  return { filename, contentType, content: base64 };
}

/** Wakes the workers of this process when a row is committed, so mail leaves at once instead of at the next poll. */
const listeners = new WeakMap<Database, Set<() => void>>();

export function onMailQueued(db: Database, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) {
    set = new Set();
    listeners.set(db, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

function notifyQueued(db: Database): void {
  for (const listener of listeners.get(db) ?? []) listener();
}

/**
 * Records a message in the mail outbox (the `mail_outbox` table). Nothing is sent here: the mail worker
 * (worker.ts) claims due rows and delivers them with retries, so a slow or absent mail server never
 * slows or fails the request that queued the message.
 *
 * Pass `{ transaction }` to write the row in the transaction of the change that caused it.
 */
export async function enqueueMail(
  db: Database,
  mail: OutgoingMail,
  options: EnqueueOptions = {},
): Promise<QueuedMail> {
  const to = joinRecipients(mail.to);
  if (to === null) throw new Error('enqueueMail: the message has no recipient');
  if (mail.subject.trim() === '') throw new Error('enqueueMail: the message has no subject');
  const now = new Date();
  const row = await db.models.MailOutbox.create(
    {
      toAddress: to,
      cc: joinRecipients(mail.cc),
      bcc: joinRecipients(mail.bcc),
      // RFC 5322 headers cannot carry line breaks; a subject built from user input must not inject headers.
      subject: mail.subject.replace(/[\r\n]+/g, ' ').trim(),
      textBody: mail.text,
      htmlBody: mail.html ?? null,
      attachments:
        mail.attachments && mail.attachments.length > 0 ? mail.attachments.map(toStoredAttachment) : null,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: now,
    },
    { transaction: options.transaction ?? null },
  );
  if (options.transaction) options.transaction.afterCommit(() => notifyQueued(db));
  else notifyQueued(db);
  return { id: row.id };
}

/**
 * Queues a message to the account with this (normalised) e-mail address, when there is one, with the same
 * statement either way: `INSERT … SELECT … FROM users WHERE email = $1` writes one row or none. A caller
 * that must not reveal whether an address has an account (forgot password) thereby does the same work,
 * in the same time, for both. The message goes to the address as the account stores it.
 */
export async function enqueueMailToAccount(
  db: Database,
  email: string,
  mail: Pick<OutgoingMail, 'subject' | 'text' | 'html'>,
  options: EnqueueOptions = {},
): Promise<void> {
  const now = dateParam(db.dialect, new Date());
  await db.sequelize.query(
    `INSERT INTO mail_outbox
       (to_address, subject, text_body, html_body, status, attempts, next_attempt_at, created_at, updated_at)
     SELECT email, $2, $3, $4, 'queued', 0, $5, $5, $5 FROM users WHERE email = $1`,
    {
      bind: [email, mail.subject.replace(/[\r\n]+/g, ' ').trim(), mail.text, mail.html ?? null, now],
      type: QueryTypes.INSERT,
      transaction: options.transaction ?? null,
    },
  );
  // Woken either way: a worker that finds nothing new goes back to sleep.
  if (options.transaction) options.transaction.afterCommit(() => notifyQueued(db));
  else notifyQueued(db);
}

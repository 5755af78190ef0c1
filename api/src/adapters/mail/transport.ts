import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import type { Config } from '../../config.js';
import { mailFilesDir, mailTransportKind } from './index.js';
import type { MailTransportKind } from './index.js';

/** A message as the outbox hands it over (attachments as bytes). */
export interface MailEnvelope {
  /** The outbox row's id: names the .eml file, and goes out as a header so duplicates can be traced. */
  id: number;
  from: string;
  to: string;
  cc?: string | null;
  bcc?: string | null;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: { filename: string; contentType: string; content: Buffer }[] | null;
}

export interface MailTransport {
  kind: MailTransportKind;
  /** Resolves once the message is accepted (SMTP) or written (files); rejects when it was not. */
  send(mail: MailEnvelope): Promise<void>;
  close(): void;
}

export type MailTransportConfig = Pick<Config, 'SMTP_URL' | 'DATA_DIR'> &
  Partial<
    Pick<
      Config,
      'SMTP_CONNECTION_TIMEOUT_SECONDS' | 'SMTP_GREETING_TIMEOUT_SECONDS' | 'SMTP_SOCKET_TIMEOUT_SECONDS'
    >
  >;

/**
 * Short enough that a dead or silent server fails an attempt (the outbox keeps the message and retries),
 * long enough for a slow one: connecting, the server's greeting, and silence mid-conversation.
 */
function smtpTimeouts(config: MailTransportConfig) {
  return {
    connectionTimeout: (config.SMTP_CONNECTION_TIMEOUT_SECONDS ?? 15) * 1000,
    greetingTimeout: (config.SMTP_GREETING_TIMEOUT_SECONDS ?? 15) * 1000,
    socketTimeout: (config.SMTP_SOCKET_TIMEOUT_SECONDS ?? 60) * 1000,
  };
}

function nodemailerMessage(mail: MailEnvelope) {
  return {
    from: mail.from,
    to: mail.to,
    ...(mail.cc ? { cc: mail.cc } : {}),
    ...(mail.bcc ? { bcc: mail.bcc } : {}),
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    ...(mail.attachments && mail.attachments.length > 0
      ? {
          attachments: mail.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content,
          })),
        }
      : {}),
    headers: { 'X-Outbox-Id': String(mail.id) },
  };
}

/**
 * SMTP_URL set: nodemailer's SMTP transport. Otherwise each message is written as DATA_DIR/mail/<id>.eml
 * (nodemailer's stream transport builds the same MIME text an SMTP server would get), so a fresh install
 * keeps every message and a developer can open them in a mail client. BCC recipients are kept in the file
 * (they are the envelope, not a header, on SMTP).
 */
export function createMailTransport(config: MailTransportConfig): MailTransport {
  const kind = mailTransportKind(config);
  if (config.SMTP_URL !== undefined) {
    const transporter = createTransport({ url: config.SMTP_URL, ...smtpTimeouts(config) });
    return {
      kind,
      async send(mail) {
        await transporter.sendMail(nodemailerMessage(mail));
      },
      close: () => transporter.close(),
    };
  }
  const dir = mailFilesDir(config);
  const streamer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind,
    async send(mail) {
      const info = await streamer.sendMail(nodemailerMessage(mail));
      const bytes = info.message as Buffer;
      await mkdir(dir, { recursive: true });
      // Written under a temporary name and renamed, so a reader never sees half a message; a retry of the
      // same row overwrites the same file rather than adding a second one.
      const file = path.join(dir, `${String(mail.id).padStart(8, '0')}.eml`);
      const partial = `${file}.${process.pid}.tmp`;
      await writeFile(partial, bytes);
      await rename(partial, file);
    },
    close: () => streamer.close(),
  };
}

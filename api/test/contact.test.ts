import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CONTACT_FIRST_NAME_REQUIRED,
  CONTACT_INVALID_EMAIL,
  CONTACT_INVALID_PHONE,
  CONTACT_LAST_NAME_REQUIRED,
  CONTACT_MESSAGE_TOO_LONG,
  CONTACT_SUBJECT,
  formatDateTime,
  NEWSLETTER_SUBJECT,
} from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTACT_RATE_LIMIT, CONTACT_RATE_LIMITED } from '../src/modules/contact/index.js';
import { startMailWorker } from '../src/modules/mail/index.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { DIALECTS, LogCapture } from './helpers/env.js';
import { freePort, waitFor } from './helpers/smtp.js';
import { CONTACT_FORM } from './helpers/contact.js';

let t: TestApp | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await t?.close();
  t = undefined;
});

const VALID = {
  ...CONTACT_FORM,
  message: 'We need staging and two LED walls for a 900-person general session in October.',
};

const post = (app: TestApp, body: unknown, pathname = '/api/contact') =>
  app.request(pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A stand-in for the external mailing-list service: records what it is sent, answers `status`. */
async function mailingList(status: number): Promise<{ url: string; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/subscribe`, bodies };
}

describe.each(DIALECTS)('POST /api/contact on %s', (dialect) => {
  it('stores the message and queues the staff notification in the same transaction', async () => {
    t = await startTestApp({ dialect, env: { STAFF_EMAIL: 'events@northbeam.example' } });
    const res = await post(t, { ...VALID, subject: 'Something else', hottrends: 'NO' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ received: true });

    const rows = await t.db.models.ContactMessage.findAll();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: VALID.email,
      firstName: 'Dana',
      lastName: 'Okafor',
      company: VALID.company,
      phone: VALID.phone,
      title: VALID.title,
      message: VALID.message,
      // The subject is the server's, whatever the browser sent (SPEC §3).
      subject: CONTACT_SUBJECT,
      hottrends: 'NO',
      ip: expect.stringMatching(/127\.0\.0\.1/),
    });

    const mail = await t.db.models.MailOutbox.findAll();
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({
      toAddress: 'events@northbeam.example',
      subject: CONTACT_SUBJECT,
      status: 'queued',
    });
    expect(mail[0]?.textBody).toContain('Name: Dana Okafor');
    expect(mail[0]?.textBody).toContain(`E-mail: ${VALID.email}`);
    expect(mail[0]?.textBody).toContain(VALID.message);
  });

  it("says when it was received in the staff screens' format, in the company's zone, named", async () => {
    t = await startTestApp({ dialect, env: { TZ_STORE: 'America/Chicago' } });
    expect((await post(t, VALID)).status).toBe(201);
    const row = await t.db.models.ContactMessage.findOne();
    const mail = await t.db.models.MailOutbox.findOne();
    const received = /^Received (.+) via /m.exec(mail?.textBody ?? '')?.[1];
    expect(received).toBe(formatDateTime(row!.createdAt, 'America/Chicago'));
    expect(received).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M C[DS]T$/);
  });

  it('a newsletter sign-up has the spec subject, hottrends YES and no message', async () => {
    t = await startTestApp({ dialect });
    const { message: _message, ...fields } = VALID;
    const res = await post(t, { ...fields, variant: 'newsletter', hottrends: 'NO', message: 'ignored' });
    expect(res.status).toBe(201);
    const row = await t.db.models.ContactMessage.findOne();
    expect(row).toMatchObject({ subject: NEWSLETTER_SUBJECT, hottrends: 'YES', message: null });
    const mail = await t.db.models.MailOutbox.findOne();
    expect(mail).toMatchObject({ toAddress: 'staff@localhost', subject: NEWSLETTER_SUBJECT });
    expect(mail?.textBody).toContain('Hot Trends newsletter: YES');
  });

  it('answers 400 with the spec message per field and stores nothing', async () => {
    t = await startTestApp({ dialect });
    const res = await post(t, {
      firstname: ' ',
      lastname: '',
      email: 'not-an-address',
      phone: '12345',
      message: '',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.fields).toEqual({
      firstname: CONTACT_FIRST_NAME_REQUIRED,
      lastname: CONTACT_LAST_NAME_REQUIRED,
      email: CONTACT_INVALID_EMAIL,
      phone: CONTACT_INVALID_PHONE,
      message: CONTACT_MESSAGE_TOO_LONG,
    });
    const long = await post(t, { ...VALID, message: 'x'.repeat(301) });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({
      message: CONTACT_MESSAGE_TOO_LONG,
    });
    expect((await post(t, { ...VALID, message: 'x'.repeat(300) })).status).toBe(201);
    expect(await t.db.models.ContactMessage.count()).toBe(1);
  });

  it('a filled-in honeypot gets the normal answer and is dropped', async () => {
    const logs = new LogCapture();
    t = await startTestApp({ dialect, logs });
    const res = await post(t, { ...VALID, website: 'http://spam.example' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ received: true });
    expect(await t.db.models.ContactMessage.count()).toBe(0);
    expect(await t.db.models.MailOutbox.count()).toBe(0);
    expect(logs.lines.some((l) => String(l.msg).includes('honeypot'))).toBe(true);
  });

  it('limits each IP address, with a clear message and Retry-After', async () => {
    t = await startTestApp({ dialect });
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) expect((await post(t, VALID)).status).toBe(201);
    const refused = await post(t, VALID);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: { code: 'rate_limited', message: CONTACT_RATE_LIMITED } });
    expect(await t.db.models.ContactMessage.count()).toBe(CONTACT_RATE_LIMIT.max);
  });

  it('answers the spec name of the call, /api/submitContact.php, the same way', async () => {
    t = await startTestApp({ dialect });
    expect((await post(t, VALID, '/api/submitContact.php')).status).toBe(201);
    expect(await t.db.models.ContactMessage.count()).toBe(1);
  });

  it('forwards an opt-in to MAILING_LIST_URL, and only an opt-in', async () => {
    const list = await mailingList(200);
    t = await startTestApp({ dialect, env: { MAILING_LIST_URL: list.url } });
    const emails = () => list.bodies.map((body) => (body as { email?: string }).email);
    // Not an opt-in. Whether to forward is decided while the request is answered, so a forward of it would
    // be on its way before the opt-ins that follow, and arrive with them.
    expect((await post(t, { ...VALID, email: 'plain@example.com' })).status).toBe(201);
    expect((await post(t, { ...VALID, variant: 'newsletter', message: '' })).status).toBe(201);
    await waitFor(() => emails().includes(VALID.email), 5_000, 'the newsletter forward');
    expect((await post(t, { ...VALID, email: 'second@example.com', hottrends: 'YES' })).status).toBe(201);
    await waitFor(() => emails().includes('second@example.com'), 5_000, 'the opt-in forward');
    expect(emails()).toEqual([VALID.email, 'second@example.com']);
    expect(list.bodies[0]).toMatchObject({
      email: VALID.email,
      firstname: 'Dana',
      lastname: 'Okafor',
      hottrends: 'YES',
    });
  });

  it('never fails the visitor when the mailing list refuses or is down; the failure is logged', async () => {
    const refusing = await mailingList(500);
    const logs = new LogCapture();
    t = await startTestApp({ dialect, logs, env: { MAILING_LIST_URL: refusing.url } });
    expect((await post(t, { ...VALID, variant: 'newsletter' })).status).toBe(201);
    await waitFor(
      () => logs.lines.some((l) => l.msg === 'mailing-list sign-up was refused'),
      5_000,
      'log line',
    );
    await t.close();

    const logs2 = new LogCapture();
    const deadUrl = `http://127.0.0.1:${await freePort()}/subscribe`;
    t = await startTestApp({ dialect, logs: logs2, env: { MAILING_LIST_URL: deadUrl } });
    expect((await post(t, { ...VALID, variant: 'newsletter' })).status).toBe(201);
    await waitFor(() => logs2.lines.some((l) => l.msg === 'mailing-list sign-up failed'), 5_000, 'log line');
    expect(await t.db.models.ContactMessage.count()).toBe(1);
  });

  it('the queued notification reaches DATA_DIR/mail once the worker runs', async () => {
    t = await startTestApp({ dialect, env: { STAFF_EMAIL: 'events@northbeam.example' } });
    const worker = startMailWorker({ config: t.config, db: t.db, logger: t.logger, pollMs: 100 });
    cleanups.push(() => worker.stop());
    expect((await post(t, VALID)).status).toBe(201);
    const dir = path.join(t.dataDir, 'mail');
    await waitFor(async () => (await readdir(dir).catch(() => [])).length === 1, 10_000, 'an .eml file');
    const [file] = await readdir(dir);
    const eml = await readFile(path.join(dir, file!), 'utf8');
    expect(eml).toMatch(/^To: events@northbeam.example$/m);
    expect(eml).toMatch(/^Subject: Website Inquiry$/m);
    expect(eml).toContain('Lakeshore Medical Association');
  });
});

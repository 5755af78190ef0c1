import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { retryDelayMs } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { openDatabase } from '../src/db/index.js';
import type { Database } from '../src/db/index.js';
import {
  enqueueMail,
  MAIL_WORKER_DEFAULTS,
  mailRetryPolicy,
  startMailWorker,
} from '../src/modules/mail/index.js';
import type { MailWorker, MailWorkerOptions } from '../src/modules/mail/index.js';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';
import { DIALECTS } from './helpers/env.js';
import { freePort, SmtpReceiver, waitFor } from './helpers/smtp.js';

let t: TestDatabase | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await t?.cleanup();
  t = undefined;
});

function worker(
  options: Partial<MailWorkerOptions> & { config: MailWorkerOptions['config']; db: Database },
): MailWorker {
  const w = startMailWorker({
    logger: t!.logger,
    pollMs: 100,
    retryBaseMs: 150,
    retryMaxMs: 1_000,
    ...options,
  });
  cleanups.push(() => w.stop());
  return w;
}

async function receiver(port?: number): Promise<SmtpReceiver> {
  const r = new SmtpReceiver(port ?? (await freePort()));
  cleanups.push(() => r.stop());
  return r;
}

const withSmtp = (config: Config, url: string): Config => ({ ...config, SMTP_URL: url });

describe('the mail retry schedule', () => {
  it('waits 30 s after a first failure, doubling up to an hour, each wait between half of that and all of it', () => {
    const policy = mailRetryPolicy(MAIL_WORKER_DEFAULTS);
    const attempts = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    const longest = [30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000];
    expect(attempts.map((n) => retryDelayMs(n, policy, () => 1))).toEqual(longest);
    expect(attempts.map((n) => retryDelayMs(n, policy, () => 0))).toEqual(longest.map((ms) => ms / 2));
    expect(policy.retries).toBe(MAIL_WORKER_DEFAULTS.maxAttempts - 1);
  });
});

describe.each(DIALECTS)('mail outbox on %s', (dialect) => {
  it('enqueueMail records a queued row with recipients joined and attachments in base64', async () => {
    t = await openTestDatabase(dialect);
    const { id } = await enqueueMail(t.db, {
      to: ['a@example.com', ' b@example.com '],
      bcc: 'c@example.com,  d@example.com',
      subject: 'Order\r\nBcc: evil@example.com',
      text: 'Hello',
      html: '<p>Hello</p>',
      attachments: [
        { filename: 'a.txt', contentType: 'text/plain', content: 'plain text' },
        { filename: 'b.bin', contentType: 'application/octet-stream', content: new Uint8Array([1, 2, 3]) },
      ],
    });
    const row = await t.db.models.MailOutbox.findByPk(id);
    expect(row).toMatchObject({
      toAddress: 'a@example.com, b@example.com',
      cc: null,
      bcc: 'c@example.com, d@example.com',
      subject: 'Order Bcc: evil@example.com',
      textBody: 'Hello',
      htmlBody: '<p>Hello</p>',
      status: 'queued',
      attempts: 0,
      sentAt: null,
    });
    expect(row?.attachments).toEqual([
      { filename: 'a.txt', contentType: 'text/plain', content: Buffer.from('plain text').toString('base64') },
      { filename: 'b.bin', contentType: 'application/octet-stream', content: 'AQID' },
    ]);
    await expect(enqueueMail(t.db, { to: ' , ', subject: 'x', text: 'x' })).rejects.toThrow(/no recipient/);
  });

  it('writes nothing when the transaction that queued the mail rolls back', async () => {
    t = await openTestDatabase(dialect);
    const db = t.db;
    await expect(
      db.sequelize.transaction(async (transaction) => {
        await enqueueMail(db, { to: 'a@example.com', subject: 'Never', text: 'x' }, { transaction });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await db.models.MailOutbox.count()).toBe(0);
    await db.sequelize.transaction((transaction) =>
      enqueueMail(db, { to: 'a@example.com', subject: 'Kept', text: 'x' }, { transaction }),
    );
    expect(await db.models.MailOutbox.count()).toBe(1);
  });

  it('without SMTP_URL writes each message as DATA_DIR/mail/<id>.eml and marks it sent', async () => {
    t = await openTestDatabase(dialect);
    const { id } = await enqueueMail(t.db, {
      to: 'staff@example.com',
      bcc: 'audit@example.com',
      subject: 'New inquiry',
      text: 'Body text',
      attachments: [{ filename: 'note.txt', contentType: 'text/plain', content: 'attached' }],
    });
    const w = worker({ config: t.config, db: t.db });
    expect(await w.runOnce()).toBeGreaterThanOrEqual(0);
    await waitFor(
      async () => (await t!.db.models.MailOutbox.findByPk(id))?.status === 'sent',
      10_000,
      'sent',
    );
    const dir = path.join(t.dataDir, 'mail');
    expect(await readdir(dir)).toEqual([`${String(id).padStart(8, '0')}.eml`]);
    const eml = await readFile(path.join(dir, `${String(id).padStart(8, '0')}.eml`), 'utf8');
    expect(eml).toMatch(/^Subject: New inquiry$/m);
    expect(eml).toMatch(/^To: staff@example.com$/m);
    expect(eml).toMatch(/^Bcc: audit@example.com$/m);
    expect(eml).toMatch(/^From: no-reply@localhost$/m);
    expect(eml).toMatch(/^X-Outbox-Id: \d+$/im);
    expect(eml).toContain('note.txt');
    const row = await t.db.models.MailOutbox.findByPk(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, claimedBy: null, lastError: null });
    expect(row?.sentAt).toBeInstanceOf(Date);
  });

  it('retries with backoff while the SMTP server is down and delivers exactly once when it comes up', async () => {
    t = await openTestDatabase(dialect);
    const smtp = await receiver();
    const config = withSmtp(t.config, smtp.url);
    const { id } = await enqueueMail(t.db, { to: 'staff@example.com', subject: 'Down then up', text: 'Hi' });
    const started = Date.now();
    const w = worker({ config, db: t.db });
    const Outbox = t.db.models.MailOutbox;

    // Receiver down: the attempt fails, the row goes back to the queue with the error and a later due time.
    await waitFor(async () => ((await Outbox.findByPk(id))?.attempts ?? 0) >= 1, 10_000, 'a failed attempt');
    await waitFor(async () => (await Outbox.findByPk(id))?.status === 'queued', 10_000, 'requeued');
    const failed = await Outbox.findByPk(id);
    expect(failed?.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(failed?.sentAt).toBeNull();
    // Due again between half the first retry delay (150 ms here) and all of it after the failure.
    const due = failed!.nextAttemptAt.getTime();
    expect(due).toBeGreaterThanOrEqual(started + 75);
    expect(due).toBeLessThanOrEqual(Date.now() + 150);

    await smtp.start();
    await waitFor(async () => (await Outbox.findByPk(id))?.status === 'sent', 15_000, 'sent');
    // Nothing is due any more, and stopping waits for a delivery in flight: a duplicate would show now.
    expect(await w.runOnce()).toBe(0);
    await w.stop();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: 'no-reply@localhost', to: ['staff@example.com'] });
    expect(smtp.received[0]?.raw).toMatch(/^Subject: Down then up\r?$/m);
    const sent = await Outbox.findByPk(id);
    expect(sent?.attempts).toBeGreaterThanOrEqual(2);
    expect(sent?.lastError).toBeNull();
  });

  it('two workers on two connections never send the same message twice', async () => {
    t = await openTestDatabase(dialect);
    const smtp = await receiver();
    await smtp.start();
    const config = withSmtp(t.config, smtp.url);
    // A second connection pool to the same database: what a second process would have.
    const other = await openDatabase(t.config, t.logger);
    cleanups.push(() => other.close());
    const ids = new Set<number>();
    for (let i = 0; i < 24; i++) {
      ids.add(
        (await enqueueMail(t.db, { to: `guest${i}@example.com`, subject: `Message ${i}`, text: 'x' })).id,
      );
    }
    const a = worker({ config, db: t.db, batchSize: 3 });
    const b = worker({ config, db: other, batchSize: 3 });
    await Promise.all([a.runOnce(), b.runOnce()]);
    await waitFor(
      async () => (await t!.db.models.MailOutbox.count({ where: { status: 'sent' } })) === ids.size,
      20_000,
      'all sent',
    );
    // Both workers stopped: their batches in hand are done, so every delivery made has been received.
    await Promise.all([a.stop(), b.stop()]);
    const outboxIds = smtp.received.map((m) => Number(/^X-Outbox-Id: (\d+)/im.exec(m.raw)?.[1]));
    expect(outboxIds).toHaveLength(ids.size);
    expect(new Set(outboxIds)).toEqual(ids);
    const attempts = await t.db.models.MailOutbox.findAll({ attributes: ['attempts'] });
    expect(attempts.every((row) => row.attempts === 1)).toBe(true);
  });

  it('marks a message failed at once when the server refuses it permanently (5xx)', async () => {
    t = await openTestDatabase(dialect);
    const port = await freePort();
    const { SMTPServer } = await import('smtp-server');
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      },
    });
    await new Promise<void>((resolve) => refusing.listen(port, '127.0.0.1', () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => refusing.close(() => resolve())));
    const { id } = await enqueueMail(t.db, { to: 'nobody@example.com', subject: 'Bounce', text: 'x' });
    worker({ config: withSmtp(t.config, `smtp://127.0.0.1:${port}`), db: t.db });
    await waitFor(
      async () => (await t!.db.models.MailOutbox.findByPk(id))?.status === 'failed',
      10_000,
      'failed',
    );
    const row = await t.db.models.MailOutbox.findByPk(id);
    expect(row).toMatchObject({ attempts: 1, status: 'failed' });
    expect(row?.lastError).toMatch(/No such mailbox/);
  });

  it('gives up after maxAttempts and keeps the last error', async () => {
    t = await openTestDatabase(dialect);
    const { id } = await enqueueMail(t.db, { to: 'a@example.com', subject: 'Never delivered', text: 'x' });
    worker({
      config: withSmtp(t.config, `smtp://127.0.0.1:${await freePort()}`),
      db: t.db,
      maxAttempts: 2,
      retryBaseMs: 50,
    });
    await waitFor(
      async () => (await t!.db.models.MailOutbox.findByPk(id))?.status === 'failed',
      15_000,
      'failed',
    );
    const row = await t.db.models.MailOutbox.findByPk(id);
    expect(row?.attempts).toBe(2);
    expect(row?.lastError).toBeTruthy();
  });

  it('queues again a message left "sending" by a process that died, and delivers it', async () => {
    t = await openTestDatabase(dialect);
    const { id } = await enqueueMail(t.db, { to: 'a@example.com', subject: 'Orphan', text: 'x' });
    await t.db.models.MailOutbox.update(
      { status: 'sending', claimedBy: 'dead-process', claimedAt: new Date(Date.now() - 60_000), attempts: 1 },
      { where: { id } },
    );
    worker({ config: t.config, db: t.db, staleClaimMs: 30_000 });
    await waitFor(
      async () => (await t!.db.models.MailOutbox.findByPk(id))?.status === 'sent',
      10_000,
      'sent',
    );
    expect((await t.db.models.MailOutbox.findByPk(id))?.attempts).toBe(2);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { enqueueMail, startMailWorker } from '../src/modules/mail/index.js';
import type { MailWorker, MailWorkerOptions } from '../src/modules/mail/index.js';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';
import { DIALECTS, onPostgres } from './helpers/env.js';
import { postgresBehindProxy } from './helpers/database-proxy.js';
import type { TcpFaultProxy } from './helpers/fault-proxy.js';
import { freePort, SmtpReceiver, waitFor } from './helpers/smtp.js';
import type { ReceivedMail } from './helpers/smtp.js';

/**
 * Issue 28: the outbox delivers each message once through a killed process, a slow mail server and a
 * database that goes away between the SMTP answer and the row's update. A claim is a lease the sending
 * worker renews; the outcome of a send is written once the database answers again.
 */

let t: TestDatabase | undefined;
let proxy: TcpFaultProxy | undefined;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  await proxy?.accept().catch(() => undefined);
  await t?.cleanup();
  await proxy?.close();
  t = undefined;
  proxy = undefined;
});

function worker(options: Partial<MailWorkerOptions> & Pick<MailWorkerOptions, 'config' | 'db'>): MailWorker {
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

async function receiver(beforeAccept?: (mail: ReceivedMail) => Promise<void> | void): Promise<SmtpReceiver> {
  const r = new SmtpReceiver(await freePort(), { beforeAccept });
  await r.start();
  cleanups.push(() => r.stop());
  return r;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('mail claims on %s', (dialect) => {
  it('a message a slow mail server holds longer than the lease is not taken by another worker: delivered once', async () => {
    t = await openTestDatabase(dialect);
    let answered = false;
    const smtp = await receiver(async () => {
      // Three leases long: without renewal the other worker would take the claim as abandoned.
      await delay(3_000);
      answered = true;
    });
    const { id } = await enqueueMail(t.db, { to: 'a@example.com', subject: 'Slow server', text: 'x' });
    const config = { ...t.config, SMTP_URL: smtp.url };
    worker({ config, db: t.db, staleClaimMs: 1_000, workerId: 'first' });
    await waitFor(async () => smtp.received.length === 1, 10_000, 'the first delivery');
    worker({ config, db: t.db, staleClaimMs: 1_000, workerId: 'second' });
    await waitFor(
      async () => (await t!.db.models.MailOutbox.findByPk(id))?.status === 'sent',
      15_000,
      'sent',
    );
    expect(answered).toBe(true);
    // The second worker has polled many times meanwhile; one more poll round proves nothing is left due.
    await worker({ config, db: t.db, staleClaimMs: 1_000, workerId: 'third' }).runOnce();
    expect(smtp.received).toHaveLength(1);
    expect((await t.db.models.MailOutbox.findByPk(id))?.attempts).toBe(1);
  });
});

describe.runIf(onPostgres('a mail outcome recorded across a PostgreSQL gap'))(
  'mail outcome across a PostgreSQL gap',
  () => {
    it('a message sent just as PostgreSQL goes away is recorded as sent once it is back, never sent twice', async () => {
      const behind = await postgresBehindProxy(1);
      proxy = behind.proxy;
      t = await openTestDatabase('postgres', { env: behind.env });
      const gap = proxy;
      let cut = false;
      const smtp = await receiver(async () => {
        if (cut) return;
        cut = true;
        // The restart happens while the mail server accepts the message: the worker's next word to the
        // database (the row's 'sent') meets a refused connection.
        await gap.refuse();
      });
      const { id } = await enqueueMail(t.db, { to: 'a@example.com', subject: 'During a restart', text: 'x' });
      worker({ config: { ...t.config, SMTP_URL: smtp.url }, db: t.db, staleClaimMs: 4_000 });
      await waitFor(async () => cut, 10_000, 'the cut');
      await delay(2_500);
      await gap.accept();
      await waitFor(
        async () => (await t!.db.models.MailOutbox.findByPk(id).catch(() => null))?.status === 'sent',
        20_000,
        'sent',
      );
      // Past the lease: a claim left 'sending' would have been queued again and sent a second time by now.
      await delay(4_500);
      expect(smtp.received).toHaveLength(1);
      expect(await t.db.models.MailOutbox.findByPk(id)).toMatchObject({ status: 'sent', attempts: 1 });
    });
  },
);

import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { enqueueMail, startMailWorker } from '../src/modules/mail/index.js';
import type { MailWorker } from '../src/modules/mail/index.js';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';
import { DIALECTS, testEnv } from './helpers/env.js';
import { freePort, SmtpReceiver, waitFor } from './helpers/smtp.js';

/**
 * Issue 28: the mail server goes away for a while (stopped, or accepting connections and saying nothing)
 * and comes back on the same port. The outbox keeps every message meanwhile and delivers each exactly
 * once when it returns; a silent server fails each attempt after SMTP_GREETING_TIMEOUT_SECONDS instead
 * of holding the worker.
 */

let t: TestDatabase | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await t?.cleanup();
  t = undefined;
});

function worker(db: TestDatabase, smtpUrl: string, env: Record<string, string> = {}): MailWorker {
  const config = loadConfig(testEnv(db.dataDir, 'sqlite', { SMTP_URL: smtpUrl, ...env }));
  const w = startMailWorker({
    config,
    db: db.db,
    logger: db.logger,
    pollMs: 100,
    retryBaseMs: 150,
    retryMaxMs: 500,
  });
  cleanups.push(() => w.stop());
  return w;
}

/** A TCP server on `port` that accepts connections and never says a word (an SMTP server hung). */
async function silentServer(port: number): Promise<{ stop(): Promise<void>; connections: number }> {
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const server: Server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return Object.assign(state, {
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

const subjects = (r: SmtpReceiver) =>
  r.received
    .map((m) => /^Subject: (.*?)\r?$/m.exec(m.raw)?.[1])
    .sort((a, b) => String(a).localeCompare(String(b)));

describe.each(DIALECTS)('the mail server away for a while (%s)', (dialect) => {
  it('stopped with mail queued: each message kept, then delivered exactly once on the same port', async () => {
    t = await openTestDatabase(dialect);
    const port = await freePort();
    const smtp = new SmtpReceiver(port);
    cleanups.push(() => smtp.stop());
    await smtp.start();
    worker(t, smtp.url);
    const Outbox = t.db.models.MailOutbox;
    const first = await enqueueMail(t.db, { to: 'staff@example.com', subject: 'before', text: 'x' });
    await waitFor(async () => (await Outbox.findByPk(first.id))?.status === 'sent', 10_000, 'the first mail');

    await smtp.stop();
    const queued = [];
    for (const n of [1, 2, 3]) {
      queued.push(await enqueueMail(t.db, { to: 'staff@example.com', subject: `during ${n}`, text: 'x' }));
    }
    // Each fails at least twice while the server is away, and stays queued with the reason.
    for (const { id } of queued) {
      await waitFor(async () => ((await Outbox.findByPk(id))?.attempts ?? 0) >= 2, 15_000, 'failed attempts');
    }
    const waiting = await Outbox.findAll({ where: { id: queued.map((q) => q.id) } });
    expect(waiting.every((row) => row.status === 'queued' || row.status === 'sending')).toBe(true);
    expect(waiting.some((row) => /ECONNREFUSED|connect/i.test(row.lastError ?? ''))).toBe(true);

    await smtp.start();
    for (const { id } of queued) {
      await waitFor(
        async () => (await Outbox.findByPk(id))?.status === 'sent',
        15_000,
        'delivery after return',
      );
    }
    expect(subjects(smtp)).toEqual(['before', 'during 1', 'during 2', 'during 3']);
  }, 60_000);

  it('a server that accepts and never greets: each attempt ends at the greeting timeout, then delivery once', async () => {
    t = await openTestDatabase(dialect);
    const port = await freePort();
    const hung = await silentServer(port);
    let hungStopped = false;
    cleanups.push(async () => {
      if (!hungStopped) await hung.stop();
    });
    worker(t, `smtp://127.0.0.1:${port}`, {
      // The connection deadline also bounds the greeting: set it far off, so the greeting's own counts.
      SMTP_CONNECTION_TIMEOUT_SECONDS: '120',
      SMTP_GREETING_TIMEOUT_SECONDS: '1',
    });
    const Outbox = t.db.models.MailOutbox;
    const { id } = await enqueueMail(t.db, { to: 'staff@example.com', subject: 'silent', text: 'x' });
    // Without a greeting timeout the first attempt would never end: the second would never start.
    await waitFor(
      async () => ((await Outbox.findByPk(id))?.attempts ?? 0) >= 2,
      20_000,
      'two ended attempts',
    );
    expect((await Outbox.findByPk(id))?.lastError).toMatch(/greeting|timeout/i);

    await hung.stop();
    hungStopped = true;
    const smtp = new SmtpReceiver(port);
    cleanups.push(() => smtp.stop());
    await smtp.start();
    await waitFor(async () => (await Outbox.findByPk(id))?.status === 'sent', 15_000, 'delivery');
    expect(subjects(smtp)).toEqual(['silent']);
  }, 60_000);
});

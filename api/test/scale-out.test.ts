import { createHash, randomBytes } from 'node:crypto';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { Op } from 'sequelize';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../src/adapters/storage/index.js';
import { loadConfig } from '../src/config.js';
import type { Config } from '../src/config.js';
import { migrateUp, openDatabase } from '../src/db/index.js';
import type { Database } from '../src/db/index.js';
import { createLogger } from '../src/logger.js';
import { TOO_MANY_SIGN_INS } from '../src/modules/accounts/index.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { enqueueMail } from '../src/modules/mail/index.js';
import { startPeerApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { startDriveStandIn } from './helpers/cloud-standins/drive.js';
import type { DriveStandIn } from './helpers/cloud-standins/drive.js';
import { startCluster } from './helpers/cluster.js';
import type { ApiProcess, Cluster } from './helpers/cluster.js';
import { dropSchema, tempDir, TEST_DATABASE_URL, TEST_SECRET, testEnv } from './helpers/env.js';
import { SERVED_BY } from './helpers/round-robin-proxy.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';
import { freePort, SmtpReceiver, waitFor } from './helpers/smtp.js';
import { customerFor } from './helpers/store.js';
import type { IntentJson, StoreJson } from './helpers/store.js';
import { StripeStandIn, stripeEvent } from './helpers/stripe-stand-in.js';
import { fetchTransport, memorySource, nodeClient, sponsorForm, uploadClient } from './helpers/uploads.js';
import { CONTACT_FORM } from './helpers/contact.js';

/**
 * DESIGN 'Running on more than one machine', proven: three real API processes on one PostgreSQL schema and
 * one S3 bucket (s3rver), behind a round-robin proxy standing in for the load balancer. One cluster
 * serves every test here, in order; the last one kills a process.
 */

const PART = UPLOAD_PART_SIZE;
const PASSWORD = 'Difference Engine 1843';
const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_scaleout0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_scaleout0123456789',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};
/** Unfinished uploads older than UPLOAD_RETENTION_DAYS, left before the processes start. */
const STALE_UPLOADS = 4;
/** Mail queued before the processes start, so that all three outbox workers find it at once. */
const EARLY_MAILS = 24;
/** When, after start-up, every process first looks for stale uploads (uploads/cleanup.ts). */
const FIRST_CLEANUP_MS = 5_000;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

if (!TEST_DATABASE_URL) {
  console.warn(
    'api/test/scale-out.test.ts skipped: TEST_DATABASE_URL is not set, and several API processes need a ' +
      'PostgreSQL database to share (SQLite is one machine’s file).',
  );
}

/** A browser that carries `from`'s cookies to another address (the same user reaching another process). */
function carry(from: TestBrowser, url: string): TestBrowser {
  const browser = new TestBrowser(url);
  for (const [name, value] of from.cookies) browser.cookies.set(name, value);
  return browser;
}

const servedBy = (res: { headers: Headers }) => res.headers.get(SERVED_BY);

describe.runIf(TEST_DATABASE_URL)('three API processes on one PostgreSQL and one S3', () => {
  let config: Config;
  let db: Database;
  let cluster: Cluster;
  let s3: Awaited<ReturnType<typeof startS3StandIn>>;
  let smtp: SmtpReceiver;
  let stripe: StripeStandIn;
  let drive: DriveStandIn;
  const staleIds: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    s3 = await startS3StandIn();
    cleanups.push(() => s3.close());
    smtp = new SmtpReceiver(await freePort());
    await smtp.start();
    cleanups.push(() => smtp.stop());
    stripe = await new StripeStandIn().start();
    cleanups.push(() => stripe.stop());
    drive = await startDriveStandIn();
    cleanups.push(() => drive.close());

    const data = await tempDir();
    cleanups.push(data.remove);
    const shared = {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: S3_STAND_IN_BUCKET,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      SMTP_URL: smtp.url,
      ...STRIPE_KEYS,
      STRIPE_API_URL: stripe.url,
      GOOGLE_API_URL: drive.url,
    };
    config = loadConfig(testEnv(data.dir, 'postgres', shared));
    cleanups.push(() => dropSchema(config.DB_SCHEMA!));
    const logger = createLogger({ LOG_LEVEL: 'silent' });
    db = await openDatabase(config, logger);
    cleanups.push(() => db.close());
    await migrateUp(db);

    // Work waiting before the processes start: stale uploads with parts in S3, and queued mail.
    const setup = await startPeerApp({ config, logger });
    try {
      const owner = new TestBrowser(setup.url);
      expect(
        (await owner.post('/api/auth/register', registration({ email: 'stale@example.com' }))).status,
      ).toBe(201);
      const client = nodeClient(setup.url, { cookie: owner.cookieHeader()! });
      for (let i = 0; i < STALE_UPLOADS; i++) {
        const submission = await client.createSubmission(sponsorForm);
        const half = memorySource(PART + 100, `abandoned-${i}.mov`);
        const file = await client.registerFile(submission.id, half.source);
        await client.putPart(file.id, 1, half.bytes.subarray(0, PART));
        staleIds.push(submission.id);
      }
    } finally {
      await setup.close();
    }
    const longAgo = new Date(Date.now() - (config.UPLOAD_RETENTION_DAYS + 1) * 86_400_000);
    await db.sequelize.query('UPDATE submissions SET updated_at = :longAgo WHERE id IN (:ids)', {
      replacements: { longAgo, ids: staleIds },
    });
    for (let i = 0; i < EARLY_MAILS; i++) {
      await enqueueMail(db, {
        to: `early-${i}@example.com`,
        subject: `Queued before start-up ${i}`,
        text: 'Delivered by whichever process claims it first.',
      });
    }

    cluster = await startCluster({
      size: 3,
      env: {
        DATABASE_URL: TEST_DATABASE_URL,
        DB_SCHEMA: config.DB_SCHEMA,
        SESSION_SECRET: TEST_SECRET,
        TRUST_PROXY: '1',
        ...shared,
      },
    });
    cleanups.push(() => cluster.close());
  }, 120_000);

  // A failure here is one process among three: show what each of them complained of.
  afterEach((context) => {
    if (context.task.result?.state !== 'fail' || !cluster) return;
    for (const api of cluster.processes) {
      const trouble = api.logs.filter((line) => Number(line.level) >= 40).slice(-30);
      console.error(
        `API process ${api.index} (${api.alive ? 'running' : 'stopped'}):`,
        trouble,
        api.stderr.join(''),
      );
    }
  });

  afterAll(async () => {
    while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
  }, 60_000);

  /** The outbox ids the SMTP stand-in received, one entry per message received. */
  function receivedOutboxIds(): number[] {
    return smtp.received.map((mail) => Number(/^X-Outbox-Id: (\d+)\r?$/im.exec(mail.raw)?.[1]));
  }

  /** Waits until nothing is queued or being sent, then checks each sent row reached the SMTP stand-in once. */
  async function expectEachMailDeliveredOnce(): Promise<void> {
    const { MailOutbox } = db.models;
    await waitFor(
      async () => (await MailOutbox.count({ where: { status: { [Op.in]: ['queued', 'sending'] } } })) === 0,
      20_000,
      'the outbox to empty',
    );
    const sent = (await MailOutbox.findAll({ attributes: ['id', 'status'] })).map((row) => row.toJSON());
    expect(sent.filter((row) => row.status !== 'sent')).toEqual([]);
    await waitFor(() => smtp.received.length >= sent.length, 10_000, 'the SMTP stand-in to receive them');
    const ids = receivedOutboxIds();
    expect(ids.length).toBe(sent.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(sent.map((row) => row.id).sort((a, b) => a - b));
    // And each was sent by one process: the three logs together name each message once.
    const deliveries = cluster.processes.flatMap((api) => api.logged('mail sent').map((line) => line.mailId));
    expect([...deliveries].sort()).toEqual([...ids].sort());
  }

  it('a session signed in on one process is honoured by the others, and signing out on one ends it on all', async () => {
    const [p0, p1, p2] = cluster.processes as [ApiProcess, ApiProcess, ApiProcess];
    const registered = await new TestBrowser(p1.url).post(
      '/api/auth/register',
      registration({ email: 'sam@example.com' }),
    );
    expect(registered.status).toBe(201);

    const sam = new TestBrowser(p0.url);
    expect((await sam.post('/api/auth/login', { email: 'sam@example.com', password: PASSWORD })).status).toBe(
      200,
    );
    for (const other of [p1, p2]) {
      const res = await carry(sam, other.url).get<{ user: { email: string } | null }>('/api/session');
      expect(res.body.user).toMatchObject({ email: 'sam@example.com' });
    }
    const throughProxy = carry(sam, cluster.url);
    const served = new Set<string | null>();
    for (let i = 0; i < 3; i++) {
      const res = await throughProxy.get<{ user: { email: string } | null }>('/api/account');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ email: 'sam@example.com' });
      served.add(servedBy(res));
    }
    expect(served).toEqual(new Set(['0', '1', '2']));

    expect((await carry(sam, p2.url).post('/api/auth/logout')).status).toBe(204);
    for (const other of [p0, p1]) {
      const res = await carry(sam, other.url).get<{ user: unknown; expired: boolean }>('/api/session');
      expect(res.body).toEqual({ user: null, expired: true });
    }

    // Three processes started on one empty schema: the demo content is there once.
    expect(await db.models.Store.count()).toBe(4);
    const [products] = await db.sequelize.query(
      'SELECT name, COUNT(*)::int AS n FROM products GROUP BY name HAVING COUNT(*) > 1',
    );
    expect(products).toEqual([]);
  });

  it('counts wrong passwords across processes: the eleventh is refused whichever process gets it', async () => {
    const email = 'guess@example.com';
    expect(
      (await new TestBrowser(cluster.url).post('/api/auth/register', registration({ email }))).status,
    ).toBe(201);
    // Fifteen wrong passwords at once, five to each process: exactly ten are judged, the rest refused.
    const answers = await Promise.all(
      cluster.processes.flatMap((api) =>
        Array.from({ length: 5 }, (_, i) =>
          new TestBrowser(api.url).post<{ error: { code: string; message: string } }>('/api/auth/login', {
            email,
            password: `Wrong guess number ${api.index}-${i}`,
          }),
        ),
      ),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(401), ...Array<number>(5).fill(429)]);
    for (const refused of answers.filter((res) => res.status === 429)) {
      expect(refused.body.error.message).toBe(TOO_MANY_SIGN_INS);
    }

    // The eleventh, whichever process gets it, directly or through the proxy: refused, even when right.
    for (const api of cluster.processes) {
      const wrong = await new TestBrowser(api.url).post<{ error: { message: string } }>('/api/auth/login', {
        email,
        password: 'Yet another wrong one',
      });
      expect(wrong.status).toBe(429);
      expect(wrong.body.error.message).toBe(TOO_MANY_SIGN_INS);
      expect(Number(wrong.headers.get('retry-after'))).toBeGreaterThan(0);
      const right = await new TestBrowser(api.url).post('/api/auth/login', { email, password: PASSWORD });
      expect(right.status).toBe(429);
    }
    const viaProxy = await new TestBrowser(cluster.url).post('/api/auth/login', {
      email,
      password: 'Nope 1',
    });
    expect(viaProxy.status).toBe(429);
  });

  it('an upload whose parts alternate between the processes completes intact', async () => {
    const ada = new TestBrowser(cluster.url);
    expect((await ada.post('/api/auth/register', registration())).status).toBe(201);
    const cookie = ada.cookieHeader()!;
    // Part n goes to process (n − 1) mod 3 directly; everything else through the proxy.
    const viaProxy = fetchTransport(cluster.url, { cookie });
    const direct = cluster.processes.map((api) => fetchTransport(api.url, { cookie }));
    const stored: { part: number; by: number }[] = [];
    const client = uploadClient(async (request) => {
      // The last part names the file's sha-256 (?sha256=) and completes the file where it is stored.
      const part = /\/parts\/(\d+)(?:\?|$)/.exec(request.path);
      if (!part) return viaProxy(request);
      const by = (Number(part[1]) - 1) % direct.length;
      const answer = await direct[by]!(request);
      if (answer.status === 200) stored.push({ part: Number(part[1]), by });
      return answer;
    });
    const submission = await client.createSubmission(sponsorForm);
    const big = memorySource(3 * PART + 12_345, 'keynote.mov');
    const upload = client.file(submission.id, big.source);
    upload.start();
    const outcome = await upload.settled();
    expect(outcome.state).toBe('complete');
    const fileId = upload.fileId!;
    expect(upload.info?.sha256).toBe(big.sha256);

    // Registered through one process, its parts stored by all three in turn, completed with its last part
    // by the first, which had stored none of the others: it hashed the stored file to complete it.
    expect(stored.sort((a, b) => a.part - b.part)).toEqual([
      { part: 1, by: 0 },
      { part: 2, by: 1 },
      { part: 3, by: 2 },
      { part: 4, by: 0 },
    ]);

    const row = await db.models.SubmissionFile.findByPk(fileId, { rejectOnEmpty: true });
    expect(row.sha256).toBe(big.sha256);
    expect(sha256(await readStored(row.storageKey))).toBe(big.sha256);
    expect(sha256(await staffDownload(fileId))).toBe(big.sha256);
  });

  it('removes stale unfinished uploads once, though every process looks for them', async () => {
    const cleaned = () =>
      cluster.processes
        .flatMap((api) => api.logged('stale unfinished uploads removed'))
        .reduce((sum, line) => sum + Number(line.cleaned), 0);
    await waitFor(() => cleaned() >= STALE_UPLOADS, 20_000, 'the stale uploads to be removed');
    // Until every process has had its first look, so that a second removal would show.
    const lastStart = Math.max(...cluster.processes.map((api) => api.listeningAt));
    await new Promise((r) => setTimeout(r, Math.max(0, lastStart + FIRST_CLEANUP_MS + 1_500 - Date.now())));
    expect(cleaned()).toBe(STALE_UPLOADS);
    expect(cluster.processes.flatMap((api) => api.logged('upload clean-up failed'))).toEqual([]);
    expect(await db.models.Submission.count({ where: { id: staleIds } })).toBe(0);
    expect(await db.models.SubmissionFile.count({ where: { submissionId: staleIds } })).toBe(0);
  });

  it('delivers each queued mail once, though every process runs the outbox', async () => {
    const visitor = new TestBrowser(cluster.url);
    const served = new Set<string | null>();
    for (let i = 0; i < 6; i++) {
      const res = await visitor.post('/api/contact', {
        ...CONTACT_FORM,
        message: `Message ${i} through the proxy.`,
      });
      expect(res.status).toBe(201);
      served.add(servedBy(res));
    }
    expect(served.size).toBe(3);
    await expectEachMailDeliveredOnce();
    const early = smtp.received.filter((mail) => mail.to.some((to) => to.startsWith('early-')));
    expect(early).toHaveLength(EARLY_MAILS);
    expect(smtp.received.filter((mail) => mail.raw.includes('Message 3 through the proxy.'))).toHaveLength(1);
  });

  it('copies each cloud import once, and mails the submission once when the last one lands', async () => {
    const owner = new TestBrowser(cluster.url);
    expect(
      (await owner.post('/api/auth/register', registration({ email: 'cloud@example.com' }))).status,
    ).toBe(201);
    const created = await owner.post<{ submission: { id: string } }>('/api/uploads/submissions', sponsorForm);
    const submissionId = created.body.submission.id;
    drive.delayMs = 40;
    const files = Array.from({ length: 6 }, (_, i) => ({
      id: `scale-${i}`,
      data: randomBytes(PART + 1000 * (i + 1)),
    }));
    for (const f of files)
      drive.files.set(f.id, { name: `${f.id}.mov`, mimeType: 'video/mp4', data: f.data });

    const started: UploadFileInfo[] = [];
    for (const f of files) {
      const res = await owner.post<{ file: UploadFileInfo }>(
        `/api/uploads/submissions/${submissionId}/imports`,
        {
          provider: 'google-drive',
          fileId: f.id,
          name: `${f.id}.mov`,
        },
      );
      expect(res.status).toBe(201);
      started.push(res.body.file);
    }
    // Sent while the server is still copying: the notice waits for the last file.
    expect((await owner.post(`/api/uploads/submissions/${submissionId}/submit`, {})).status).toBe(200);

    for (const [i, file] of started.entries()) {
      let info: UploadFileInfo | undefined;
      await waitFor(
        async () => {
          info = (await owner.get<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}`)).body.file;
          return info.status === 'complete' && info.import?.status === 'complete';
        },
        30_000,
        `import ${file.name}`,
      );
      expect(info!.sha256).toBe(sha256(files[i]!.data));
    }
    // Every range was fetched once: no two processes copied the same part.
    const ranges = drive.mediaRequests.map((r) => `${r.id} ${r.range}`);
    expect(ranges).toHaveLength(12);
    expect(new Set(ranges).size).toBe(12);
    const completions = cluster.processes.flatMap((api) => api.logged('cloud import complete'));
    expect(completions).toHaveLength(6);
    // Nor did any attempt fail: an import taken by a worker before its storage was prepared did.
    const interrupted = cluster.processes.flatMap((api) =>
      api.logged('cloud import interrupted; it will resume'),
    );
    expect(interrupted).toEqual([]);

    // The last import's process queues the notice after it logs the import complete: waited for, not
    // assumed (the outbox is empty, and so 'delivered', until it does).
    const noticesOf = () =>
      db.models.MailOutbox.findAll({ where: { textBody: { [Op.like]: `%${submissionId}%` } } });
    await waitFor(async () => (await noticesOf()).length > 0, 20_000, 'the staff notice to be queued');
    await expectEachMailDeliveredOnce();
    const notices = await noticesOf();
    expect(notices.map((n) => n.toAddress)).toEqual([config.STAFF_EMAIL]);
    expect(await db.models.MailOutbox.count({ where: { toAddress: 'cloud@example.com' } })).toBe(1);
  });

  it('a Stripe webhook replayed to each process pays the order once, with one confirmation mail', async () => {
    const exhibitor = new TestBrowser(cluster.url);
    const { body } = await exhibitor.get<{ store: StoreJson }>('/api/stores/demo-expo');
    const store = body.store;
    const cart = [
      { productId: store.products[0]!.id, count: 2 },
      { productId: store.products[1]!.id, count: 1 },
    ];
    const created = await exhibitor.post<IntentJson>('/api/stores/demo-expo/payment-intents', { cart });
    expect(created.status).toBe(201);
    const intent = created.body;
    const updated = await exhibitor.put(
      `/api/orders/${intent.orderId}`,
      { cart, customer: customerFor(store) },
      { 'x-order-token': intent.token },
    );
    expect(updated.status).toBe(200);

    const paid = stripe.succeed(intent.intentID, { brand: 'visa', last4: '4242' });
    const payload = stripeEvent('evt_scale_out_1', 'payment_intent.succeeded', paid);
    const deliver = (api: ApiProcess) =>
      fetch(`${api.url}/api/webhooks/stripe`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        },
        body: payload,
      }).then(async (res) => ({ status: res.status, ...((await res.json()) as { outcome: string }) }));
    // Stripe retries a delivery it thinks failed: here it reaches every process, twice, at once.
    const outcomes = await Promise.all([...cluster.processes, ...cluster.processes].map(deliver));
    expect(outcomes.every((o) => o.status === 200)).toBe(true);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual([
      ...Array<string>(5).fill('duplicate_event'),
      'paid',
    ]);
    // Another event about the same intent, at each process: the order is settled already.
    const again = stripeEvent('evt_scale_out_2', 'payment_intent.succeeded', paid);
    const later: string[] = [];
    for (const api of cluster.processes) {
      const res = await fetch(`${api.url}/api/webhooks/stripe`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({
            payload: again,
            secret: WEBHOOK_SECRET,
          }),
        },
        body: again,
      });
      later.push(((await res.json()) as { outcome: string }).outcome);
    }
    expect(later).toEqual(['already_settled', 'duplicate_event', 'duplicate_event']);

    const orders = await db.models.Order.findAll({ where: { status: 'paid' } });
    expect(orders.map((o) => o.id)).toEqual([intent.orderId]);
    await expectEachMailDeliveredOnce();
    const confirmations = await db.models.MailOutbox.findAll({
      where: { toAddress: customerFor(store).email },
    });
    expect(confirmations).toHaveLength(1);
    expect(receivedOutboxIds().filter((id) => id === confirmations[0]!.id)).toHaveLength(1);
    expect(await db.models.WebhookEvent.count({ where: { eventId: 'evt_scale_out_1' } })).toBe(1);
  });

  it(
    'an upload goes on through the other two when a process is killed mid-part, and completes intact',
    { timeout: 60_000 },
    async () => {
      const ada = new TestBrowser(cluster.url);
      expect(
        (await ada.post('/api/auth/login', { email: 'ada@example.com', password: PASSWORD })).status,
      ).toBe(200);
      // Retries that outlast the write claim the killed process held on its part (claims.ts, 10 s).
      const client = uploadClient(fetchTransport(cluster.url, { cookie: ada.cookieHeader()! }), {
        retries: 20,
        baseMs: 200,
        maxMs: 1_500,
      });
      const submission = await client.createSubmission(sponsorForm);
      const big = memorySource(6 * PART + 777, 'long-session.mov');
      const upload = client.file(submission.id, big.source);

      // The victim is whichever process gets the next part once two are stored, a moment into its body,
      // while it holds the part's write claim.
      let victim: ApiProcess | undefined;
      let killing: Promise<number> | undefined;
      cluster.proxy.onForward = (forwarded) => {
        const path = forwarded.path.split('?')[0]!;
        const part = /\/parts\/\d+$/.exec(path);
        if (victim || !part) return;
        const ofFile = path.replace(/\d+$/, '');
        const partsStored = cluster.proxy.log.filter((r) => r.path.startsWith(ofFile) && r.status === 200);
        if (partsStored.length < 2) return;
        victim = cluster.processes[forwarded.upstream]!;
        killing = new Promise((r) => setTimeout(r, 20))
          .then(() => cluster.kill(forwarded.upstream))
          .then(() => cluster.proxy.log.length);
      };
      try {
        upload.start();
        const outcome = await upload.settled();
        expect(outcome.state).toBe('complete');
      } finally {
        cluster.proxy.onForward = undefined;
      }
      expect(victim).toBeDefined();
      const killedAt = await killing!;
      const { index: killed, alive, child } = victim!;
      expect(alive).toBe(false);
      expect(child.signalCode).toBe('SIGKILL');

      const fileId = upload.fileId!;
      // The last part's path names the file's sha-256 (?sha256=).
      const partOf = (r: { path: string }) => Number(/(\d+)(?:\?|$)/.exec(r.path)![1]);
      const puts = cluster.proxy.log
        .map((r, at) => ({ ...r, at }))
        .filter((r) => r.method === 'PUT' && r.path.includes(`/files/${fileId}/parts/`));
      // The part in flight on the victim was cut off (502) and went to the others; every part was stored,
      // and none stored before the kill was sent again after it.
      expect(puts.some((r) => r.upstream === killed && r.status === 502)).toBe(true);
      const stored = puts.filter((r) => r.status === 200);
      expect(new Set(stored.map(partOf))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7]));
      const storedBefore = new Set(stored.filter((r) => r.at < killedAt).map(partOf));
      expect(storedBefore.size).toBeGreaterThan(0);
      expect(puts.filter((r) => r.at >= killedAt && storedBefore.has(partOf(r)))).toEqual([]);
      // Once it was gone, nothing more reached it: a refused connection passes to the next process.
      const after = cluster.proxy.log.slice(killedAt).filter((r) => r.status !== 502);
      expect(after.filter((r) => r.upstream === killed)).toEqual([]);

      const row = await db.models.SubmissionFile.findByPk(fileId, { rejectOnEmpty: true });
      expect(row).toMatchObject({ status: 'complete', sha256: big.sha256 });
      expect(sha256(await readStored(row.storageKey))).toBe(big.sha256);
      expect(sha256(await staffDownload(fileId))).toBe(big.sha256);
      await expectEachMailDeliveredOnce();
    },
  );

  async function readStored(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await new S3Storage(config).read(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  let staff: TestBrowser | undefined;
  async function staffDownload(fileId: string): Promise<Buffer> {
    if (!staff) {
      const password = 'Staff passphrase 9';
      await upsertStaffAccount(db, {
        email: 'grace@example.com',
        password,
        firstName: 'Grace',
        lastName: 'Hopper',
      });
      staff = new TestBrowser(cluster.url);
      expect((await staff.post('/api/auth/login', { email: 'grace@example.com', password })).status).toBe(
        200,
      );
    }
    const res = await fetch(`${cluster.url}/api/uploads/inbox/files/${fileId}/download`, {
      headers: { cookie: staff.cookieHeader()! },
    });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }
});

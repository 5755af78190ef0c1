// The soak's traffic: upload clients, exhibitors checking out, cloud imports, staff reads. Each kind runs as
// a few loops until `running()` turns false, then finishes what it has in hand. Every loop records what it
// did in `stats` (attempts, successes, failures, retries) and what it believes happened in `record` (the
// files it completed, the orders it paid, the imports it started), for the invariants to check.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import Stripe from 'stripe';
import { UploadClient } from '@avp/shared';
import { Browser, sleep, until } from './http.mjs';
import { seededBytes, seededSha256 } from './seeded-bytes.mjs';
import { nodeTransport } from './upload-transport.mjs';

export const PASSWORD = 'Soak passphrase 2026!';
const MIB = 1024 * 1024;

export function newStats() {
  return { attempts: 0, successes: 0, failures: 0, retries: 0, lastError: '', why: new Map() };
}

/** Counts one retry under its cause ('part 503 The database…', 'complete unreachable'), for the report. */
export function noteRetry(stats, cause) {
  stats.retries++;
  const key = cause.slice(0, 140);
  stats.why.set(key, (stats.why.get(key) ?? 0) + 1);
}

/** What an answer (or its absence) says, in one line. */
function causeOf(what, res) {
  return `${what} ${res.status || res.error} ${res.body?.error?.code ?? ''} ${res.body?.error?.message ?? ''}`;
}

/** Log-uniform between min and max: as many small files as large ones, per order of magnitude. */
function sizeBetween(min, max) {
  return Math.round(Math.exp(Math.log(min) + Math.random() * (Math.log(max) - Math.log(min))));
}

/** A signed-in client account of its own. */
export async function signedIn(url, email, stats) {
  const browser = new Browser(url, { tally: (ok) => !ok && stats && stats.retries++ });
  const registered = await until(
    async () => {
      const res = await browser.post('/api/auth/register', {
        email,
        firstname: 'Soak',
        lastname: 'Tester',
        company: 'Fault Injection Inc',
        phone: '(555) 123-4567',
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      if (res.status === 201 || res.status === 409) return res;
      return undefined;
    },
    { timeoutMs: 60_000, everyMs: 1_000 },
  );
  if (!registered) throw new Error(`could not register ${email}`);
  if (browser.cookies.size === 0) {
    const login = await until(
      async () =>
        (await browser.post('/api/auth/login', { email, password: PASSWORD })).status === 200 ? 1 : 0,
      { timeoutMs: 60_000, everyMs: 1_000 },
    );
    if (!login) throw new Error(`could not sign in ${email}`);
  }
  return browser;
}

function uploadClientFor(url, browser, stats) {
  const lastRetry = { cause: undefined };
  const transport = nodeTransport(url, {
    cookie: () => browser.cookieHeader(),
    origin: url,
  });
  const client = new UploadClient({
    transport,
    createHasher: () => {
      const hash = createHash('sha256');
      return { update: (data) => void hash.update(data), digest: () => hash.digest('hex') };
    },
    // Counts every retry the client announces (parts, registration, completion alike), with its cause.
    onRetry: (notice) => {
      lastRetry.cause = `${notice.what} ${notice.status ?? notice.reason} ${notice.message ?? notice.error?.message ?? ''}`;
      noteRetry(stats, lastRetry.cause);
    },
  });
  return { client, transport, lastRetry };
}

/**
 * One upload client: a submission, files of seeded bytes sent one after another with the shared client
 * (4 parts in flight, its own retries and timeouts), each sent again from where it stopped when the
 * client gives up on it (as a person presses Retry), and the submission sent every few files.
 */
export async function uploader({ url, index, running, stats, record, minBytes, maxBytes, log }) {
  const browser = await signedIn(url, `soak-uploader-${index}-${randomBytes(3).toString('hex')}@example.com`);
  const { client, transport, lastRetry } = uploadClientFor(url, browser, stats);
  try {
    let submission;
    let sent = [];
    while (running()) {
      if (!submission) {
        submission = await client
          .createSubmission({ form_type: 'creative', project_name: `Soak ${index}` })
          .catch((error) => {
            stats.lastError = `creating a submission: ${error.message}`;
            return undefined;
          });
        if (!submission) {
          await sleep(2_000);
          continue;
        }
      }
      const size = sizeBetween(minBytes, maxBytes);
      const seed = randomBytes(8).toString('hex');
      const name = `soak-${index}-${seed}.bin`;
      const entry = {
        seed,
        size,
        name,
        sourceSha: seededSha256(seed, size),
        fileId: undefined,
        serverSha: undefined,
        state: 'sending',
        rounds: 0,
      };
      record.uploads.push(entry);
      stats.attempts++;
      const source = {
        name,
        size,
        type: 'application/octet-stream',
        lastModified: 1_700_000_000_000,
        read: async (start, end) => seededBytes(seed, start, end),
      };
      // The person's Retry: the same file again resumes from the parts the server holds; given up only at
      // the end of the soak.
      for (;;) {
        entry.rounds++;
        const upload = client.file(submission.id, source);
        upload.start();
        const outcome = await upload.settled();
        entry.fileId = upload.fileId ?? entry.fileId;
        entry.lastRetry = lastRetry.cause;
        if (outcome.state === 'complete') {
          entry.state = 'complete';
          entry.serverSha = upload.info?.sha256 ?? outcome.file?.sha256;
          stats.successes++;
          sent.push(entry.fileId);
          break;
        }
        stats.lastError = `${outcome.state}: ${outcome.error?.message ?? ''}`;
        log(`upload ${name} (${size} B) ${outcome.state}: ${outcome.error?.message ?? ''}; trying it again`);
        if (!running() && Date.now() > record.drainUntil) {
          entry.state = 'given up';
          stats.failures++;
          break;
        }
        await sleep(1_000);
      }
      if (sent.length >= 3) {
        const done = await client.submit(submission.id, sent).catch((error) => {
          stats.lastError = `sending the submission: ${error.message}`;
          return undefined;
        });
        if (done) {
          record.submitted.push(submission.id);
          submission = undefined;
          sent = [];
        }
      }
    }
  } finally {
    transport.close();
  }
}

function customerFor(store, email) {
  return {
    company: 'Acme Widgets',
    firstName: 'Grace',
    lastName: 'Hopper',
    email,
    phone: '(312) 555-0101',
    address: '1 Main St',
    city: 'Chicago',
    state: 'IL',
    zip: '60607',
    onsiteFirstName: 'Alan',
    onsiteLastName: 'Turing',
    onsiteEmail: 'alan@acme.example',
    onsitePhone: '312-555-0102',
    booth: '1142',
    room: 'Hall B',
    deliveryDate: store.start_date,
    deliveryTime: '8:00 AM',
    pickupDate: store.end_date,
    pickupTime: '5:00 PM',
  };
}

/** Retries one step of a checkout as a person (or Stripe) would, until it gives an expected status. */
async function step(stats, fn, ok, { timeoutMs = 60_000, what }) {
  let last;
  const answer = await until(
    async () => {
      last = await fn();
      if (ok(last.status)) return last;
      noteRetry(stats, causeOf(what, last));
      return undefined;
    },
    { timeoutMs, everyMs: 1_000 },
  );
  if (!answer)
    throw new Error(`${what}: ${last?.status} ${last?.error ?? JSON.stringify(last?.body)?.slice(0, 200)}`);
  return answer;
}

/**
 * One exhibitor after another: the store page, a cart, the intent, the checkout form, Stripe.js confirming
 * the payment (the stand-in's succeed()), and then the browser's confirm call, Stripe's webhook (delivered
 * again until it answers 2xx, as Stripe does), or both.
 */
export async function exhibitor({ url, apiUrl, index, running, stats, record, stripe, webhookSecret }) {
  let n = 0;
  while (running()) {
    n++;
    stats.attempts++;
    const email = `soak-exhibitor-${index}-${n}-${randomBytes(3).toString('hex')}@example.com`;
    const browser = new Browser(url);
    const order = {
      email,
      orderId: undefined,
      total: undefined,
      intentId: undefined,
      captured: false,
      how: '',
    };
    try {
      const page = await step(
        stats,
        () => browser.get('/api/stores/demo-expo'),
        (s) => s === 200,
        { what: 'store page' },
      );
      const store = page.body.store;
      const products = [...store.products].sort(() => Math.random() - 0.5).slice(0, randomInt(1, 4));
      const cart = products.map((product) => ({ productId: product.id, count: randomInt(1, 4) }));
      const created = await step(
        stats,
        () => browser.post('/api/stores/demo-expo/payment-intents', { cart }),
        (s) => s === 201,
        { what: 'payment intent' },
      );
      const intent = created.body;
      Object.assign(order, { orderId: intent.orderId, intentId: intent.intentID });
      record.orders.push(order);
      const updated = await step(
        stats,
        () =>
          browser.put(
            `/api/orders/${intent.orderId}`,
            { cart, customer: customerFor(store, email) },
            { 'x-order-token': intent.token },
          ),
        (s) => s === 200,
        { what: 'checkout form' },
      );
      order.total = updated.body.total;
      const paid = stripe.succeed(intent.intentID, { brand: 'visa', last4: '4242' });
      order.captured = true;
      order.how = ['confirm', 'webhook', 'both'][randomInt(0, 3)];
      if (order.how !== 'webhook') {
        const confirmed = await step(
          stats,
          () => browser.post(`/api/orders/${intent.orderId}/confirm`, {}, { 'x-order-token': intent.token }),
          (s) => s === 200,
          { what: 'confirm' },
        );
        order.answered = confirmed.body.status;
      }
      if (order.how !== 'confirm') {
        const payload = JSON.stringify({
          id: `evt_soak_${randomBytes(8).toString('hex')}`,
          object: 'event',
          api_version: '2026-10-28.endive',
          created: Math.floor(Date.now() / 1000),
          data: { object: paid },
          livemode: false,
          pending_webhooks: 1,
          request: { id: null, idempotency_key: null },
          type: 'payment_intent.succeeded',
        });
        const stripeSide = new Browser(apiUrl, { origin: null });
        // Stripe retries for days; the soak for a minute and a half at most.
        await step(
          stats,
          () =>
            stripeSide.call(
              'POST',
              '/api/webhooks/stripe',
              undefined,
              {
                'content-type': 'application/json',
                'stripe-signature': Stripe.webhooks.generateTestHeaderString({
                  payload,
                  secret: webhookSecret,
                }),
              },
              payload,
            ),
          (s) => s >= 200 && s < 300,
          { what: 'webhook', timeoutMs: 90_000 },
        );
      }
      stats.successes++;
    } catch (error) {
      stats.failures++;
      stats.lastError = error.message;
      order.error = error.message;
    }
  }
}

/**
 * Cloud imports one after another into an open submission: a file of seeded bytes put on the provider
 * stand-in, the import started as the portal starts it, and followed (polled) until it is complete or
 * failed. Every few imports the submission is sent and a new one opened.
 */
export async function importer({ url, index, running, stats, record, provider, maxBytes }) {
  const browser = await signedIn(
    url,
    `soak-importer-${index}-${randomBytes(3).toString('hex')}@example.com`,
    stats,
  );
  let submissionId;
  let sent = 0;
  while (running()) {
    if (!submissionId) {
      const created = await browser.post('/api/uploads/submissions', {
        form_type: 'sponsor',
        event_name: 'Soak Expo',
        sponsor_company: `Importer ${index}`,
      });
      if (created.status !== 201) {
        noteRetry(stats, causeOf('new submission', created));
        await sleep(1_000);
        continue;
      }
      submissionId = created.body.submission.id;
    }
    stats.attempts++;
    const seed = randomBytes(8).toString('hex');
    const size = sizeBetween(MIB, maxBytes);
    const id = `soak-${seed}`;
    provider.add(id, { name: `${id}.mp4`, size, seed });
    const entry = {
      id,
      seed,
      size,
      sourceSha: seededSha256(seed, size),
      fileId: undefined,
      state: 'starting',
    };
    record.imports.push(entry);
    const started = await until(
      async () => {
        const res = await browser.post(`/api/uploads/submissions/${submissionId}/imports`, {
          provider: 'google-drive',
          fileId: id,
          name: `${id}.mp4`,
          accessToken: 'soak-access-token',
        });
        if (res.status === 201 || res.status === 200) return res;
        noteRetry(stats, causeOf('start', res));
        stats.lastError = `starting an import: ${res.status} ${res.error ?? JSON.stringify(res.body).slice(0, 200)}`;
        return undefined;
      },
      { timeoutMs: 60_000, everyMs: 1_000 },
    );
    if (!started) {
      entry.state = 'not started';
      stats.failures++;
      continue;
    }
    entry.fileId = started.body.file.id;
    entry.state = 'started';
    // Followed until it ends, through the drain too: an import is the server's work once started.
    const ended = await until(
      async () => {
        const res = await browser.get(`/api/uploads/files/${entry.fileId}`);
        if (res.status !== 200) return undefined;
        const status = res.body.file.import?.status;
        return status === 'complete' || status === 'failed' || status === 'needs_auth'
          ? res.body.file
          : undefined;
      },
      { timeoutMs: 24 * 3600_000, everyMs: 500, stop: () => !running() && Date.now() > record.drainUntil },
    );
    entry.state = ended?.import?.status ?? 'still running at the end';
    entry.error = ended?.import?.error ?? null;
    if (entry.state === 'complete') {
      stats.successes++;
      sent++;
    } else {
      stats.failures++;
      stats.lastError = `import ${entry.state}: ${entry.error ?? ''}`;
    }
    if (sent >= 3 && running()) {
      const res = await browser.post(`/api/uploads/submissions/${submissionId}/submit`, {});
      if (res.status === 200) {
        record.submitted.push(submissionId);
        submissionId = undefined;
        sent = 0;
      }
    }
  }
}

/** Staff at their screens: the orders list, the pull sheet, the uploads inbox, every couple of seconds. */
export async function staffReader({ url, running, stats, staff }) {
  const storeList = await until(
    async () => {
      const res = await staff.get('/api/staff/stores');
      return res.status === 200 ? res.body.stores : undefined;
    },
    { timeoutMs: 60_000 },
  );
  const demo = storeList?.find((s) => s.store_id === 'demo-expo') ?? storeList?.[0];
  while (running()) {
    for (const path of [
      '/api/staff/orders?status=all',
      `/api/staff/stores/${demo?.id}/pull-sheet`,
      '/api/uploads/inbox?limit=50',
    ]) {
      stats.attempts++;
      const res = await staff.get(path);
      if (res.status === 200) stats.successes++;
      else {
        stats.failures++;
        noteRetry(stats, causeOf(path.split('?')[0], res));
        stats.lastError = `${path}: ${res.status} ${res.error ?? JSON.stringify(res.body).slice(0, 200)}`;
      }
    }
    await sleep(2_000);
  }
  void url;
}

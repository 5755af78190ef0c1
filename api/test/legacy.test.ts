import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import {
  EMAIL_ALREADY_EXISTS,
  LOGIN_FAILED,
  LOGIN_PASSWORD_REQUIRED,
  SESSION_EXPIRED,
  priceOrder,
  SPONSOR_COMPANY_REQUIRED,
  STORE_CLOSED_TRANSACTION,
  UPLOAD_PART_SIZE,
} from '@avp/shared';
import type { InboxSubmission } from '@avp/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_LIMITS, FORGOT_PASSWORD_SENT, RESET_MAIL_SUBJECT } from '../src/modules/accounts/index.js';
import { TOO_MANY_SIGN_INS } from '../src/modules/accounts/routes.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { CROSS_SITE_MESSAGE } from '../src/http/same-origin.js';
import { CLIENT_LOG_LIMITS, CLIENT_LOG_TOO_LARGE } from '../src/modules/legacy/client-log.js';
import { FOREIGN_LINK } from '../src/adapters/cloud/index.js';
import { NOT_BASE64 } from '../src/modules/legacy/encoding.js';
import { ORDER_NOT_PAID, PAYMENT_TEST_NEEDS_TEST_GATEWAY } from '../src/modules/legacy/payments.js';
import { startTestApp } from './helpers/app.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';
import { PARTS_IN_ORDER } from '../src/modules/uploads/index.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { customerFor, DECLINED, seeded, VISA } from './helpers/store.js';
import type { StoreJson } from './helpers/store.js';
import { StripeStandIn } from './helpers/stripe-stand-in.js';

/**
 * The contract of the spec's original calls (SPEC §7, modules/legacy): each replayed in the original's
 * shape (base64 passwords, base64 chunks, base64 store fields, the dotted token) over HTTP, with its
 * answer and its effects read back through the new API or the database.
 */

let t: TestApp | undefined;
let stripe: StripeStandIn | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  await stripe?.stop();
  t = undefined;
  stripe = undefined;
});

const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_server0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_server0123456789',
  STRIPE_WEBHOOK_SECRET: 'whsec_test_0123456789abcdef',
};

const PASSWORD = 'Difference Engine 1843';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/**
 * One call as an integration makes it: JSON, no cookie, no Origin, the token as a bearer header or in
 * the body, as the caller chooses.
 */
async function call<T = Record<string, unknown>>(
  app: TestApp,
  method: string,
  path: string,
  options: { body?: unknown; bearer?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

const post = <T = Record<string, unknown>>(app: TestApp, path: string, body?: unknown, bearer?: string) =>
  call<T>(app, 'POST', path, { body: body ?? {}, bearer });

interface SignedIn {
  isAuthenticated: boolean;
  token: string;
  user: { userid: number; email: string; firstname: string; lastname: string };
  expiresAt: string;
}

/** The original registration form: SPEC §3 'Client user' fields, the password base64-encoded. */
function legacyRegistration(overrides: Record<string, unknown> = {}) {
  const { confirmPassword: _confirm, password, ...fields } = registration(overrides);
  return { ...fields, password: b64(String(password)) };
}

async function registerLegacy(app: TestApp, overrides: Record<string, unknown> = {}): Promise<SignedIn> {
  const res = await post<SignedIn>(app, '/api/updateUser.php', legacyRegistration(overrides));
  expect(res.status).toBe(201);
  return res.body;
}

async function loginLegacy(app: TestApp, email = 'ada@example.com', password = PASSWORD): Promise<SignedIn> {
  const res = await post<SignedIn>(app, '/api/login.php', { email, password: b64(password) });
  expect(res.status).toBe(200);
  return res.body;
}

function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

const STAFF = {
  email: 'grace@example.com',
  password: 'Staff passphrase 9',
  firstName: 'Grace',
  lastName: 'Hopper',
};

/** A staff member signed in on the new staff screens (cookie). */
async function staffBrowser(app: TestApp): Promise<TestBrowser> {
  await upsertStaffAccount(app.db, STAFF);
  const browser = new TestBrowser(app.url);
  expect(
    (await browser.post('/api/auth/login', { email: STAFF.email, password: STAFF.password })).status,
  ).toBe(200);
  return browser;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const SPONSOR = { form_type: 'sponsor', event_name: 'Expo 2027', sponsor_company: 'Acme AV' };

/** One chunk of the original's upload: `part` with the base64 of bytes start..end. */
function chunk(bytes: Buffer, index: number, extra: Record<string, unknown> = {}) {
  const start = index * UPLOAD_PART_SIZE;
  return {
    ...SPONSOR,
    action: 'part',
    file_name: 'keynote.mov',
    file: bytes.subarray(start, start + UPLOAD_PART_SIZE).toString('base64'),
    ...extra,
  };
}

/** Moves this process's clock (the server runs in it) forward; timers stay real. */
function advanceClock(seconds: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now + seconds * 1000);
}

describe.each(DIALECTS)('legacy calls on %s', (dialect) => {
  describe('accounts: login.php, logout.php, updateUser.php, forgotPassword.php, check.php, status.php', () => {
    it('registers with a base64 password and answers a three-part token whose middle part is the user', async () => {
      t = await startTestApp({ dialect });
      const registered = await registerLegacy(t);
      expect(registered.isAuthenticated).toBe(true);
      expect(registered.token.split('.')).toHaveLength(3);
      const payload = payloadOf(registered.token);
      expect(payload).toMatchObject({
        userid: registered.user.userid,
        email: 'ada@example.com',
        firstname: 'Ada',
        lastname: 'Lovelace',
      });
      expect(Number(payload.exp) - Number(payload.iat)).toBe(t.config.SESSION_MAX_SECONDS);

      // The password was stored decoded: the new API's sign-in takes it in plain text.
      const browser = new TestBrowser(t.url);
      expect(
        (await browser.post('/api/auth/login', { email: 'ada@example.com', password: PASSWORD })).status,
      ).toBe(200);
      // The same address again: the spec's text in `error`, as the original page shows it.
      const again = await post(t, '/api/updateUser.php', legacyRegistration());
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: EMAIL_ALREADY_EXISTS, isAuthenticated: false });
    });

    it('signs in with a base64 password; a wrong one answers the spec text and isAuthenticated false', async () => {
      t = await startTestApp({ dialect });
      await registerLegacy(t);
      const signedIn = await loginLegacy(t);
      expect(signedIn).toMatchObject({ isAuthenticated: true, user: { email: 'ada@example.com' } });

      const wrong = await post(t, '/api/login.php', {
        email: 'ada@example.com',
        password: b64('not it at all'),
      });
      expect(wrong).toEqual({
        status: 401,
        body: { isAuthenticated: false, error: LOGIN_FAILED, code: 'invalid_credentials' },
      });
      const empty = await post(t, '/api/login.php', { email: 'ada@example.com', password: '' });
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ isAuthenticated: false, error: LOGIN_PASSWORD_REQUIRED });
      const plain = await post(t, '/api/login.php', { email: 'ada@example.com', password: 'not base64!' });
      expect(plain.status).toBe(400);
      expect(plain.body).toMatchObject({ isAuthenticated: false, fields: { password: expect.any(String) } });

      const actions = await t.db.models.AuditLog.findAll({ where: { action: 'sign_in' } });
      expect(actions.map((a) => (a.after as { via?: string }).via)).toEqual(['bearer', 'bearer']);
    });

    it('the token is a bearer credential (header or body) until logout, and its signature is checked', async () => {
      t = await startTestApp({ dialect });
      await registerLegacy(t);
      const { token } = await loginLegacy(t);

      const byHeader = await call(t, 'GET', '/api/check.php', { bearer: token });
      expect(byHeader).toMatchObject({
        status: 200,
        body: { isAuthenticated: true, user: { email: 'ada@example.com' } },
      });
      const byBody = await post(t, '/api/status.php', { token });
      expect(byBody.body).toMatchObject({ isAuthenticated: true });
      // Only the legacy calls read the dotted token; the new API sees no session in it.
      expect((await call(t, 'GET', '/api/session', { bearer: token })).body).toMatchObject({ user: null });

      // Another user's info in the middle part, the signature left as it was: refused.
      const [header, , signature] = token.split('.');
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...payloadOf(token), userid: 999 })).toString('base64url')}.${signature}`;
      expect((await call(t, 'GET', '/api/check.php', { bearer: forged })).status).toBe(403);

      const out = await post(t, '/api/logout.php', undefined, token);
      expect(out).toEqual({ status: 200, body: { success: true, isAuthenticated: false } });
      const after = await call(t, 'GET', '/api/check.php', { bearer: token });
      expect(after).toEqual({
        status: 403,
        body: { isAuthenticated: false, expired: true, error: SESSION_EXPIRED, code: 'session_expired' },
      });
      expect((await post(t, '/api/status.php', { token })).body).toEqual({
        isAuthenticated: false,
        expired: true,
      });
      const signOuts = await t.db.models.AuditLog.count({ where: { action: 'sign_out' } });
      expect(signOuts).toBe(1);
    });

    it("the token's readable middle part holds no credential: nothing in it opens a session as a bearer or cookie", async () => {
      t = await startTestApp({ dialect });
      await registerLegacy(t);
      const { token } = await loginLegacy(t);
      expect((await call(t, 'GET', '/api/check.php', { bearer: token })).status).toBe(200);
      const payload = payloadOf(token);
      expect(payload).not.toHaveProperty('sid');
      // Every text of the decoded middle part, tried on the new API as a bearer token and as the cookie.
      const candidates = Object.values(payload).filter((v): v is string => typeof v === 'string');
      expect(candidates.length).toBeGreaterThan(0);
      for (const value of candidates) {
        const asBearer = await call<{ user: unknown }>(t, 'GET', '/api/session', { bearer: value });
        expect(asBearer.body.user).toBeNull();
        const asCookie = await call<{ user: unknown }>(t, 'GET', '/api/session', {
          headers: { cookie: `avp_session=${encodeURIComponent(value)}` },
        });
        expect(asCookie.body.user).toBeNull();
      }
    });

    it('a token issued before, with the session token in its middle part, fails cleanly: sign in again', async () => {
      t = await startTestApp({ dialect });
      await registerLegacy(t);
      const browser = new TestBrowser(t.url);
      expect(
        (await browser.post('/api/auth/login', { email: 'ada@example.com', password: PASSWORD })).status,
      ).toBe(200);
      const sid = browser.cookies.get('avp_session')!;
      expect(
        (await call<{ user: unknown }>(t, 'GET', '/api/session', { bearer: sid })).body.user,
      ).not.toBeNull();
      // The former format, signed as it was then: the same header and key, `sid` in the payload.
      const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      const body = Buffer.from(
        JSON.stringify({
          userid: 1,
          email: 'ada@example.com',
          firstname: 'Ada',
          lastname: 'Lovelace',
          iat: now,
          exp: now + 3600,
          sid,
        }),
      ).toString('base64url');
      const key = Buffer.from(
        hkdfSync('sha256', t.config.SESSION_SECRET, 'avp-legacy-session-token', 'hs256-key', 32),
      );
      const signature = createHmac('sha256', key).update(`${header}.${body}`).digest('base64url');
      const old = `${header}.${body}.${signature}`;
      expect(await call(t, 'GET', '/api/check.php', { bearer: old })).toEqual({
        status: 403,
        body: { isAuthenticated: false, expired: true, error: SESSION_EXPIRED, code: 'session_expired' },
      });
      expect((await post(t, '/api/status.php', { token: old })).body).toEqual({
        isAuthenticated: false,
        expired: true,
      });
    });

    it('the token ends with its session, SESSION_MAX_SECONDS after sign-in', async () => {
      t = await startTestApp({ dialect, env: { SESSION_MAX_SECONDS: '120' } });
      await registerLegacy(t);
      const { token } = await loginLegacy(t);
      advanceClock(100);
      expect((await call(t, 'GET', '/api/check.php', { bearer: token })).status).toBe(200);
      advanceClock(21);
      const expired = await call(t, 'GET', '/api/check.php', { bearer: token });
      expect(expired.status).toBe(403);
      expect(expired.body).toMatchObject({ expired: true, error: SESSION_EXPIRED });
    });

    it('updates the account with the token: an empty password keeps it, the new token carries the new name', async () => {
      t = await startTestApp({ dialect });
      const { token } = await registerLegacy(t);
      const updated = await post<SignedIn>(t, '/api/updateUser.php', {
        ...legacyRegistration({ firstname: 'Augusta' }),
        password: '',
        token,
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ isAuthenticated: true, user: { firstname: 'Augusta' } });
      expect(payloadOf(updated.body.token)).toMatchObject({ firstname: 'Augusta' });
      // The same session: the old token works as well as the new one.
      expect((await call(t, 'GET', '/api/check.php', { bearer: token })).status).toBe(200);
      expect((await call(t, 'GET', '/api/check.php', { bearer: updated.body.token })).status).toBe(200);
      await loginLegacy(t);

      // Once the session has ended the update is refused, not taken for a new registration.
      const { token: other } = await loginLegacy(t);
      await post(t, '/api/logout.php', {}, other);
      expect(
        await post(t, '/api/updateUser.php', { ...legacyRegistration(), password: '', token: other }),
      ).toEqual({
        status: 403,
        body: { isAuthenticated: false, error: SESSION_EXPIRED, code: 'session_expired' },
      });

      const bad = await post(t, '/api/updateUser.php', { ...legacyRegistration({ phone: '12' }), token });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({
        isAuthenticated: true,
        error: 'Please enter a valid phone number: (xxx)-xxx-xxxx',
      });
    });

    it('forgot password answers success and queues the reset mail; an empty address answers its error', async () => {
      t = await startTestApp({ dialect });
      await registerLegacy(t);
      const sent = await post(t, '/api/forgotPassword.php', { email: 'ada@example.com' });
      expect(sent).toEqual({ status: 200, body: { success: true, message: FORGOT_PASSWORD_SENT } });
      // The answer goes out before the work (its timing must not tell whether the account exists).
      const app = t;
      await expect
        .poll(async () => (await app.db.models.MailOutbox.findAll()).map((m) => [m.toAddress, m.subject]))
        .toEqual([['ada@example.com', RESET_MAIL_SUBJECT]]);
      const empty = await post(t, '/api/forgotPassword.php', { email: '' });
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ success: false, error: expect.any(String) });
    });

    it('counts sign-ins against the same limits as the new API', async () => {
      t = await startTestApp({ dialect });
      await registerLegacy(t);
      const { max } = ACCOUNT_LIMITS.loginFailures.perPair;
      const browser = new TestBrowser(t.url);
      for (let i = 0; i < max - 1; i++) {
        expect(
          (await browser.post('/api/auth/login', { email: 'ada@example.com', password: 'wrong guess' }))
            .status,
        ).toBe(401);
      }
      const last = await post(t, '/api/login.php', {
        email: 'ada@example.com',
        password: b64('wrong guess'),
      });
      expect(last.status).toBe(401);
      // The address has now guessed wrong `max` times for this account: even the right password waits.
      const limited = await post(t, '/api/login.php', { email: 'ada@example.com', password: b64(PASSWORD) });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        isAuthenticated: false,
        error: TOO_MANY_SIGN_INS,
        code: 'rate_limited',
      });
    });
  });

  describe('uploads: submitForm.php', () => {
    it('takes a 30 MB file in base64 parts, resumes after a reload, and staff read back the same bytes', async () => {
      t = await startTestApp({ dialect });
      await registerLegacy(t);
      const { token } = await loginLegacy(t);
      const bytes = randomBytes(30_000_000);
      const parts = Math.ceil(bytes.length / UPLOAD_PART_SIZE);
      expect(parts).toBe(5);

      const started = await post<{ submission_id: string; files: Record<string, { part_count: number }> }>(
        t,
        '/api/submitForm.php',
        { ...SPONSOR, action: 'init', token, files: { 'keynote.mov': bytes.length } },
      );
      expect(started.status).toBe(200);
      expect(started.body.files['keynote.mov']).toMatchObject({ part_count: 5, received_parts: [] });
      // The token in the body, as the original pages send it, and as a bearer header.
      expect((await post(t, '/api/submitForm.php', { ...chunk(bytes, 0), token })).body).toMatchObject({
        success: true,
        part_number: 1,
        parts_received: 1,
      });
      expect((await post(t, '/api/submitForm.php', chunk(bytes, 1), token)).body).toMatchObject({
        part_number: 2,
      });

      // A reload: init again with the submission's id answers what the server holds, and the next chunk
      // goes where the upload stopped.
      const resumed = await post<{
        submission_id: string;
        files: Record<string, { received_parts: number[] }>;
      }>(t, '/api/submitForm.php', {
        ...SPONSOR,
        action: 'init',
        submission_id: started.body.submission_id,
        token,
        files: { 'keynote.mov': bytes.length },
      });
      expect(resumed.body.submission_id).toBe(started.body.submission_id);
      expect(resumed.body.files['keynote.mov']!.received_parts).toEqual([1, 2]);
      for (let i = 2; i < parts; i++) {
        const sent = await post(t, '/api/submitForm.php', { ...chunk(bytes, i), token });
        expect(sent.body).toMatchObject({ part_number: i + 1 });
      }
      const finished = await post(t, '/api/submitForm.php', {
        ...SPONSOR,
        action: 'finish',
        file_name: 'keynote.mov',
        sha256: sha256(bytes),
        token,
      });
      expect(finished.body).toMatchObject({ success: true, status: 'complete', sha256: sha256(bytes) });
      const sent = await post(t, '/api/submitForm.php', { ...SPONSOR, action: 'send', token });
      expect(sent.body).toMatchObject({ success: true, status: 'submitted' });

      // The same inbox as the new protocol's, and the bytes intact through the staff download route.
      const staff = await staffBrowser(t);
      const inbox = await staff.get<{ submissions: InboxSubmission[] }>('/api/uploads/inbox');
      expect(inbox.body.submissions).toHaveLength(1);
      const [submission] = inbox.body.submissions;
      expect(submission).toMatchObject({
        formType: 'sponsor',
        fields: { event_name: 'Expo 2027', sponsor_company: 'Acme AV' },
        client: { email: 'ada@example.com' },
      });
      expect(submission!.files.map((f) => [f.name, f.size, f.sha256])).toEqual([
        ['keynote.mov', bytes.length, sha256(bytes)],
      ]);
      const download = await fetch(`${t.url}/api/uploads/inbox/files/${submission!.files[0]!.id}/download`, {
        headers: { cookie: staff.cookieHeader()! },
      });
      expect(download.status).toBe(200);
      expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
      const mails = await t.db.models.MailOutbox.findAll({ order: [['id', 'ASC']] });
      expect(mails.map((m) => m.toAddress)).toEqual([t.config.STAFF_EMAIL, 'ada@example.com']);
    });

    it.each(['local', 's3'] as const)(
      'with %s storage, takes init, then 6 MB parts with no size declared anywhere, and learns the size at finish',
      async (storage) => {
        const s3 = storage === 's3' ? await startS3StandIn() : undefined;
        try {
          t = await startTestApp({
            dialect,
            env: s3
              ? {
                  STORAGE_DRIVER: 's3',
                  S3_BUCKET: S3_STAND_IN_BUCKET,
                  S3_ENDPOINT: s3.endpoint,
                  S3_FORCE_PATH_STYLE: 'true',
                  S3_REGION: 'us-east-1',
                }
              : {},
          });
          await registerLegacy(t);
          const { token } = await loginLegacy(t);
          const reel = randomBytes(2 * UPLOAD_PART_SIZE + 12_345);
          const even = randomBytes(2 * UPLOAD_PART_SIZE);
          const started = await post<{ submission_id: string }>(t, '/api/submitForm.php', {
            ...SPONSOR,
            action: 'init',
            token,
          });
          expect(started.status).toBe(200);

          const first = await post(t, '/api/submitForm.php', { ...chunk(reel, 0), token });
          expect(first.body).toMatchObject({ success: true, part_number: 1, parts_received: 1 });
          // Parts of a file of unknown size come in order: a gap would leave the size unknowable.
          const gap = await post(t, '/api/submitForm.php', { ...chunk(reel, 2), part_number: 3, token });
          expect(gap).toMatchObject({ status: 409, body: { code: 'parts_in_order', error: PARTS_IN_ORDER } });
          for (const i of [1, 2]) {
            const sent = await post(t, '/api/submitForm.php', { ...chunk(reel, i), token });
            expect(sent.body).toMatchObject({ success: true, part_number: i + 1, part_count: i + 1 });
          }
          // The short part was the last: nothing follows it.
          const after = await post(t, '/api/submitForm.php', { ...chunk(reel, 0), token });
          expect(after).toMatchObject({ status: 409, body: { code: 'all_parts_received' } });
          // A file that ends on a whole part: its size is settled by finish.
          for (const i of [0, 1]) {
            const sent = await post(t, '/api/submitForm.php', {
              ...chunk(even, i),
              file_name: 'even.mov',
              token,
            });
            expect(sent.body).toMatchObject({ part_number: i + 1 });
          }

          for (const [name, bytes] of [
            ['keynote.mov', reel],
            ['even.mov', even],
          ] as const) {
            const finished = await post(t, '/api/submitForm.php', {
              action: 'finish',
              file_name: name,
              token,
            });
            expect(finished.body).toMatchObject({
              success: true,
              status: 'complete',
              size: bytes.length,
              part_count: Math.ceil(bytes.length / UPLOAD_PART_SIZE),
              sha256: sha256(bytes),
            });
          }
          const sent = await post(t, '/api/submitForm.php', { action: 'send', token });
          expect(sent.body).toMatchObject({ success: true, status: 'submitted' });

          const staff = await staffBrowser(t);
          const inbox = await staff.get<{ submissions: InboxSubmission[] }>('/api/uploads/inbox');
          const files = inbox.body.submissions[0]!.files;
          expect(files.map((f) => [f.name, f.size, f.sha256]).sort()).toEqual(
            [
              ['even.mov', even.length, sha256(even)],
              ['keynote.mov', reel.length, sha256(reel)],
            ].sort(),
          );
          for (const [file, bytes] of files.map((f) => [f, f.name === 'even.mov' ? even : reel] as const)) {
            const download = await fetch(`${t.url}/api/uploads/inbox/files/${file.id}/download`, {
              headers: { cookie: staff.cookieHeader()! },
            });
            expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(bytes));
          }
        } finally {
          await t?.close();
          await s3?.close();
        }
      },
    );

    it('a file of unknown size counts against the quota of unfinished bytes as it grows', async () => {
      t = await startTestApp({ dialect, env: { UPLOAD_QUOTA_BYTES: String(2 * UPLOAD_PART_SIZE + 10) } });
      await registerLegacy(t);
      const { token } = await loginLegacy(t);
      const reel = randomBytes(3 * UPLOAD_PART_SIZE);
      await post(t, '/api/submitForm.php', { ...SPONSOR, action: 'init', token });
      for (const i of [0, 1]) {
        expect((await post(t, '/api/submitForm.php', { ...chunk(reel, i), token })).status).toBe(200);
      }
      const third = await post(t, '/api/submitForm.php', { ...chunk(reel, 2), token });
      expect(third).toMatchObject({ status: 413, body: { code: 'upload_quota_exceeded' } });
      const files = await t.db.models.SubmissionFile.findAll();
      expect(files.map((f) => Number(f.size))).toEqual([2 * UPLOAD_PART_SIZE]);
    });

    it('answers 403 with the spec text once the session has ended: logout, the maximum, or none', async () => {
      t = await startTestApp({ dialect, env: { SESSION_MAX_SECONDS: '120' } });
      await registerLegacy(t);
      const first = await loginLegacy(t);
      const init = { ...SPONSOR, action: 'init' };
      expect((await post(t, '/api/submitForm.php', init, first.token)).status).toBe(200);
      await post(t, '/api/logout.php', {}, first.token);
      expect(await post(t, '/api/submitForm.php', init, first.token)).toEqual({
        status: 403,
        body: { error: SESSION_EXPIRED, code: 'session_expired' },
      });

      const second = await loginLegacy(t);
      expect((await post(t, '/api/submitForm.php', { ...init, token: second.token })).status).toBe(200);
      advanceClock(121);
      expect((await post(t, '/api/submitForm.php', { ...init, token: second.token })).status).toBe(403);
      expect((await post(t, '/api/submitForm.php', init)).status).toBe(403);
    });

    it("checks the form's fields and refuses cloud-picked files with a clear message", async () => {
      t = await startTestApp({ dialect });
      const { token } = await registerLegacy(t);
      const missing = await post(t, '/api/submitForm.php', {
        ...SPONSOR,
        sponsor_company: '',
        action: 'init',
        token,
      });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({
        error: SPONSOR_COMPANY_REQUIRED,
        fields: { sponsor_company: SPONSOR_COMPANY_REQUIRED },
      });
      // A cloud pick whose link is on no provider's hosts is refused before anything is fetched.
      const cloud = await post(t, '/api/submitForm.php', {
        ...SPONSOR,
        action: 'init',
        token,
        auth_file_url: { 'clip.mov': { link: 'https://drive.example/clip', token: 'provider-token' } },
      });
      expect(cloud).toEqual({
        status: 400,
        body: { error: FOREIGN_LINK, code: 'foreign_link', fields: { auth_file_url: FOREIGN_LINK } },
      });
      // A chunk that is not base64, and one of the wrong size, store nothing.
      await post(t, '/api/submitForm.php', { ...SPONSOR, action: 'init', token, files: { 'a.mov': 10 } });
      const garbled = await post(t, '/api/submitForm.php', {
        ...SPONSOR,
        action: 'part',
        file_name: 'a.mov',
        file: '***',
        token,
      });
      expect(garbled.status).toBe(400);
      const short = await post(t, '/api/submitForm.php', {
        ...SPONSOR,
        action: 'part',
        file_name: 'a.mov',
        file: Buffer.from('abc').toString('base64'),
        token,
      });
      expect(short.status).toBe(400);
      expect(short.body).toMatchObject({ code: 'bad_part_size' });
      expect(await t.db.models.FilePart.count()).toBe(0);
      // A submission this account does not have: not_found, as this call has always answered it.
      const unknown = await post(t, '/api/submitForm.php', {
        ...SPONSOR,
        action: 'send',
        submission_id: '00000000-0000-0000-0000-000000000000',
        token,
      });
      expect(unknown).toEqual({ status: 404, body: { error: 'No such submission.', code: 'not_found' } });
    });
  });

  describe('stores: getStoreData.php, getAllStores.php, updateStore.php, deleteStore.php', () => {
    it('answers the public store and the active stores, never a secret; staff with an empty payload get all', async () => {
      t = await startTestApp({ dialect });
      await seeded(t);
      const store = await call<StoreJson & Record<string, unknown>>(
        t,
        'GET',
        '/api/getStoreData.php?store_id=demo-expo',
      );
      expect(store.status).toBe(200);
      expect(store.body).toMatchObject({ store_id: 'demo-expo', closed: false, gateway: 'test-gateway' });
      // The names this call has always answered, whatever the API's own store answer calls them.
      expect(store.body).toMatchObject({ earlyBird: true, timeZone: t.config.TZ_STORE });
      expect(store.body).not.toHaveProperty('early_bird');
      expect(store.body.products.length).toBeGreaterThanOrEqual(5);
      for (const hidden of ['bcc', 'email_text', 'secretKey']) expect(store.body).not.toHaveProperty(hidden);
      expect((await post(t, '/api/getStoreData.php', { store_id: 'demo-expo' })).body).toEqual(store.body);
      expect(await post(t, '/api/getStoreData.php', { store_id: 'no-such-store' })).toEqual({
        status: 404,
        body: { error: 'No such store.', code: 'store_not_found' },
      });

      const ids = (answer: Answer<{ stores: { store_id: string }[] }>) =>
        answer.body.stores.map((s) => s.store_id).sort();
      const open = await call<{ stores: { store_id: string }[] }>(t, 'GET', '/api/getAllStores.php');
      expect(ids(open)).toEqual(['demo-expo', 'demo-late']);
      await upsertStaffAccount(t.db, STAFF);
      const staff = await loginLegacy(t, STAFF.email, STAFF.password);
      const all = await post<{ stores: { store_id: string; bcc: string }[] }>(
        t,
        '/api/getAllStores.php',
        {},
        staff.token,
      );
      expect(ids(all)).toEqual(['demo-archived', 'demo-expo', 'demo-inactive', 'demo-late']);
      expect(all.body.stores[0]).toHaveProperty('bcc');
      // A client, or staff asking with a payload, get the public list.
      const client = await registerLegacy(t);
      expect(ids(await post(t, '/api/getAllStores.php', {}, client.token))).toEqual([
        'demo-expo',
        'demo-late',
      ]);
      expect(ids(await post(t, '/api/getAllStores.php', { active: true }, staff.token))).toEqual([
        'demo-expo',
        'demo-late',
      ]);
    });

    it('lets staff create, update and delete stores with base64 texts, answering the full list each time', async () => {
      t = await startTestApp({ dialect });
      await seeded(t);
      await upsertStaffAccount(t.db, STAFF);
      const { token } = await loginLegacy(t, STAFF.email, STAFF.password);
      const client = await registerLegacy(t);
      const form = {
        name: 'Legacy Expo',
        store_id: 'legacy-expo',
        image: '',
        deadline: '2031-01-10',
        start_date: '2031-02-01',
        end_date: '2031-02-03',
        email_text: b64('Thank you — see you at booth №1!'),
        store_text: b64('Orders close on Jan 10.'),
        bcc: b64('ops@example.com; av@example.com'),
        is_active: 1,
        is_archived: 0,
      };
      // Staff only: a client's token is refused, and so is no token.
      expect((await post(t, '/api/updateStore.php', form, client.token)).status).toBe(403);
      expect((await post(t, '/api/updateStore.php', form)).status).toBe(401);
      expect((await post(t, '/api/deleteStore.php', { storeId: 'demo-archived' }, client.token)).status).toBe(
        403,
      );

      type Stores = {
        stores: {
          id: number;
          store_id: string;
          email_text: string;
          store_text: string;
          bcc: string;
          is_archived: boolean;
        }[];
      };
      const created = await post<Stores>(t, '/api/updateStore.php', form, token);
      expect(created.status).toBe(201);
      expect(created.body.stores).toHaveLength(5);
      const made = created.body.stores.find((s) => s.store_id === 'legacy-expo')!;
      expect(made).toMatchObject({
        email_text: 'Thank you — see you at booth №1!',
        store_text: 'Orders close on Jan 10.',
        bcc: 'ops@example.com, av@example.com',
      });

      const archived = await post<Stores>(
        t,
        '/api/updateStore.php',
        { ...form, id: made.id, is_archived: 'true' },
        token,
      );
      expect(archived.status).toBe(200);
      expect(archived.body.stores.find((s) => s.id === made.id)).toMatchObject({ is_archived: true });
      const garbled = await post(
        t,
        '/api/updateStore.php',
        { ...form, id: made.id, bcc: 'ops@example.com' },
        token,
      );
      expect(garbled).toMatchObject({
        status: 400,
        body: { error: NOT_BASE64, fields: { bcc: NOT_BASE64 } },
      });

      const deleted = await post<Stores>(t, '/api/deleteStore.php', { storeId: 'legacy-expo' }, token);
      expect(deleted.status).toBe(200);
      expect(deleted.body.stores.map((s) => s.store_id)).not.toContain('legacy-expo');
      expect(deleted.body.stores).toHaveLength(4);
      const audit = await t.db.models.AuditLog.findAll({
        where: { entity: 'store' },
        order: [['id', 'ASC']],
      });
      expect(audit.map((a) => a.action)).toEqual(['store_create', 'store_update', 'store_delete']);
    });
  });

  describe('payments: stripeIntent.php, sendOrderConfirmationEmail.php, charge.php', () => {
    /** The original's cart: whole products, their prices included, with counts. */
    function legacyCart(store: StoreJson, price = 1) {
      return [
        { product: { ...store.products[1]!, price }, count: 2 },
        { product: { ...store.products[4]!, price }, count: 1 },
      ];
    }

    function serverPrice(store: StoreJson & { deadline: string }) {
      const lines = [
        { unitAmount: store.products[1]!.price, quantity: 2 },
        { unitAmount: store.products[4]!.price, quantity: 1 },
      ];
      return priceOrder(lines, { deadline: store.deadline, now: new Date(), timeZone: t!.config.TZ_STORE });
    }

    async function storeOf(app: TestApp) {
      return (
        await call<StoreJson & { deadline: string }>(app, 'GET', '/api/getStoreData.php?store_id=demo-expo')
      ).body;
    }

    interface IntentAnswer {
      clientSecret: string;
      intentID: string;
      confirmation: string | null;
      orderId: string;
      subtotal: number;
      discount: number;
      total: number;
    }

    /** Store load then submit, as the original payment page makes the calls, every amount tampered with. */
    async function legacyCheckout(app: TestApp, store: StoreJson & { deadline: string }) {
      const load = await post(app, '/api/stripeIntent.php', { secretKey: 'sk_live_from_the_page' });
      expect(load).toEqual({ status: 200, body: { clientSecret: null, intentID: null, confirmation: null } });
      const created = await post<IntentAnswer>(app, '/api/stripeIntent.php', {
        secretKey: '',
        store_id: 'demo-expo',
        cart: legacyCart(store),
      });
      expect(created.status).toBe(201);
      const submitted = await post<IntentAnswer>(app, '/api/stripeIntent.php', {
        name: 'Demo Expo',
        store_id: 'demo-expo',
        discount: 99_999,
        intentID: created.body.intentID,
        cart: legacyCart(store),
        userInfo: customerFor(store),
        purchaseSummary: { subtotal: 3, total: 1 },
      });
      expect(submitted.status).toBe(200);
      return { created: created.body, submitted: submitted.body };
    }

    it('prices the order from the server, whatever the payload says, and mails the confirmation once', async () => {
      t = await startTestApp({ dialect });
      await seeded(t);
      const store = await storeOf(t);
      const expected = serverPrice(store);
      const { created, submitted } = await legacyCheckout(t, store);
      expect(created).toMatchObject({
        clientSecret: expect.any(String),
        confirmation: null,
        total: expected.total,
      });
      expect(submitted).toMatchObject({
        intentID: created.intentID,
        subtotal: expected.subtotal,
        discount: expected.discount,
        total: expected.total,
      });
      const order = await t.db.models.Order.findByPk(submitted.orderId);
      expect(order).toMatchObject({
        total: expected.total,
        email: customerFor(store).email,
        status: 'pending',
      });

      // Not paid yet: nothing to confirm, nothing sent.
      const early = await post(t, '/api/sendOrderConfirmationEmail.php', { intentID: created.intentID });
      expect(early).toEqual({
        status: 409,
        body: { success: false, error: ORDER_NOT_PAID, code: 'order_not_paid' },
      });
      expect(await t.db.models.MailOutbox.count()).toBe(0);

      // Paid with the test gateway through the order's own call (the intentID carries its id and token).
      const [orderId, orderToken] = [
        created.intentID.split('.')[0]!,
        created.intentID.split('.').slice(1).join('.'),
      ];
      const paid = await fetch(`${t.url}/api/orders/${orderId}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-order-token': orderToken },
        body: JSON.stringify({ card: VISA }),
      });
      const { confirmation } = (await paid.json()) as { confirmation: string };
      expect(paid.status).toBe(200);
      expect(await t.db.models.MailOutbox.count()).toBe(1);

      const first = await post(t, '/api/sendOrderConfirmationEmail.php', {
        storeId: 'demo-expo',
        userInfo: customerFor(store),
        confirmation: null,
        intentID: created.intentID,
        cart: legacyCart(store),
        purchaseSummary: { total: 1 },
      });
      expect(first).toEqual({ status: 200, body: { success: true, confirmation } });
      const again = await post(t, '/api/sendOrderConfirmationEmail.php', {
        storeId: 'demo-expo',
        confirmation,
      });
      expect(again).toEqual({ status: 200, body: { success: true, confirmation } });
      expect(await t.db.models.MailOutbox.count()).toBe(1);
    });

    it('through Stripe: settles when the provider says so, sends one e-mail, and never a second', async () => {
      stripe = await new StripeStandIn().start();
      t = await startTestApp({ dialect, env: { ...STRIPE_KEYS, STRIPE_API_URL: stripe.url } });
      await seeded(t);
      const store = await storeOf(t);
      expect(store).toMatchObject({ gateway: 'stripe', publicKey: STRIPE_KEYS.STRIPE_PUBLISHABLE_KEY });
      expect(JSON.stringify(store)).not.toContain(STRIPE_KEYS.STRIPE_SECRET_KEY);
      const expected = serverPrice(store);
      const { submitted } = await legacyCheckout(t, store);
      const order = await t.db.models.Order.findByPk(submitted.orderId, { rejectOnEmpty: true });
      expect(stripe.intents.get(order.gatewayIntentId!)?.amount).toBe(expected.total);

      const unpaid = await post(t, '/api/sendOrderConfirmationEmail.php', { intentID: submitted.intentID });
      expect(unpaid.status).toBe(409);
      stripe.succeed(order.gatewayIntentId!);
      const confirmed = await post<{ success: boolean; confirmation: string }>(
        t,
        '/api/sendOrderConfirmationEmail.php',
        {
          intentID: submitted.intentID,
        },
      );
      expect(confirmed.body).toMatchObject({ success: true, confirmation: expect.any(String) });
      expect((await t.db.models.Order.findByPk(submitted.orderId))?.status).toBe('paid');
      expect(await t.db.models.MailOutbox.count()).toBe(1);
      const twice = await post(t, '/api/sendOrderConfirmationEmail.php', { intentID: submitted.intentID });
      expect(twice.body).toEqual(confirmed.body);
      expect(await t.db.models.MailOutbox.count()).toBe(1);
    });

    it('refuses an intent for a closed store with the spec text', async () => {
      t = await startTestApp({ dialect });
      await seeded(t);
      const late = (await call<StoreJson>(t, 'GET', '/api/getStoreData.php?store_id=demo-late')).body;
      const refused = await post(t, '/api/stripeIntent.php', {
        store_id: 'demo-late',
        cart: [{ product: late.products[0], count: 1 }],
      });
      expect(refused).toEqual({
        status: 409,
        body: { error: STORE_CLOSED_TRANSACTION, code: 'store_closed' },
      });
    });

    it('charge.php: the staff payment test charges a card form through the test gateway and audits it', async () => {
      t = await startTestApp({ dialect });
      const staff = await staffBrowser(t);
      const client = await registerLegacy(t);
      expect((await post(t, '/api/charge.php', { card: VISA }, client.token)).status).toBe(403);
      expect((await post(t, '/api/charge.php', { card: VISA })).status).toBe(401);

      const ok = await staff.post('/api/charge.php', { card: VISA, amount: 250 });
      expect(ok).toMatchObject({
        status: 200,
        body: {
          success: true,
          gateway: 'test-gateway',
          paymentIntent: { amount: 250, currency: 'usd', status: 'succeeded' },
          card: { brand: 'visa', last4: '4242' },
        },
      });
      const declined = await staff.post('/api/charge.php', { card: DECLINED });
      expect(declined).toMatchObject({
        status: 402,
        body: { error: 'Your card was declined.', code: 'card_declined' },
      });
      // An HTML form post, fields flat.
      const form = await fetch(`${t.url}/api/charge.php`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: staff.cookieHeader()!,
          origin: t.url,
        },
        body: new URLSearchParams({ number: '4242 4242 4242 424', expiry: '12 / 40', cvc: '123' }).toString(),
      });
      expect(form.status).toBe(400);
      expect(await form.json()).toMatchObject({
        error: 'Your card number is incomplete.',
        fields: { 'card.number': expect.any(String) },
      });
      const audit = await t.db.models.AuditLog.findAll({
        where: { action: 'payment_test' },
        order: [['id', 'ASC']],
      });
      expect(audit.map((a) => (a.after as { outcome: string }).outcome)).toEqual([
        'succeeded',
        'card_declined',
        'incomplete_number',
      ]);
    });

    it('charge.php refuses typed cards when Stripe is the configured gateway', async () => {
      stripe = await new StripeStandIn().start();
      t = await startTestApp({ dialect, env: { ...STRIPE_KEYS, STRIPE_API_URL: stripe.url } });
      const staff = await staffBrowser(t);
      const refused = await staff.post('/api/charge.php', { card: VISA });
      expect(refused).toMatchObject({ status: 409, body: { error: PAYMENT_TEST_NEEDS_TEST_GATEWAY } });
      expect(stripe.requests).toEqual([]);
    });
  });

  describe('log.php', () => {
    it('keeps type and data, bounded in size and number, for staff to read', async () => {
      t = await startTestApp({ dialect });
      const { token } = await registerLegacy(t);
      const sent = await post(t, '/api/log.php', {
        type: 'upload',
        data: { message: 'chunk 3 failed', part: 3 },
        token,
      });
      expect(sent).toEqual({ status: 201, body: { success: true } });
      expect((await post(t, '/api/log.php', { type: 'boot', data: 'page loaded' })).status).toBe(201);
      const large = await post(t, '/api/log.php', {
        type: 'dump',
        data: 'x'.repeat(CLIENT_LOG_LIMITS.dataMaxBytes),
      });
      expect(large).toEqual({
        status: 413,
        body: {
          error: CLIENT_LOG_TOO_LARGE,
          code: 'log_entry_too_large',
          fields: { data: CLIENT_LOG_TOO_LARGE },
        },
      });
      expect((await post(t, '/api/log.php', { data: 'no type' })).status).toBe(400);

      expect((await call(t, 'GET', '/api/log.php', { bearer: token })).status).toBe(403);
      const staff = await staffBrowser(t);
      const read = await staff.get<{
        entries: { type: string; data: unknown; user: { email: string } | null }[];
      }>('/api/log.php');
      expect(
        read.body.entries.map(({ type, data, user }) => ({ type, data, user: user?.email ?? null })),
      ).toEqual([
        { type: 'boot', data: 'page loaded', user: null },
        { type: 'upload', data: { message: 'chunk 3 failed', part: 3 }, user: 'ada@example.com' },
      ]);
      const uploads = await staff.get<{ entries: unknown[] }>('/api/log.php?type=upload');
      expect(uploads.body.entries).toHaveLength(1);

      // Every post counts, kept or refused: so far 4 of this address's allowance.
      const { max } = CLIENT_LOG_LIMITS.perIp;
      for (let i = 4; i < max; i++)
        expect((await post(t, '/api/log.php', { type: 'tick', data: i })).status).toBe(201);
      const limited = await post(t, '/api/log.php', { type: 'tick', data: max });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 'rate_limited' });
    });
  });

  describe('the rules every call shares', () => {
    it('keeps the 1 MB body limit everywhere but on the upload call, which takes a base64 part', async () => {
      t = await startTestApp({ dialect });
      const { token } = await registerLegacy(t);
      const big = 'x'.repeat(2 * 1024 * 1024);
      expect(await post(t, '/api/log.php', { type: 'big', data: big })).toMatchObject({
        status: 413,
        body: { code: 'payload_too_large' },
      });
      expect(
        (await post(t, '/api/updateUser.php', { ...legacyRegistration(), company: big, token })).status,
      ).toBe(413);
      const part = await post(t, '/api/submitForm.php', {
        ...SPONSOR,
        action: 'part',
        file_name: 'a.mov',
        file: big,
        token,
      });
      expect(part.status).toBe(409);
      expect(part.body).toMatchObject({ code: 'no_open_upload' });
    });

    it('refuses a cross-site request riding on a cookie; a bearer token is no CSRF risk', async () => {
      t = await startTestApp({ dialect });
      await seeded(t);
      const staff = await staffBrowser(t);
      const store = await staff.get<{ stores: { id: number; store_id: string }[] }>('/api/staff/stores');
      const archived = store.body.stores.find((s) => s.store_id === 'demo-archived')!;
      const forged = await staff.post(
        '/api/deleteStore.php',
        { storeId: archived.id },
        { origin: 'https://evil.example' },
      );
      expect(forged).toMatchObject({ status: 403, body: { error: CROSS_SITE_MESSAGE, code: 'cross_site' } });

      const { token } = await loginLegacy(t, STAFF.email, STAFF.password);
      const withToken = await call(t, 'POST', '/api/deleteStore.php', {
        body: { storeId: archived.id },
        bearer: token,
        headers: { origin: 'https://elsewhere.example' },
      });
      expect(withToken.status).toBe(200);
    });
  });
});

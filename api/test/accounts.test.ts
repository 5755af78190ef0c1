import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CURRENT_PASSWORD_REQUIRED,
  CURRENT_PASSWORD_WRONG,
  EMAIL_ALREADY_EXISTS,
  LOGIN_EMAIL_REQUIRED,
  LOGIN_FAILED,
  LOGIN_PASSWORD_REQUIRED,
  PASSWORDS_MUST_MATCH,
  REGISTRATION_COMPANY_REQUIRED,
  REGISTRATION_FIRST_NAME_REQUIRED,
  REGISTRATION_INVALID_EMAIL,
  REGISTRATION_INVALID_PHONE,
  REGISTRATION_LAST_NAME_REQUIRED,
} from '@avp/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { openDatabase } from '../src/db/index.js';
import { CROSS_SITE_MESSAGE } from '../src/http/same-origin.js';
import {
  ACCOUNT_LIMITS,
  FORGOT_PASSWORD_SENT,
  hashToken,
  NOT_AUTHORISED,
  NOT_SIGNED_IN,
  PASSWORD_RESET_DONE,
  PASSWORD_TOO_COMMON,
  RESET_LINK_INVALID,
  RESET_MAIL_SUBJECT,
  TOO_MANY_SIGN_INS,
  TOO_MANY_UPDATES,
} from '../src/modules/accounts/index.js';
import { verifyPassword } from '../src/modules/accounts/passwords.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS, LogCapture } from './helpers/env.js';
import { waitFor } from './helpers/smtp.js';

let t: TestApp | undefined;
const extra: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of extra.splice(0)) await close();
  await t?.close();
  t = undefined;
});

const PASSWORD = 'Difference Engine 1843';
const COOKIE = 'avp_session';

async function start(dialect: (typeof DIALECTS)[number], env: Record<string, string> = {}): Promise<TestApp> {
  t = await startTestApp({ dialect, env });
  return t;
}

async function registered(app: TestApp, overrides: Record<string, unknown> = {}) {
  const browser = new TestBrowser(app.url);
  const res = await browser.post('/api/auth/register', registration(overrides));
  expect(res.status).toBe(201);
  return browser;
}

async function auditActions(app: TestApp): Promise<string[]> {
  const rows = await app.db.models.AuditLog.findAll({ order: [['id', 'ASC']] });
  return rows.map((row) => row.action);
}

/** Moves this process's clock (the server runs in it) forward; timers stay real. */
function advanceClock(seconds: number): void {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now + seconds * 1000);
}

describe.each(DIALECTS)('accounts and sessions on %s', (dialect) => {
  describe('registration (SPEC §5)', () => {
    it('creates a client account, signs it in with an httpOnly SameSite=Lax cookie and audits it', async () => {
      const app = await start(dialect);
      const browser = new TestBrowser(app.url);
      const res = await browser.post('/api/auth/register', registration({ email: ' Ada@Example.COM ' }));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        user: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', role: 'client' },
      });
      const [cookie] = res.setCookies;
      expect(cookie).toMatch(/^avp_session=[A-Za-z0-9_-]{43}; /);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/Secure/);

      const user = await app.db.models.User.findOne({ where: { email: 'ada@example.com' } });
      expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(user?.passwordHash ?? '', PASSWORD)).toBe(true);
      expect(user).toMatchObject({
        company: 'Analytical Engines Ltd',
        phone: '(555) 123-4567',
        role: 'client',
      });
      // The cookie names a row by the token's sha-256, never the token itself.
      const token = browser.cookies.get(COOKIE) ?? '';
      expect(await app.db.models.Session.findByPk(token)).toBeNull();
      expect(await app.db.models.Session.findByPk(hashToken(token))).not.toBeNull();

      const session = await browser.get('/api/session');
      expect(session.body).toMatchObject({ user: { email: 'ada@example.com', role: 'client' } });
      expect(await auditActions(app)).toEqual(['account_create', 'sign_in']);
    });

    it('answers each missing or invalid field with the spec’s message', async () => {
      const app = await start(dialect);
      const res = await new TestBrowser(app.url).post('/api/auth/register', {
        email: 'not-an-email',
        firstname: ' ',
        lastname: '',
        company: '',
        phone: '12345',
        password: 'Difference Engine 1843',
        confirmPassword: 'Difference Engine 1842',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: {
          code: 'validation_failed',
          message: 'Some fields are missing or invalid.',
          fields: {
            email: REGISTRATION_INVALID_EMAIL,
            firstname: REGISTRATION_FIRST_NAME_REQUIRED,
            lastname: REGISTRATION_LAST_NAME_REQUIRED,
            company: REGISTRATION_COMPANY_REQUIRED,
            phone: REGISTRATION_INVALID_PHONE,
            confirmPassword: PASSWORDS_MUST_MATCH,
          },
        },
      });
      expect(await app.db.models.User.count()).toBe(0);
    });

    it('needs a password of 8 to 128 characters that is not a common one; 64 characters are fine', async () => {
      const app = await start(dialect);
      const browser = new TestBrowser(app.url);
      const attempt = (password: string, email = 'ada@example.com') =>
        browser.post('/api/auth/register', registration({ email, password, confirmPassword: password }));

      const short = await attempt('Abc!12');
      expect(short.status).toBe(400);
      expect(short.body).toMatchObject({
        error: { fields: { password: 'You are required to add 2 more character(s) to this field.' } },
      });
      const empty = await attempt('');
      expect(empty.body).toMatchObject({ error: { fields: { confirmPassword: PASSWORDS_MUST_MATCH } } });
      for (const common of ['password1', 'Qwerty123', 'iloveyou', '12345678', 'P@ssw0rd']) {
        const res = await attempt(common);
        expect(res.status, common).toBe(400);
        expect(res.body, common).toMatchObject({ error: { fields: { password: PASSWORD_TOO_COMMON } } });
      }
      expect((await attempt('x'.repeat(129))).body).toMatchObject({
        error: { fields: { password: 'Please use no more than 128 characters.' } },
      });
      expect(await app.db.models.User.count()).toBe(0);
      const long = 'A long passphrase: '.padEnd(64, 'z');
      expect((await attempt(long)).status).toBe(201);
    });

    it('refuses a taken e-mail, whatever its case, with “This email already exists. Forgot Password?”', async () => {
      const app = await start(dialect);
      await registered(app);
      const res = await new TestBrowser(app.url).post(
        '/api/auth/register',
        registration({ email: 'ADA@example.com', firstname: 'Other' }),
      );
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: {
          code: 'email_taken',
          message: EMAIL_ALREADY_EXISTS,
          fields: { email: EMAIL_ALREADY_EXISTS },
        },
      });
      expect(res.setCookies).toEqual([]);
      expect(await app.db.models.User.count()).toBe(1);
    });

    it('sets a Secure __Host- cookie when PUBLIC_URL is https', async () => {
      const app = await start(dialect, { PUBLIC_URL: 'https://portal.example.com' });
      const res = await new TestBrowser(app.url).post('/api/auth/register', registration());
      expect(res.status).toBe(201);
      expect(res.setCookies[0]).toMatch(/^__Host-avp_session=[^;]+;.*; Secure/);
    });
  });

  describe('sign-in (SPEC §5 Login, §8)', () => {
    it('needs both fields, with the spec’s messages', async () => {
      const app = await start(dialect);
      const res = await new TestBrowser(app.url).post('/api/auth/login', { email: ' ', password: '' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: { fields: { email: LOGIN_EMAIL_REQUIRED, password: LOGIN_PASSWORD_REQUIRED } },
      });
    });

    it('answers a wrong password and an unknown address alike, and sets no cookie', async () => {
      const app = await start(dialect);
      await registered(app);
      const browser = new TestBrowser(app.url);
      const wrong = await browser.post('/api/auth/login', {
        email: 'ada@example.com',
        password: 'wrong one!',
      });
      const unknown = await browser.post('/api/auth/login', {
        email: 'nobody@example.com',
        password: PASSWORD,
      });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: { code: 'invalid_credentials', message: LOGIN_FAILED } });
        expect(res.setCookies).toEqual([]);
      }
    });

    it('gives a new session id at every sign-in and ends the one the browser had', async () => {
      const app = await start(dialect);
      const browser = await registered(app);
      const first = browser.cookies.get(COOKIE) ?? '';
      const res = await browser.post('/api/auth/login', { email: 'Ada@Example.com', password: PASSWORD });
      expect(res.status).toBe(200);
      const second = browser.cookies.get(COOKIE) ?? '';
      expect(second).not.toBe(first);
      expect(await app.db.models.Session.findByPk(hashToken(first))).toBeNull();
      expect(await app.db.models.Session.count()).toBe(1);
      const user = await app.db.models.User.findOne();
      expect(user?.lastLoginAt).not.toBeNull();
      expect(await auditActions(app)).toEqual(['account_create', 'sign_in', 'sign_in']);
    });

    it('signs staff in on a staff page and tells a client account it is not authorised', async () => {
      const app = await start(dialect);
      await registered(app);
      await upsertStaffAccount(app.db, {
        email: 'grace@example.com',
        password: 'Staff passphrase 9',
        firstName: 'Grace',
        lastName: 'Hopper',
      });
      const browser = new TestBrowser(app.url);
      const client = await browser.post('/api/auth/login', {
        email: 'ada@example.com',
        password: PASSWORD,
        requireRole: 'staff',
      });
      expect(client.status).toBe(403);
      expect(client.body).toEqual({ error: { code: 'forbidden', message: NOT_AUTHORISED } });
      expect(client.setCookies).toEqual([]);
      const staff = await browser.post('/api/auth/login', {
        email: 'grace@example.com',
        password: 'Staff passphrase 9',
        requireRole: 'staff',
      });
      expect(staff.status).toBe(200);
      expect(staff.body).toMatchObject({ user: { firstName: 'Grace', lastName: 'Hopper', role: 'staff' } });
    });
  });

  describe('sessions (SPEC §4, §9)', () => {
    it('ends SESSION_MAX_SECONDS after sign-in, however active, and then reads as expired', async () => {
      const app = await start(dialect, { SESSION_MAX_SECONDS: '120' });
      const browser = await registered(app);
      const session = await browser.get<{ loginAt: string; expiresAt: string; expiresInSeconds: number }>(
        '/api/session',
      );
      const { loginAt, expiresAt } = session.body;
      expect(Date.parse(expiresAt) - Date.parse(loginAt)).toBe(120_000);
      expect(session.body.expiresInSeconds).toBeGreaterThan(110);

      advanceClock(100);
      expect((await browser.get('/api/account')).status).toBe(200);
      advanceClock(21);
      const after = await browser.get('/api/session');
      expect(after.body).toEqual({ user: null, expired: true });
      expect(after.setCookies[0]).toMatch(/^avp_session=;.*Expires=Thu, 01 Jan 1970/);
      expect(browser.cookies.has(COOKIE)).toBe(false);
      expect(await app.db.models.Session.count()).toBe(0);
      const account = await new TestBrowser(app.url).get('/api/account');
      expect(account.status).toBe(401);
      expect(account.body).toEqual({ error: { code: 'unauthenticated', message: NOT_SIGNED_IN } });
    });

    it('answers a visitor without a session as signed out, not expired', async () => {
      const app = await start(dialect);
      const res = await new TestBrowser(app.url).get('/api/session');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({ user: null, expired: false });
    });

    it('signs out by POST: the row is deleted, the cookie cleared, the old cookie is worthless', async () => {
      const app = await start(dialect);
      const browser = await registered(app);
      const token = browser.cookies.get(COOKIE) ?? '';
      const res = await browser.post('/api/auth/logout');
      expect(res.status).toBe(204);
      expect(res.setCookies[0]).toMatch(/^avp_session=;/);
      expect(await app.db.models.Session.count()).toBe(0);
      const replay = await browser.get('/api/account', { cookie: `${COOKIE}=${token}` });
      expect(replay.status).toBe(401);
      expect(await auditActions(app)).toEqual(['account_create', 'sign_in', 'sign_out']);
    });

    it('are shared by every process on the database: signed in on one, known to another', async () => {
      const app = await start(dialect);
      const browser = await registered(app);
      // A second app with its own connection to the same database, as another process would have.
      const db2 = await openDatabase(app.config, app.logger);
      const app2 = createApp({ config: app.config, db: db2, logger: app.logger });
      const server = await new Promise<Server>((resolve) => {
        const listening = app2.listen(0, '127.0.0.1', () => resolve(listening));
      });
      extra.push(async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        await db2.close();
      });
      const url2 = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${url2}/api/account`, { headers: { cookie: browser.cookieHeader() ?? '' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ email: 'ada@example.com' });
    });

    it('hands the desktop app a bearer token naming the same kind of session, without a cookie', async () => {
      const app = await start(dialect);
      await registered(app);
      const desktop = new TestBrowser(app.url, null);
      const login = await desktop.post<{ token: string; user: { email: string } }>('/api/auth/login', {
        email: 'ada@example.com',
        password: PASSWORD,
        token: true,
      });
      expect(login.status).toBe(200);
      expect(login.setCookies).toEqual([]);
      expect(login.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const bearer = { authorization: `Bearer ${login.body.token}` };
      expect(await app.db.models.Session.findByPk(hashToken(login.body.token))).not.toBeNull();

      expect((await desktop.get('/api/account', bearer)).body).toMatchObject({ email: 'ada@example.com' });
      // Same-origin rules do not apply to bearer requests: no browser can attach that header cross-site.
      const update = await desktop.put(
        '/api/account',
        registration({ firstname: 'Augusta', password: '', confirmPassword: '' }),
        { ...bearer, origin: 'https://elsewhere.example' },
      );
      expect(update.status).toBe(200);
      expect(update.body).toMatchObject({ firstname: 'Augusta' });
      // A bearer header wins over a cookie: a bad token is signed out even next to a good cookie.
      const cookieBrowser = await registered(app, { email: 'other@example.com' });
      const mixed = await desktop.get('/api/account', {
        authorization: 'Bearer not-a-token',
        cookie: cookieBrowser.cookieHeader() ?? '',
      });
      expect(mixed.status).toBe(401);

      expect((await desktop.post('/api/auth/logout', undefined, bearer)).status).toBe(204);
      expect((await desktop.get('/api/account', bearer)).status).toBe(401);
    });
  });

  describe('same-origin protection of state-changing requests', () => {
    it('refuses a cross-site POST and PUT, by Origin or by Referer, before anything happens', async () => {
      const app = await start(dialect);
      const browser = await registered(app);
      const evil = new TestBrowser(app.url, 'https://evil.example');
      const login = await evil.post('/api/auth/login', { email: 'ada@example.com', password: PASSWORD });
      expect(login.status).toBe(403);
      expect(login.body).toEqual({ error: { code: 'cross_site', message: CROSS_SITE_MESSAGE } });
      expect(await app.db.models.Session.count()).toBe(1);

      const update = registration({ firstname: 'Mallory', password: '', confirmPassword: '' });
      const byOrigin = await browser.put('/api/account', update, { origin: 'https://evil.example' });
      expect(byOrigin.status).toBe(403);
      const byReferer = await new TestBrowser(app.url, null).put('/api/account', update, {
        cookie: browser.cookieHeader() ?? '',
        referer: 'https://evil.example/page',
      });
      expect(byReferer.status).toBe(403);
      const bareWithCookie = await new TestBrowser(app.url, null).put('/api/account', update, {
        cookie: browser.cookieHeader() ?? '',
      });
      expect(bareWithCookie.status).toBe(403);
      const nullOrigin = await browser.put('/api/account', update, { origin: 'null' });
      expect(nullOrigin.status).toBe(403);
      expect((await app.db.models.User.findOne())?.firstName).toBe('Ada');

      const logout = await browser.post('/api/auth/logout', undefined, { origin: 'https://evil.example' });
      expect(logout.status).toBe(403);
      expect(await app.db.models.Session.count()).toBe(1);
    });

    it('accepts its own origin, PUBLIC_URL’s origin and a same-origin Referer; GET is never refused', async () => {
      const app = await start(dialect, { PUBLIC_URL: 'https://www.example.com' });
      const browser = await registered(app);
      const update = registration({ firstname: 'Augusta', password: '', confirmPassword: '' });
      expect((await browser.put('/api/account', update, { origin: 'https://www.example.com' })).status).toBe(
        200,
      );
      const byReferer = await new TestBrowser(app.url, null).put('/api/account', update, {
        cookie: browser.cookieHeader() ?? '',
        referer: `${app.url}/register`,
      });
      expect(byReferer.status).toBe(200);
      expect((await browser.get('/api/account', { origin: 'https://evil.example' })).status).toBe(200);
    });
  });

  describe('account update (SPEC §2 /register when signed in)', () => {
    it('shows and updates the details; an empty password keeps the current one', async () => {
      const app = await start(dialect);
      const browser = await registered(app);
      const current = await browser.get('/api/account');
      expect(current.body).toEqual({
        userid: expect.any(Number),
        email: 'ada@example.com',
        firstname: 'Ada',
        lastname: 'Lovelace',
        company: 'Analytical Engines Ltd',
        phone: '(555) 123-4567',
      });
      const res = await browser.put(
        '/api/account',
        registration({
          email: 'countess@example.com',
          firstname: 'Augusta',
          lastname: 'King',
          company: 'Lovelace & Co',
          phone: '555-987-6543',
          password: '',
          confirmPassword: '',
          currentPassword: PASSWORD,
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        email: 'countess@example.com',
        firstname: 'Augusta',
        company: 'Lovelace & Co',
      });
      const login = await new TestBrowser(app.url).post('/api/auth/login', {
        email: 'countess@example.com',
        password: PASSWORD,
      });
      expect(login.status).toBe(200);
      expect(await auditActions(app)).not.toContain('password_change');
    });

    it('a new password ends every other session of the account, keeps this one, and is audited', async () => {
      const app = await start(dialect);
      const browser = await registered(app);
      const laptop = new TestBrowser(app.url);
      await laptop.post('/api/auth/login', { email: 'ada@example.com', password: PASSWORD });
      expect((await laptop.get('/api/account')).status).toBe(200);

      const next = 'Analytical Engine 1837';
      const res = await browser.put(
        '/api/account',
        registration({ password: next, confirmPassword: next, currentPassword: PASSWORD }),
      );
      expect(res.status).toBe(200);
      expect((await browser.get('/api/account')).status).toBe(200);
      expect((await laptop.get('/api/account')).status).toBe(401);
      const user = await app.db.models.User.findOne();
      expect(await verifyPassword(user?.passwordHash ?? '', next)).toBe(true);
      expect(await auditActions(app)).toContain('password_change');
    });

    it('refuses an e-mail another account has, a common password, and anyone signed out', async () => {
      const app = await start(dialect);
      await registered(app, { email: 'other@example.com' });
      const browser = await registered(app);
      const taken = await browser.put(
        '/api/account',
        registration({
          email: 'Other@example.com',
          password: '',
          confirmPassword: '',
          currentPassword: PASSWORD,
        }),
      );
      expect(taken.status).toBe(409);
      expect(taken.body).toMatchObject({ error: { message: EMAIL_ALREADY_EXISTS } });
      const common = await browser.put(
        '/api/account',
        registration({ password: 'sunshine1', confirmPassword: 'sunshine1', currentPassword: PASSWORD }),
      );
      expect(common.body).toMatchObject({ error: { fields: { password: PASSWORD_TOO_COMMON } } });
      const anonymous = await new TestBrowser(app.url).put('/api/account', registration());
      expect(anonymous.status).toBe(401);
    });
  });

  describe('account update: the current password guards the e-mail and the password (docs/decisions.md)', () => {
    it('refuses a new e-mail or password without the right current password, and changes nothing', async () => {
      const app = await start(dialect);
      const browser = await registered(app);
      const next = 'Analytical Engine 1837';
      const changes = [
        { email: 'mallory@example.com', password: '', confirmPassword: '' },
        { password: next, confirmPassword: next },
      ];
      for (const change of changes) {
        const missing = await browser.put('/api/account', registration(change));
        expect(missing.status).toBe(400);
        expect(missing.body).toEqual({
          error: {
            code: 'validation_failed',
            message: 'Some fields are missing or invalid.',
            fields: { currentPassword: CURRENT_PASSWORD_REQUIRED },
          },
        });
        const wrong = await browser.put(
          '/api/account',
          registration({ ...change, currentPassword: 'a guess!' }),
        );
        expect(wrong.status).toBe(400);
        expect(wrong.body).toMatchObject({ error: { fields: { currentPassword: CURRENT_PASSWORD_WRONG } } });
      }
      const user = await app.db.models.User.findOne();
      expect(user?.email).toBe('ada@example.com');
      expect(await verifyPassword(user?.passwordHash ?? '', PASSWORD)).toBe(true);
      expect(await auditActions(app)).not.toContain('password_change');

      // The same address in other case, or only the names: no password needed.
      const names = await browser.put(
        '/api/account',
        registration({ email: ' ADA@example.com', firstname: 'Augusta', password: '', confirmPassword: '' }),
      );
      expect(names.status).toBe(200);
      const right = await browser.put(
        '/api/account',
        registration({
          email: 'countess@example.com',
          password: next,
          confirmPassword: next,
          currentPassword: PASSWORD,
        }),
      );
      expect(right.status).toBe(200);
      expect(right.body).toMatchObject({ email: 'countess@example.com', firstname: 'Ada' });
      const login = await new TestBrowser(app.url).post('/api/auth/login', {
        email: 'countess@example.com',
        password: next,
      });
      expect(login.status).toBe(200);
    });

    it('limits updates per account, so the form cannot be used to guess the current password', async () => {
      const app = await start(dialect);
      const browser = await registered(app);
      const { max } = ACCOUNT_LIMITS.updatePerAccount;
      for (let i = 0; i < max; i++) {
        const res = await browser.put(
          '/api/account',
          registration({
            email: 'mallory@example.com',
            password: '',
            confirmPassword: '',
            currentPassword: `guess ${i}`,
          }),
        );
        expect(res.status).toBe(400);
      }
      const over = await browser.put(
        '/api/account',
        registration({
          email: 'mallory@example.com',
          password: '',
          confirmPassword: '',
          currentPassword: PASSWORD,
        }),
      );
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ error: { code: 'rate_limited', message: TOO_MANY_UPDATES } });
      expect((await app.db.models.User.findOne())?.email).toBe('ada@example.com');
    });
  });

  describe('forgot and reset password (SPEC §5)', () => {
    /** The newest reset link's token; the link is queued just after the answer, so it may take a moment. */
    async function resetToken(app: TestApp): Promise<string> {
      let match: RegExpExecArray | null = null;
      await waitFor(
        async () => {
          const mail = await app.db.models.MailOutbox.findOne({ order: [['id', 'DESC']] });
          match = /\/reset_password#token=([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '');
          return match !== null;
        },
        10_000,
        'the reset mail',
      );
      return match![1]!;
    }

    it('queues a one-hour single-use link for an account; answers an unknown address the same way', async () => {
      const app = await start(dialect);
      await registered(app);
      const browser = new TestBrowser(app.url);
      const known = await browser.post('/api/auth/forgot-password', { email: ' ADA@example.com ' });
      const unknown = await browser.post('/api/auth/forgot-password', { email: 'nobody@example.com' });
      for (const res of [known, unknown]) {
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ message: FORGOT_PASSWORD_SENT });
      }
      const token = await resetToken(app);
      const mails = await app.db.models.MailOutbox.findAll();
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({
        toAddress: 'ada@example.com',
        subject: RESET_MAIL_SUBJECT,
        status: 'queued',
      });
      expect(mails[0]?.textBody).toContain(`${app.config.PUBLIC_URL}/reset_password#token=${token}`);
      expect(mails[0]?.htmlBody).toContain(`/reset_password#token=${token}`);
      const reset = await app.db.models.PasswordReset.findOne();
      expect(reset?.tokenHash).toBe(hashToken(token));
      expect((reset?.expiresAt.getTime() ?? 0) - (reset?.createdAt.getTime() ?? 0)).toBeCloseTo(
        3_600_000,
        -3,
      );
    });

    it('answers before the work, alike for any address, and does the same statements either way', async () => {
      const logs = new LogCapture();
      t = await startTestApp({ dialect, logs });
      const app = t;
      await registered(app);
      const browser = new TestBrowser(app.url);
      const HANDLED = 'password reset request handled';
      /** What one request logged, up to the end of its work (which goes on after the answer). */
      const request = async (email: string) => {
        const from = logs.lines.length;
        const res = await browser.post('/api/auth/forgot-password', { email });
        await waitFor(() => logs.lines.slice(from).some((line) => line.msg === HANDLED), 10_000, HANDLED);
        const lines = logs.lines.slice(from);
        return {
          res,
          lines: lines.slice(
            0,
            lines.findIndex((line) => line.msg === HANDLED),
          ),
        };
      };
      /** The SQL it ran, values being bind parameters outside the statement text. */
      const statements = ({ lines }: { lines: Record<string, unknown>[] }) =>
        lines
          .map((line) => line.sql)
          .filter((text): text is string => typeof text === 'string')
          // The transaction's id, and the occasional clean-up of expired rate-limit counters.
          .map((text) => text.replace(/^Execut\w+ \([^)]*\): /, ''))
          .filter((text) => !text.startsWith('DELETE FROM rate_limits'));

      const known = await request('ada@example.com');
      const unknown = await request('nobody@example.com');
      // The answer was sent before anything was looked up or written.
      for (const { lines } of [known, unknown]) {
        const answered = lines.findIndex((line) => line.msg === 'request completed');
        const lookedUp = lines.findIndex((line) => String(line.sql).includes('FROM users'));
        expect(answered).toBeGreaterThan(-1);
        expect(lookedUp).toBeGreaterThan(answered);
      }
      expect(statements(known).some((text) => text.includes('INSERT INTO password_resets'))).toBe(true);
      expect(statements(known).some((text) => text.includes('INSERT INTO mail_outbox'))).toBe(true);
      expect(statements(unknown)).toEqual(statements(known));
      const answer = ({ res }: typeof known) => ({
        status: res.status,
        body: res.body,
        type: res.headers.get('content-type'),
        length: res.headers.get('content-length'),
        cache: res.headers.get('cache-control'),
        cookies: res.setCookies,
      });
      expect(answer(unknown)).toEqual(answer(known));
      // Only the account's address got a link.
      expect(await app.db.models.PasswordReset.count()).toBe(1);
      expect((await app.db.models.MailOutbox.findAll()).map((m) => m.toAddress)).toEqual(['ada@example.com']);
    });

    it('needs a non-empty e-mail', async () => {
      const app = await start(dialect);
      const res = await new TestBrowser(app.url).post('/api/auth/forgot-password', { email: '' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { fields: { email: LOGIN_EMAIL_REQUIRED } } });
    });

    it('sets the new password once, ends every session of the account and audits it', async () => {
      const app = await start(dialect);
      const browser = await registered(app);
      await browser.post('/api/auth/forgot-password', { email: 'ada@example.com' });
      const token = await resetToken(app);
      const visitor = new TestBrowser(app.url);
      const next = 'Bernoulli numbers 1843';

      const mismatch = await visitor.post('/api/auth/reset-password', {
        token,
        password: next,
        confirmPassword: 'something else',
      });
      expect(mismatch.body).toMatchObject({ error: { fields: { confirmPassword: PASSWORDS_MUST_MATCH } } });
      const common = await visitor.post('/api/auth/reset-password', {
        token,
        password: 'football1',
        confirmPassword: 'football1',
      });
      expect(common.body).toMatchObject({ error: { fields: { password: PASSWORD_TOO_COMMON } } });

      const res = await visitor.post('/api/auth/reset-password', {
        token,
        password: next,
        confirmPassword: next,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: PASSWORD_RESET_DONE });
      expect((await browser.get('/api/account')).status).toBe(401);
      expect(await app.db.models.Session.count()).toBe(0);
      const old = await visitor.post('/api/auth/login', { email: 'ada@example.com', password: PASSWORD });
      expect(old.status).toBe(401);
      const fresh = await visitor.post('/api/auth/login', { email: 'ada@example.com', password: next });
      expect(fresh.status).toBe(200);

      const again = await new TestBrowser(app.url).post('/api/auth/reset-password', {
        token,
        password: 'Another passphrase 1',
        confirmPassword: 'Another passphrase 1',
      });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: { code: 'invalid_reset_token', message: RESET_LINK_INVALID } });
      expect(await auditActions(app)).toContain('password_reset');
    });

    it('keeps the session the reset came from when it is the same account’s', async () => {
      const app = await start(dialect);
      const browser = await registered(app);
      const phone = new TestBrowser(app.url);
      await phone.post('/api/auth/login', { email: 'ada@example.com', password: PASSWORD });
      await browser.post('/api/auth/forgot-password', { email: 'ada@example.com' });
      const token = await resetToken(app);
      const next = 'Bernoulli numbers 1843';
      const res = await browser.post('/api/auth/reset-password', {
        token,
        password: next,
        confirmPassword: next,
      });
      expect(res.status).toBe(200);
      expect((await browser.get('/api/account')).status).toBe(200);
      expect((await phone.get('/api/account')).status).toBe(401);
    });

    it('refuses a link older than one hour and a made-up token', async () => {
      const app = await start(dialect);
      await registered(app);
      const visitor = new TestBrowser(app.url);
      await visitor.post('/api/auth/forgot-password', { email: 'ada@example.com' });
      const token = await resetToken(app);
      const next = 'Bernoulli numbers 1843';
      const madeUp = await visitor.post('/api/auth/reset-password', {
        token: 'x'.repeat(43),
        password: next,
        confirmPassword: next,
      });
      expect(madeUp.status).toBe(400);
      advanceClock(3601);
      const late = await visitor.post('/api/auth/reset-password', {
        token,
        password: next,
        confirmPassword: next,
      });
      expect(late.status).toBe(400);
      expect(late.body).toMatchObject({ error: { message: RESET_LINK_INVALID } });
    });
  });

  describe('rate limits (429 with Retry-After, counted in the database)', () => {
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const signIn = (browser: TestBrowser, address: string, password: string, email = 'ada@example.com') =>
      browser.post('/api/auth/login', { email, password }, from(address));

    it('refuses the 11th wrong password from one address for one account; the owner elsewhere signs in', async () => {
      const app = await start(dialect, { TRUST_PROXY: 'true' });
      await registered(app);
      await registered(app, { email: 'other@example.com' });
      const attacker = new TestBrowser(app.url);
      const owner = new TestBrowser(app.url);
      const { max, windowSeconds } = ACCOUNT_LIMITS.loginFailures.perPair;
      for (let i = 0; i < max; i++) {
        expect((await signIn(attacker, '203.0.113.7', `wrong ${i}`)).status).toBe(401);
      }
      const over = await signIn(attacker, '203.0.113.7', 'wrong again');
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ error: { code: 'rate_limited', message: TOO_MANY_SIGN_INS } });
      const retryAfter = Number(over.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(windowSeconds - 60);
      expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
      // Refused before the password is looked at: the right one does not get through from there either.
      expect((await signIn(attacker, '203.0.113.7', PASSWORD)).status).toBe(429);
      expect(over.setCookies).toEqual([]);

      // The owner, from their own address, is not locked out by someone else's guesses.
      const mine = await signIn(owner, '198.51.100.20', PASSWORD);
      expect(mine.status).toBe(200);
      expect(owner.cookies.has(COOKIE)).toBe(true);
      // Another account from the attacker's address is not affected either.
      expect((await signIn(attacker, '203.0.113.7', PASSWORD, 'other@example.com')).status).toBe(200);
      // The window passes: that address may try again.
      advanceClock(windowSeconds + 1);
      expect((await signIn(attacker, '203.0.113.7', PASSWORD)).status).toBe(200);
    });

    it('counts only wrong passwords, and a success forgets the address’s failures', async () => {
      const app = await start(dialect, { TRUST_PROXY: 'true' });
      await registered(app);
      const browser = new TestBrowser(app.url);
      const { max } = ACCOUNT_LIMITS.loginFailures.perPair;
      for (let i = 0; i < max - 1; i++) {
        expect((await signIn(browser, '192.0.2.1', `typo ${i}`)).status).toBe(401);
      }
      expect(
        (await browser.post('/api/auth/login', { email: 'ada@example.com' }, from('192.0.2.1'))).status,
      ).toBe(400);
      expect((await signIn(browser, '192.0.2.1', PASSWORD)).status).toBe(200);
      for (let i = 0; i < max; i++) {
        expect((await signIn(browser, '192.0.2.1', `typo ${i}`)).status).toBe(401);
      }
      expect((await signIn(browser, '192.0.2.1', PASSWORD)).status).toBe(429);
    });

    it('an account under attack from many addresses: each failed address gets a few tries, a fresh one signs in', async () => {
      const app = await start(dialect, { TRUST_PROXY: 'true' });
      await registered(app);
      const { perPair, perAccount } = ACCOUNT_LIMITS.loginFailures;
      const browser = new TestBrowser(app.url);
      const addresses = Array.from({ length: perAccount.max / perPair.max }, (_, i) => `203.0.113.${i + 1}`);
      await Promise.all(
        addresses.map(async (address) => {
          for (let i = 0; i < perPair.max; i++) {
            expect((await signIn(browser, address, `guess ${i}`)).status).toBe(401);
          }
        }),
      );
      // Past the account's limit, a new address may still fail a few times, then it is refused as well.
      for (let i = 0; i < perAccount.perPairMax; i++) {
        expect((await signIn(browser, '198.51.100.99', `guess ${i}`)).status).toBe(401);
      }
      const refused = await signIn(browser, '198.51.100.99', 'one more');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: 'rate_limited', message: TOO_MANY_SIGN_INS } });
      // The owner's right password from an address with no failures still works.
      expect((await signIn(new TestBrowser(app.url), '198.51.100.20', PASSWORD)).status).toBe(200);
    });

    it('an attempt refused for its address does not count against the account', async () => {
      const app = await start(dialect, { TRUST_PROXY: 'true' });
      await registered(app);
      const { perPair, perAccount } = ACCOUNT_LIMITS.loginFailures;
      const browser = new TestBrowser(app.url);
      // Ten short of the account's limit in wrong passwords, from addresses that each used all of theirs.
      const addresses = Array.from(
        { length: perAccount.max / perPair.max - 1 },
        (_, i) => `203.0.113.${i + 1}`,
      );
      await Promise.all(
        addresses.map(async (address) => {
          for (let i = 0; i < perPair.max; i++) {
            expect((await signIn(browser, address, `guess ${i}`)).status).toBe(401);
          }
        }),
      );
      // One of them keeps trying: refused every time, and none of it is a guess at the password.
      for (let i = 0; i < 2 * perPair.max; i++) {
        expect((await signIn(browser, '203.0.113.1', `more ${i}`)).status).toBe(429);
      }
      // So the account is not past its limit: a new address gets more than perPairMax tries.
      for (let i = 0; i <= perAccount.perPairMax; i++) {
        expect((await signIn(browser, '198.51.100.99', `guess ${i}`)).status).toBe(401);
      }
    });

    it('limits sign-in attempts per address across accounts', async () => {
      const app = await start(dialect);
      const browser = new TestBrowser(app.url);
      const { max } = ACCOUNT_LIMITS.loginPerIp;
      for (let i = 0; i < max; i++) {
        const res = await browser.post('/api/auth/login', {
          email: `user${i}@example.com`,
          password: 'whatever!',
        });
        expect(res.status).toBe(401);
      }
      const over = await browser.post('/api/auth/login', {
        email: 'fresh@example.com',
        password: 'whatever!',
      });
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    });

    it('takes its registrations-per-address limit from REGISTRATIONS_PER_HOUR_PER_ADDRESS', async () => {
      const app = await start(dialect, { REGISTRATIONS_PER_HOUR_PER_ADDRESS: '2' });
      const browser = new TestBrowser(app.url);
      for (let i = 0; i < 2; i++) {
        expect((await browser.post('/api/auth/register', { email: '' })).status).toBe(400);
      }
      expect((await browser.post('/api/auth/register', registration())).status).toBe(429);
    });

    it('limits registrations and forgot-password requests', async () => {
      const app = await start(dialect);
      const browser = new TestBrowser(app.url);
      for (let i = 0; i < ACCOUNT_LIMITS.registerPerIp.max; i++) {
        expect((await browser.post('/api/auth/register', { email: '' })).status).toBe(400);
      }
      const register = await browser.post('/api/auth/register', registration());
      expect(register.status).toBe(429);
      expect(register.body).toMatchObject({ error: { code: 'rate_limited' } });
      expect(await app.db.models.User.count()).toBe(0);

      for (let i = 0; i < ACCOUNT_LIMITS.forgotPerAccount.max; i++) {
        expect((await browser.post('/api/auth/forgot-password', { email: 'ada@example.com' })).status).toBe(
          200,
        );
      }
      const forgot = await browser.post('/api/auth/forgot-password', { email: 'ada@example.com' });
      expect(forgot.status).toBe(429);
      expect(forgot.body).toMatchObject({
        error: {
          code: 'rate_limited',
          message: 'Too many password reset requests. Please wait an hour and try again.',
        },
      });
      expect((await app.db.models.RateLimit.count()) > 0).toBe(true);
    });
  });
});

import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/modules/accounts/passwords.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { SoftAuthenticator } from './helpers/soft-authenticator.js';
import type { CreationOptionsJson, RequestOptionsJson } from './helpers/soft-authenticator.js';

/**
 * Passkeys, two-step sign-in and fresh sign-in (#33) through HTTP against a real database: codes are
 * computed here with otplib from the secret the API hands out, passkeys come from a software authenticator
 * built from the WebAuthn specification (helpers/soft-authenticator.ts).
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

interface Answer {
  error?: { code: string; message: string; fields?: Record<string, string> };
  secondFactor?: {
    pendingToken: string;
    methods: { totp: boolean; recoveryCode: boolean; passkey: boolean };
  };
  [key: string]: unknown;
}

const PASSWORD = 'Staff passphrase 9';

async function start(dialect: (typeof DIALECTS)[number]) {
  t = await startTestApp({
    dialect,
    env: { REFUND_FRESH_SIGN_IN_ABOVE: '50000', FRESH_SIGN_IN_MINUTES: '10' },
  });
  return t;
}

async function staffMember(app: TestApp, email: string) {
  const { user } = await upsertStaffAccount(app.db, {
    email,
    password: PASSWORD,
    firstName: 'Grace',
    lastName: 'Hopper',
  });
  return user;
}

async function client(app: TestApp, email: string) {
  return app.db.models.User.create({
    email,
    passwordHash: await hashPassword(PASSWORD),
    firstName: 'Ada',
    lastName: 'Lovelace',
    role: 'client',
  });
}

async function signIn(app: TestApp, email: string) {
  const browser = new TestBrowser(app.url);
  const res = await browser.post<Answer>('/api/auth/login', { email, password: PASSWORD });
  return { browser, res };
}

/** The code an authenticator app shows `offset` 30-second steps from now. */
const code = (secret: string, offset = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

async function turnOnTotp(browser: TestBrowser) {
  const enrol = await browser.post<{ secret: string; uri: string }>('/api/account/totp');
  expect(enrol.status).toBe(200);
  expect(enrol.body.uri).toMatch(/^otpauth:\/\/totp\//);
  const confirmed = await browser.post<{ recoveryCodes: string[] }>('/api/account/totp/confirm', {
    code: await code(enrol.body.secret),
  });
  expect(confirmed.status).toBe(200);
  return { secret: enrol.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
}

describe.each(DIALECTS)('second factors on %s', (dialect) => {
  it('TOTP: the password alone no longer signs in; a right code does once, a wrong or replayed code does not', async () => {
    const app = await start(dialect);
    await staffMember(app, 'grace@example.com');
    const { browser } = await signIn(app, 'grace@example.com');
    const wrongFirst = await browser.post<Answer>('/api/account/totp');
    expect(wrongFirst.status).toBe(200);
    const refused = await browser.post<Answer>('/api/account/totp/confirm', { code: '000000' });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('code_not_accepted');

    const { secret, recoveryCodes } = await turnOnTotp(browser);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await app.db.sequelize.query('SELECT secret_sealed FROM totp_secrets', { plain: true });
    expect(JSON.stringify(stored)).not.toContain(secret);

    // Signed out, the password gets a pending sign-in, not a session.
    await browser.post('/api/auth/logout');
    const first = await browser.post<Answer>('/api/auth/login', {
      email: 'grace@example.com',
      password: PASSWORD,
    });
    expect(first.status).toBe(401);
    expect(first.body.error?.code).toBe('second_factor_required');
    expect(first.body.secondFactor?.methods).toEqual({ totp: true, recoveryCode: true, passkey: false });
    expect(first.setCookies).toEqual([]);
    expect((await browser.get<Answer>('/api/session')).body.user).toBeNull();
    const pendingToken = first.body.secondFactor!.pendingToken;

    const wrong = await browser.post<Answer>('/api/auth/second-factor', { pendingToken, code: '123456' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.message).toBe('That code is not right, or it has already been used.');
    // The code that turned the app on was spent then: a replay is refused.
    const replay = await browser.post<Answer>('/api/auth/second-factor', {
      pendingToken,
      code: await code(secret),
    });
    expect(replay.status).toBe(400);

    const next = await code(secret, 1);
    const ok = await browser.post<Answer>('/api/auth/second-factor', { pendingToken, code: next });
    expect(ok.status).toBe(200);
    const session = await browser.get<Answer>('/api/session');
    expect(session.body).toMatchObject({
      user: { email: 'grace@example.com' },
      secondFactor: { totp: true, passkeys: 0 },
    });

    // The pending sign-in is spent, and the same code is not taken twice.
    const again = await new TestBrowser(app.url).post<Answer>('/api/auth/second-factor', {
      pendingToken,
      code: next,
    });
    expect(again.body.error?.code).toBe('pending_sign_in_expired');
    await browser.post('/api/auth/logout');
    const second = await signIn(app, 'grace@example.com');
    const reused = await second.browser.post<Answer>('/api/auth/second-factor', {
      pendingToken: second.res.body.secondFactor!.pendingToken,
      code: next,
    });
    expect(reused.status).toBe(400);
  });

  it('a recovery code signs in once; its second use is refused; the legacy sign-in is told to use the browser', async () => {
    const app = await start(dialect);
    await staffMember(app, 'grace@example.com');
    const { browser } = await signIn(app, 'grace@example.com');
    const { recoveryCodes } = await turnOnTotp(browser);
    const recovery = recoveryCodes[3]!;

    const use = async () => {
      const attempt = await signIn(app, 'grace@example.com');
      return attempt.browser.post<Answer>('/api/auth/second-factor', {
        pendingToken: attempt.res.body.secondFactor!.pendingToken,
        code: ` ${recovery.toUpperCase()} `,
      });
    };
    expect((await use()).status).toBe(200);
    const twice = await use();
    expect(twice.status).toBe(400);
    expect(twice.body.error?.code).toBe('code_not_accepted');
    const state = await browser.get<{ recoveryCodesLeft: number }>('/api/account/second-factor');
    expect(state.body.recoveryCodesLeft).toBe(9);

    const legacy = await new TestBrowser(app.url).post<Record<string, unknown>>('/api/login.php', {
      email: 'grace@example.com',
      password: PASSWORD,
    });
    expect(legacy.status).toBe(401);
    expect(JSON.stringify(legacy.body)).not.toContain('"token"');

    // A program holding a bearer token (av-upload) sends the code with the password, in one request.
    const desktop = new TestBrowser(app.url, null);
    const login = { email: 'grace@example.com', password: PASSWORD, token: true };
    const withoutCode = await desktop.post<Answer>('/api/auth/login', login);
    expect(withoutCode.status).toBe(401);
    expect(withoutCode.body.error?.message).toContain('send the code from the authenticator app');
    const withCode = await desktop.post<Answer>('/api/auth/login', { ...login, code: recoveryCodes[5] });
    expect(withCode.status).toBe(200);
    expect(withCode.body.token).toEqual(expect.any(String));
    const wrongCode = await desktop.post<Answer>('/api/auth/login', { ...login, code: recoveryCodes[5] });
    expect(wrongCode.status).toBe(400);
  });

  it('wrong codes are limited per account like wrong passwords: past ten, even the right code waits', async () => {
    const app = await start(dialect);
    await staffMember(app, 'grace@example.com');
    const { browser } = await signIn(app, 'grace@example.com');
    const { secret } = await turnOnTotp(browser);
    const { res } = await signIn(app, 'grace@example.com');
    const pendingToken = res.body.secondFactor!.pendingToken;
    const other = new TestBrowser(app.url);
    for (let i = 0; i < 10; i += 1) {
      const wrong = await other.post<Answer>('/api/auth/second-factor', {
        pendingToken,
        code: 'aaaaa-aaaaa',
      });
      expect(wrong.status).toBe(400);
    }
    const limited = await other.post<Answer>('/api/auth/second-factor', {
      pendingToken,
      code: await code(secret, 1),
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error?.message).toBe('Too many wrong codes. Please wait 15 minutes and try again.');
  });

  it('passkeys: add one (named), sign in with it alone, a replayed or foreign answer is refused, remove it', async () => {
    const app = await start(dialect);
    await client(app, 'ada@example.com');
    const origin = new URL(app.config.PUBLIC_URL).origin;
    const authenticator = new SoftAuthenticator(origin);
    const { browser } = await signIn(app, 'ada@example.com');
    const options = await browser.post<CreationOptionsJson>('/api/account/passkeys/options');
    expect(options.status).toBe(200);
    const added = await browser.post<Answer & { id: number; name: string }>('/api/account/passkeys', {
      name: 'Work laptop',
      credential: authenticator.create(options.body),
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
    // A client's password still signs in alone (the passkey is another way in, not a second step).
    await browser.post('/api/auth/logout');
    expect((await signIn(app, 'ada@example.com')).res.status).toBe(200);

    const stranger = new TestBrowser(app.url);
    const challenge = await stranger.post<RequestOptionsJson>('/api/auth/passkey-options');
    expect(challenge.body.allowCredentials ?? []).toEqual([]);
    const answer = authenticator.get(challenge.body);
    const signedIn = await stranger.post<Answer>('/api/auth/passkey', { credential: answer });
    expect(signedIn.status).toBe(200);
    expect((await stranger.get<Answer>('/api/session')).body).toMatchObject({
      user: { email: 'ada@example.com' },
    });
    const replayed = await new TestBrowser(app.url).post<Answer>('/api/auth/passkey', { credential: answer });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error?.code).toBe('passkey_not_accepted');

    // An answer to a challenge the server never made (or one already spent) is refused.
    const madeUp = authenticator.get({ challenge: Buffer.from('not issued by us').toString('base64url') });
    const unissued = await new TestBrowser(app.url).post<Answer>('/api/auth/passkey', { credential: madeUp });
    expect(unissued.status).toBe(400);

    const phishing = new SoftAuthenticator('https://evil.example');
    phishing.credentials.push(
      ...authenticator.credentials.map((c) => ({ ...c, rpId: new URL(origin).hostname })),
    );
    const foreign = await new TestBrowser(app.url).post<RequestOptionsJson>('/api/auth/passkey-options');
    const fromElsewhere = await new TestBrowser(app.url).post<Answer>('/api/auth/passkey', {
      credential: phishing.get(foreign.body),
    });
    expect(fromElsewhere.status).toBe(400);

    const listed = await stranger.get<{
      passkeys: { id: number; name: string; lastUsedAt: string | null }[];
    }>('/api/account/second-factor');
    expect(listed.body.passkeys).toEqual([
      expect.objectContaining({ name: 'Work laptop', lastUsedAt: expect.any(String) }),
    ]);
    const removed = await stranger.call('DELETE', `/api/account/passkeys/${added.body.id}`);
    expect(removed.status).toBe(204);
    const after = await new TestBrowser(app.url).post<RequestOptionsJson>('/api/auth/passkey-options');
    const gone = await new TestBrowser(app.url).post<Answer>('/api/auth/passkey', {
      credential: authenticator.get(after.body),
    });
    expect(gone.status).toBe(400);
    const log = await app.db.models.AuditLog.findAll({
      where: { action: 'second_factor_change' },
      order: [['id', 'ASC']],
    });
    expect(log.map((row) => (row.after as { sentence: string }).sentence)).toEqual([
      'Added the passkey "Work laptop".',
      'Removed the passkey "Work laptop".',
    ]);
  });

  it('sign-in pages opened from one address (each asks for a passkey challenge) leave passkey sign-in working there', async () => {
    const app = await start(dialect);
    await client(app, 'lin@example.com');
    const authenticator = new SoftAuthenticator(new URL(app.config.PUBLIC_URL).origin);
    const { browser } = await signIn(app, 'lin@example.com');
    const options = await browser.post<CreationOptionsJson>('/api/account/passkeys/options');
    const added = await browser.post<Answer>('/api/account/passkeys', {
      name: 'Phone',
      credential: authenticator.create(options.body),
    });
    expect(added.status).toBe(201);
    // A venue's exhibitors behind one address open the sign-in page sixty times: each asks for a challenge.
    for (let i = 0; i < 60; i += 1) {
      expect((await new TestBrowser(app.url).post('/api/auth/passkey-options')).status).toBe(200);
    }
    const visitor = new TestBrowser(app.url);
    const challenge = await visitor.post<RequestOptionsJson>('/api/auth/passkey-options');
    expect(challenge.status).toBe(200);
    const signedIn = await visitor.post<Answer>('/api/auth/passkey', {
      credential: authenticator.get(challenge.body),
    });
    expect(signedIn.status).toBe(200);
  });

  it('a passkey without user verification is refused; a staff password then needs the passkey', async () => {
    const app = await start(dialect);
    await staffMember(app, 'grace@example.com');
    const origin = new URL(app.config.PUBLIC_URL).origin;
    const { browser } = await signIn(app, 'grace@example.com');
    const unverified = new SoftAuthenticator(origin, false);
    const options = await browser.post<CreationOptionsJson>('/api/account/passkeys/options');
    const refused = await browser.post<Answer>('/api/account/passkeys', {
      name: 'Key',
      credential: unverified.create(options.body),
    });
    expect(refused.status).toBe(400);

    const authenticator = new SoftAuthenticator(origin);
    const again = await browser.post<CreationOptionsJson>('/api/account/passkeys/options');
    const added = await browser.post<Answer>('/api/account/passkeys', {
      name: 'Phone',
      credential: authenticator.create(again.body),
    });
    expect(added.status).toBe(201);

    const { browser: next, res } = await signIn(app, 'grace@example.com');
    expect(res.status).toBe(401);
    expect(res.body.secondFactor?.methods).toEqual({ totp: false, recoveryCode: false, passkey: true });
    const pendingToken = res.body.secondFactor!.pendingToken;
    const challenge = await next.post<RequestOptionsJson>('/api/auth/second-factor/passkey-options', {
      pendingToken,
    });
    expect(challenge.body.allowCredentials).toHaveLength(1);
    const done = await next.post<Answer>('/api/auth/second-factor/passkey', {
      pendingToken,
      credential: authenticator.get(challenge.body),
    });
    expect(done.status).toBe(200);
    expect((await next.get<Answer>('/api/session')).body).toMatchObject({
      user: { email: 'grace@example.com' },
    });
  });

  it('a refund above REFUND_FRESH_SIGN_IN_ABOVE needs a sign-in within FRESH_SIGN_IN_MINUTES; reauthenticate renews it', async () => {
    const app = await start(dialect);
    await staffMember(app, 'grace@example.com');
    const { browser } = await signIn(app, 'grace@example.com');
    const stale = new Date(Date.now() - 11 * 60_000);
    await app.db.models.Session.update({ provenAt: stale }, { where: {} });
    const order = randomUUID();
    const refund = (amount: number) =>
      browser.post<Answer>(`/api/staff/orders/${order}/refunds`, {
        amount,
        reason: 'Broken',
        key: randomUUID(),
      });

    const above = await refund(50_001);
    expect(above.status).toBe(403);
    expect(above.body.error).toEqual({
      code: 'fresh_sign_in_required',
      message: 'Please sign in again to continue.',
    });
    // At the amount the rule does not apply: the refund goes on to find no such order.
    expect((await refund(50_000)).status).toBe(404);

    const wrong = await browser.post<Answer>('/api/accounts/reauthenticate', { password: 'not it' });
    expect(wrong.status).toBe(400);
    const renewed = await browser.post<Answer>('/api/accounts/reauthenticate', { password: PASSWORD });
    expect(renewed.status).toBe(200);
    expect((await refund(50_001)).status).toBe(404);
  });

  it('the owner setting: staff without a factor are sent to set one up, and staff pages wait until they have', async () => {
    const app = await start(dialect);
    await staffMember(app, 'owner@example.com');
    await staffMember(app, 'lead@example.com');
    const owner = (await signIn(app, 'owner@example.com')).browser;
    expect((await owner.put<Answer>('/api/staff-settings/second-factor', { required: true })).status).toBe(
      200,
    );

    const { browser: lead, res } = await signIn(app, 'lead@example.com');
    expect(res.status).toBe(200);
    expect(res.body.secondFactorSetupRequired).toBe(true);
    expect((await lead.get<Answer>('/api/session')).body.secondFactorSetupRequired).toBe(true);
    const blocked = await lead.get<Answer>('/api/staff/orders');
    expect(blocked.status).toBe(403);
    expect(blocked.body.error?.code).toBe('second_factor_setup_required');

    await turnOnTotp(lead);
    expect((await lead.get<Answer>('/api/staff/orders')).status).toBe(200);
    expect((await lead.get<Answer>('/api/session')).body.secondFactorSetupRequired).toBe(false);
  });
});

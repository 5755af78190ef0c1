import { FORBIDDEN_ROLE_MESSAGE } from '@avp/shared';
import type { StaffMemberJson } from '@avp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DEACTIVATED } from '../src/modules/accounts/roles.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import {
  ACCOUNT_EXISTS,
  ALREADY_STAFF,
  INVITATION_EXPIRED,
  INVITATION_MAIL_SUBJECT,
  INVITATION_REVOKED,
  INVITATION_UNKNOWN,
  INVITATION_USED,
  LAST_OWNER,
  wrongAccount,
} from '../src/modules/staff-members/index.js';
import { staffRoleModels } from '../src/db/models/staff-roles.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';

/**
 * Staff management (#33) as an owner, an invitee and a deactivated member see it, on both databases:
 * invitations (mail, single use, 72 h, withdrawn, wrong account), role changes, deactivation ending every
 * session and token at once, the last-owner rule, fresh sign-in, and the audit log's sentences. Which
 * role may call which route is the authorization matrix's (authorization-matrix.test.ts).
 */

const OWNER = { email: 'ana@example.com', password: 'Owner passphrase 7', firstName: 'Ana', lastName: 'Lee' };
const SAM_PASSWORD = 'Warehouse lantern 42';

describe.each(DIALECTS)('staff members (%s)', (dialect) => {
  let t: TestApp;
  let owner: TestBrowser;
  let ownerId: number;
  let invitee = 0;

  async function signIn(email: string, password: string): Promise<TestBrowser> {
    const browser = new TestBrowser(t.url);
    const res = await browser.post('/api/auth/login', { email, password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return browser;
  }

  /** The token of the newest invitation mail to `email`, as the invitee reads it from the link. */
  async function tokenMailedTo(email: string): Promise<string> {
    const mail = await t.db.models.MailOutbox.findOne({
      where: { toAddress: email },
      order: [['id', 'DESC']],
    });
    expect(mail?.subject).toBe(INVITATION_MAIL_SUBJECT);
    const match = new RegExp(`${t.config.PUBLIC_URL}/staff/invite#token=([A-Za-z0-9_-]{43})`).exec(
      mail!.textBody,
    );
    expect(match).not.toBeNull();
    return match![1]!;
  }

  async function invited(roles: string[], email = `member${++invitee}@example.com`) {
    const res = await owner.post<{ invitation: { id: number } }>('/api/staff/invitations', { email, roles });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { email, id: res.body.invitation.id, token: await tokenMailedTo(email) };
  }

  /** A staff member made through an invitation, signed in. */
  async function member(roles: string[], names = { firstName: 'Sam', lastName: 'Park' }) {
    const { email, token } = await invited(roles);
    const accepted = await new TestBrowser(t.url).post('/api/staff-invitations/accept', {
      token,
      ...names,
      password: SAM_PASSWORD,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    const browser = await signIn(email, SAM_PASSWORD);
    const id = (await t.db.models.User.findOne({ where: { email } }))!.id;
    return { email, id, browser };
  }

  async function sentences(): Promise<string[]> {
    const rows = await t.db.models.AuditLog.findAll({ order: [['id', 'ASC']] });
    return rows
      .map((row) => {
        const after = typeof row.after === 'string' ? JSON.parse(row.after) : row.after;
        return (after as { sentence?: string } | null)?.sentence;
      })
      .filter((s): s is string => typeof s === 'string');
  }

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    ownerId = (await upsertStaffAccount(t.db, OWNER)).user.id;
    owner = await signIn(OWNER.email, OWNER.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('invites by e-mail: one link, 72 hours, hashed at rest, used once; the invitee gets the roles', async () => {
    const res = await owner.post<{ invitation: Record<string, unknown> }>('/api/staff/invitations', {
      email: ' Sam@Example.com ',
      roles: ['media', 'finance'],
    });
    expect(res.status).toBe(201);
    expect(res.body.invitation).toMatchObject({ email: 'sam@example.com', roles: ['finance', 'media'] });
    const token = await tokenMailedTo('sam@example.com');
    const row = await staffRoleModels(t.db.sequelize).StaffInvitation.findOne({
      where: { email: 'sam@example.com' },
    });
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(72 * 3_600_000);
    expect(JSON.stringify(row!.toJSON())).not.toContain(token);
    expect(
      (await owner.get<{ invitations: { email: string }[] }>('/api/staff/invitations')).body.invitations.map(
        (i) => i.email,
      ),
    ).toContain('sam@example.com');

    const anonymous = new TestBrowser(t.url);
    const lookup = await anonymous.post('/api/staff-invitations/lookup', { token });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({
      invitation: { email: 'sam@example.com', roles: ['finance', 'media'], invitedBy: 'Ana Lee' },
    });

    const weak = await anonymous.post<{ error: { fields: Record<string, string> } }>(
      '/api/staff-invitations/accept',
      { token, firstName: 'Sam', lastName: 'Park', password: 'short' },
    );
    expect(weak.status).toBe(400);
    expect(weak.body.error.fields.password).toBeTruthy();
    const nul = await anonymous.post<{ error: { fields: Record<string, string> } }>(
      '/api/staff-invitations/accept',
      { token, firstName: 'Sam\u0000', lastName: 'x'.repeat(101), password: SAM_PASSWORD },
    );
    expect(nul.status).toBe(400);
    expect(Object.keys(nul.body.error.fields).sort()).toEqual(['firstName', 'lastName']);

    const accepted = await anonymous.post('/api/staff-invitations/accept', {
      token,
      firstName: 'Sam',
      lastName: 'Park',
      password: SAM_PASSWORD,
    });
    expect(accepted.status).toBe(201);
    const again = await anonymous.post('/api/staff-invitations/accept', {
      token,
      firstName: 'Eve',
      lastName: 'Park',
      password: SAM_PASSWORD,
    });
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ error: { code: 'invitation_used', message: INVITATION_USED } });

    const login = await new TestBrowser(t.url).post<{ user: { staffRoles: string[] } }>('/api/auth/login', {
      email: 'sam@example.com',
      password: SAM_PASSWORD,
    });
    expect(login.body.user.staffRoles).toEqual(['finance', 'media']);
    const sam = await signIn('sam@example.com', SAM_PASSWORD);
    const session = await sam.get<{ user: { staffRoles: string[] } }>('/api/session');
    expect(session.body.user.staffRoles).toEqual(['finance', 'media']);
    expect((await sam.get('/api/staff/orders')).status).toBe(200);
    expect((await sam.get('/api/uploads/inbox')).status).toBe(200);
    // The store list is any staff role's (Orders picks a store from it); the products are the store manager's.
    expect((await sam.get('/api/staff/stores')).status).toBe(200);
    const products = await sam.get('/api/staff/products');
    expect(products.status).toBe(403);
    expect(products.body).toEqual({ error: { code: 'forbidden_role', message: FORBIDDEN_ROLE_MESSAGE } });
    expect((await sam.get('/api/staff/members')).status).toBe(403);

    expect(await sentences()).toEqual(
      expect.arrayContaining([
        'Ana Lee invited sam@example.com as Finance and Media.',
        'Sam Park accepted the invitation for sam@example.com as Finance and Media.',
      ]),
    );
    // Inviting an address that is staff already says so.
    const twice = await owner.post('/api/staff/invitations', { email: 'sam@example.com', roles: ['media'] });
    expect(twice.status).toBe(409);
    expect((twice.body as { error: { message: string } }).error.message).toBe(ALREADY_STAFF);
  });

  it('refuses an unknown, expired or withdrawn link, and one opened while signed in as someone else', async () => {
    const anonymous = new TestBrowser(t.url);
    const unknown = await anonymous.post('/api/staff-invitations/lookup', { token: 'x'.repeat(43) });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 'invitation_unknown', message: INVITATION_UNKNOWN } });

    const expired = await invited(['media']);
    await staffRoleModels(t.db.sequelize).StaffInvitation.update(
      { expiresAt: new Date(Date.now() - 1000) },
      { where: { id: expired.id } },
    );
    for (const path of ['/api/staff-invitations/lookup', '/api/staff-invitations/accept']) {
      const res = await anonymous.post(path, {
        token: expired.token,
        firstName: 'Late',
        lastName: 'Comer',
        password: SAM_PASSWORD,
      });
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ error: { code: 'invitation_expired', message: INVITATION_EXPIRED } });
    }
    expect(await t.db.models.User.findOne({ where: { email: expired.email } })).toBeNull();

    const withdrawn = await invited(['finance']);
    expect((await owner.call('DELETE', `/api/staff/invitations/${withdrawn.id}`)).status).toBe(204);
    const revoked = await anonymous.post('/api/staff-invitations/accept', {
      token: withdrawn.token,
      firstName: 'Not',
      lastName: 'Now',
      password: SAM_PASSWORD,
    });
    expect(revoked.status).toBe(410);
    expect(revoked.body).toEqual({ error: { code: 'invitation_revoked', message: INVITATION_REVOKED } });
    expect(await sentences()).toContain(`Ana Lee withdrew the invitation of ${withdrawn.email}.`);
    const pending = await owner.get<{ invitations: { id: number }[] }>('/api/staff/invitations');
    expect(pending.body.invitations.map((i) => i.id)).not.toContain(withdrawn.id);

    // The link opened in a browser signed in as a client.
    const client = new TestBrowser(t.url);
    expect((await client.post('/api/auth/register', registration({ email: 'cli@example.com' }))).status).toBe(
      201,
    );
    const other = await invited(['media']);
    const wrong = await client.post('/api/staff-invitations/accept', {
      token: other.token,
      firstName: 'Cli',
      lastName: 'Ent',
      password: SAM_PASSWORD,
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toEqual({ error: { code: 'wrong_account', message: wrongAccount(other.email) } });
    // An account made for the address after the invitation was sent: the invitation cannot take it over.
    expect(
      (await new TestBrowser(t.url).post('/api/auth/register', registration({ email: other.email }))).status,
    ).toBe(201);
    const taken = await anonymous.post('/api/staff-invitations/accept', {
      token: other.token,
      firstName: 'Cli',
      lastName: 'Ent',
      password: SAM_PASSWORD,
    });
    expect(taken.status).toBe(409);
    expect((taken.body as { error: { message: string } }).error.message).toBe(ACCOUNT_EXISTS);
    expect((await t.db.models.User.findOne({ where: { email: other.email } }))!.role).toBe('client');
  });

  it('changes roles: the next request obeys them, and the change is a sentence', async () => {
    const kim = await member(['finance'], { firstName: 'Kim', lastName: 'Ito' });
    expect((await kim.browser.get('/api/staff/orders')).status).toBe(200);
    const changed = await owner.put<{ members: StaffMemberJson[] }>(`/api/staff/members/${kim.id}/roles`, {
      roles: ['store_manager'],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.members.find((m) => m.id === kim.id)?.roles).toEqual(['store_manager']);
    expect((await kim.browser.get('/api/staff/orders')).status).toBe(403);
    expect((await kim.browser.get('/api/staff/stores')).status).toBe(200);
    expect(await sentences()).toContain("Ana Lee changed Kim Ito's roles from Finance to Store manager.");

    const none = await owner.put(`/api/staff/members/${kim.id}/roles`, { roles: [] });
    expect(none.status).toBe(400);
    const bad = await owner.put(`/api/staff/members/${kim.id}/roles`, { roles: ['root'] });
    expect(bad.status).toBe(400);
  });

  it('deactivation ends every session and token of the member at once; sign-in is refused until reactivated', async () => {
    const lou = await member(['media'], { firstName: 'Lou', lastName: 'Reed' });
    const desktop = await new TestBrowser(t.url).post<{ token: string }>('/api/auth/login', {
      email: lou.email,
      password: SAM_PASSWORD,
      token: true,
    });
    expect(desktop.status).toBe(200);
    const legacy = await new TestBrowser(t.url).post<{ token: string }>('/api/login.php', {
      email: lou.email,
      password: Buffer.from(SAM_PASSWORD).toString('base64'),
    });
    expect(legacy.status).toBe(200);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await lou.browser.get('/api/uploads/inbox')).status).toBe(200);
    expect((await t.request('/api/uploads/inbox', { headers: bearer(desktop.body.token) })).status).toBe(200);
    expect((await t.request('/api/check.php', { headers: bearer(legacy.body.token) })).status).toBe(200);

    const off = await owner.post<{ members: StaffMemberJson[] }>(`/api/staff/members/${lou.id}/deactivate`);
    expect(off.status).toBe(200);
    expect(off.body.members.find((m) => m.id === lou.id)?.deactivatedAt).not.toBeNull();
    // Ended by the deactivation itself, before any of them is presented again.
    expect(await t.db.models.Session.count({ where: { userId: lou.id } })).toBe(0);

    expect((await lou.browser.get('/api/uploads/inbox')).status).toBe(401);
    expect((await t.request('/api/uploads/inbox', { headers: bearer(desktop.body.token) })).status).toBe(401);
    expect((await t.request('/api/check.php', { headers: bearer(legacy.body.token) })).status).toBe(403);

    const again = await new TestBrowser(t.url).post('/api/auth/login', {
      email: lou.email,
      password: SAM_PASSWORD,
    });
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ error: { code: 'account_deactivated', message: ACCOUNT_DEACTIVATED } });
    // A wrong password still gets the one answer a guess gets: deactivation is not told to guessers.
    const guess = await new TestBrowser(t.url).post('/api/auth/login', {
      email: lou.email,
      password: 'wrong one 1',
    });
    expect(guess.status).toBe(401);

    expect((await owner.post(`/api/staff/members/${lou.id}/reactivate`)).status).toBe(200);
    const back = await signIn(lou.email, SAM_PASSWORD);
    expect((await back.get('/api/uploads/inbox')).status).toBe(200);
    expect(await sentences()).toEqual(
      expect.arrayContaining(['Ana Lee deactivated Lou Reed.', 'Ana Lee reactivated Lou Reed.']),
    );
  });

  it('keeps the last active owner: not demoted, not deactivated; another owner makes it possible', async () => {
    const demote = await owner.put(`/api/staff/members/${ownerId}/roles`, { roles: ['finance'] });
    expect(demote.status).toBe(409);
    expect(demote.body).toEqual({ error: { code: 'last_owner', message: LAST_OWNER } });
    const deactivate = await owner.post(`/api/staff/members/${ownerId}/deactivate`);
    expect(deactivate.status).toBe(409);
    expect(deactivate.body).toEqual({ error: { code: 'last_owner', message: LAST_OWNER } });
    expect((await owner.get('/api/staff/members')).status).toBe(200);

    const second = await member(['owner'], { firstName: 'Oda', lastName: 'Nobu' });
    // A deactivated owner does not count.
    expect((await owner.post(`/api/staff/members/${second.id}/deactivate`)).status).toBe(200);
    expect((await owner.put(`/api/staff/members/${ownerId}/roles`, { roles: ['finance'] })).status).toBe(409);
    expect((await owner.post(`/api/staff/members/${second.id}/reactivate`)).status).toBe(200);
    const oda = await signIn(second.email, SAM_PASSWORD);
    const changed = await oda.put<{ members: StaffMemberJson[] }>(`/api/staff/members/${ownerId}/roles`, {
      roles: ['owner', 'finance'],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.members.find((m) => m.id === ownerId)?.roles).toEqual(['owner', 'finance']);
    // Oda may now step down as owner: Ana still is one.
    expect((await oda.put(`/api/staff/members/${second.id}/roles`, { roles: ['media'] })).status).toBe(200);
    expect((await owner.put(`/api/staff/members/${ownerId}/roles`, { roles: ['finance'] })).status).toBe(409);
  });

  it("keeps a store's own Stripe keys the owner's, inside forms a store manager may send", async () => {
    const form = {
      name: 'Keys Expo',
      store_id: 'keys-expo',
      deadline: '2030-01-01',
      start_date: '2030-01-05',
      end_date: '2030-01-07',
    };
    const manager = await member(['store_manager'], { firstName: 'Max', lastName: 'Store' });
    const keys = {
      stripe_publishable_key: 'pk_test_keys0123456789',
      stripe_secret_key: 'sk_test_keys0123456789',
    };
    const refused = await manager.browser.post('/api/staff/stores', { ...form, ...keys });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { code: 'forbidden_role', message: FORBIDDEN_ROLE_MESSAGE } });
    const created = await manager.browser.post<{ store: { id: number } }>('/api/staff/stores', form);
    expect(created.status).toBe(201);
    const id = created.body.store.id;
    const cleared = await manager.browser.put(`/api/staff/stores/${id}`, {
      ...form,
      stripe_publishable_key: '',
    });
    expect(cleared.status).toBe(403);
    expect(
      (await manager.browser.put(`/api/staff/stores/${id}`, { ...form, name: 'Keys Expo 2' })).status,
    ).toBe(200);
    const legacy = await manager.browser.post('/api/updateStore.php', { ...form, id, ...keys });
    expect(legacy.status).toBe(403);
    expect((await owner.put(`/api/staff/stores/${id}`, { ...form, ...keys })).status).toBe(200);
    const store = await t.db.models.Store.findByPk(id);
    expect(store!.stripePublishableKey).toBe(keys.stripe_publishable_key);
  });

  it('lists members with roles, last sign-in and second-factor state; changes need a fresh sign-in', async () => {
    const list = await owner.get<{ members: StaffMemberJson[] }>('/api/staff/members');
    const ana = list.body.members.find((m) => m.id === ownerId)!;
    expect(ana).toMatchObject({
      email: OWNER.email,
      firstName: 'Ana',
      lastName: 'Lee',
      secondFactor: { passkeys: 0, totp: false },
      deactivatedAt: null,
    });
    expect(ana.roles).toContain('owner');
    expect(ana.lastSignInAt).not.toBeNull();

    const stale = await signIn(OWNER.email, OWNER.password);
    await t.db.models.Session.update({ provenAt: new Date(Date.now() - 11 * 60_000) }, { where: {} });
    const refused = await stale.post('/api/staff/invitations', {
      email: 'late@example.com',
      roles: ['media'],
    });
    expect(refused.status).toBe(403);
    expect((refused.body as { error: { code: string } }).error.code).toBe('fresh_sign_in_required');
    // Reading the list needs none.
    expect((await stale.get('/api/staff/members')).status).toBe(200);
    owner = await signIn(OWNER.email, OWNER.password);
  });
});

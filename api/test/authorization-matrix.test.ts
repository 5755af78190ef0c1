import express from 'express';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROLES } from '@avp/shared';
import type { StaffRole } from '@avp/shared';
import { createApp } from '../src/app.js';
import { secondFactorModels } from '../src/db/models/second-factors.js';
import { sessionCookieName } from '../src/modules/accounts/index.js';
import { createSession } from '../src/modules/accounts/sessions.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { staffRoleModels } from '../src/db/models/staff-roles.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import type { TestDialect } from './helpers/env.js';
import { fillPath, registeredRoutes } from './helpers/routes.js';
import { customerFor, Exhibitor, seeded } from './helpers/store.js';
import type { IntentJson } from './helpers/store.js';
import { StripeStandIn, stripeEvent } from './helpers/stripe-stand-in.js';

/**
 * Who may call what (SPEC §6 'Roles and permissions'), for every route the app registers. A route without
 * a rule here fails the suite, naming it, so nobody ships an endpoint without deciding who may use it.
 *
 *   public    anyone, signed in or not
 *   user      any signed-in account (client or staff); 401 when signed out
 *   own       a signed-in account's own upload or file: 401 signed out, 404 to anyone else (another
 *             client, and staff too: staff read uploads through the inbox), as if it did not exist
 *   token     an exhibitor's order, guarded by its own X-Order-Token, not by an account: 404 without the
 *             token or with another order's
 *   staff     staff with one of `roles` (#33; owner passes every check, `roles: []` any staff role): 401
 *             when signed out, 403 for a client account and for a staff member without the role
 *   webhook   Stripe's webhook: only a body signed with STRIPE_WEBHOOK_SECRET; 400 otherwise
 *   session   the spec's original calls that need a session: any signed-in account; 403 when signed out
 *             ('a 403 destroys the session', SPEC §4)
 *
 * Each route is called by seven callers: anonymous, client A, client B, and a staff member of each role
 * (owner, store manager, finance, media), each holding that one role. Client A owns the things the route names (its submission and file;
 * for a token route it holds the order's token, for the webhook it signs with the right secret). Client B
 * is another client holding its own submission, its own order's token, a signature by another secret.
 * A staff member is signed in as staff with no token and no signature; anonymous holds nothing.
 */
type Rule = 'public' | 'user' | 'own' | 'token' | 'staff' | 'webhook' | 'session';
type Caller = 'anonymous' | 'clientA' | 'clientB' | StaffRole;
/** A column of EXPECTED: every staff role answers the same on routes that are not staff routes. */
type Column = 'anonymous' | 'clientA' | 'clientB' | 'staff';
/** 'allowed': past the access check, whatever the handler then says (never 401, 403 or 404). */
type Expected = 'allowed' | 400 | 401 | 403 | 404;

const EXPECTED: Record<Exclude<Rule, 'staff'>, Record<Column, Expected>> = {
  public: { anonymous: 'allowed', clientA: 'allowed', clientB: 'allowed', staff: 'allowed' },
  user: { anonymous: 401, clientA: 'allowed', clientB: 'allowed', staff: 'allowed' },
  own: { anonymous: 401, clientA: 'allowed', clientB: 404, staff: 404 },
  token: { anonymous: 404, clientA: 'allowed', clientB: 404, staff: 404 },
  webhook: { anonymous: 400, clientA: 'allowed', clientB: 400, staff: 400 },
  session: { anonymous: 403, clientA: 'allowed', clientB: 'allowed', staff: 'allowed' },
};

/** What the suite made: client A's things, client B's, and what staff work on. */
interface World {
  t: TestApp;
  clientA: number;
  clientB: number;
  /** One staff member per role, holding that role only. */
  staff: Record<StaffRole, number>;
  /** A media member the owner's member routes act on. */
  spareMember: number;
  /** Pending invitations: one to look up, one to accept, one to withdraw (its id). */
  lookupToken: string;
  acceptToken: string;
  invitation: number;
  orderA: IntentJson;
  orderB: IntentJson;
  paidOrder: string;
  storeKey: number;
  archivedStoreKey: number;
  productId: number;
  sentSubmission: string;
  sentFile: string;
  uploadEvent?: string;
  passkey?: number;
}

/** Client A's open submission with one registered 5-byte file, made fresh for a route that may change it. */
interface Upload {
  submissionId: string;
  fileId: string;
}

interface Call {
  params?: (w: World, upload: Upload) => Record<string, string | number>;
  /** Params made afresh for each caller, for a route that uses up what it names (a DELETE). */
  paramsPerCaller?: (w: World) => Promise<Record<string, string | number>>;
  /** For a 'staff' rule: the roles that may (owner always may; [] any staff role). */
  roles?: StaffRole[];
  body?: (w: World, upload: Upload) => unknown;
  /** Raw bytes instead of JSON. */
  raw?: { contentType: string; bytes: Uint8Array | string };
  query?: string;
}

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const WEBHOOK_SECRET = 'whsec_matrix_0123456789abcdef';
const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_matrix0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_matrix0123456789',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};
const STAFF = { email: 'grace@example.com', password: 'Staff passphrase 9' };

const submissionOf = (_w: World, u: Upload) => ({ submissionId: u.submissionId });
const fileOf = (_w: World, u: Upload) => ({ fileId: u.fileId });
const orderA = (w: World) => ({ orderId: w.orderA.orderId });
const store = (w: World) => ({ id: w.storeKey });
const paid = (w: World) => ({ orderId: w.paidOrder });
const storeForm = {
  name: 'Matrix Expo',
  store_id: 'matrix-expo',
  deadline: '2030-01-01',
  start_date: '2030-01-05',
  end_date: '2030-01-07',
};

const ROUTES: Record<string, { rule: Rule } & Call> = {
  'GET /api/health': { rule: 'public' },
  'GET /api/ready': { rule: 'public' },
  'GET /api/session': { rule: 'public' },
  'POST /api/auth/login': { rule: 'public', body: () => STAFF },
  'POST /api/auth/logout': { rule: 'public' },
  'POST /api/auth/register': { rule: 'public', body: () => ({}) },
  'POST /api/auth/forgot-password': { rule: 'public', body: () => ({ email: 'nobody@example.com' }) },
  'POST /api/auth/reset-password': { rule: 'public', body: () => ({}) },
  'GET /api/account': { rule: 'user' },
  // Passkeys, two-step sign-in and fresh sign-in (#33): the pending token or the passkey is the credential.
  'POST /api/auth/second-factor': { rule: 'public', body: () => ({}) },
  'POST /api/auth/second-factor/passkey-options': {
    rule: 'public',
    body: () => ({}),
  },
  'POST /api/auth/second-factor/passkey': { rule: 'public', body: () => ({}) },
  'POST /api/auth/passkey-options': { rule: 'public' },
  'POST /api/auth/passkey': { rule: 'public', body: () => ({}) },
  'GET /api/account/second-factor': { rule: 'user' },
  'POST /api/account/passkeys/options': { rule: 'user' },
  'POST /api/account/passkeys': { rule: 'user', body: () => ({}) },
  'PATCH /api/account/passkeys/:id': {
    rule: 'own',
    params: (w) => ({ id: w.passkey! }),
    body: () => ({ name: 'Renamed' }),
  },
  'DELETE /api/account/passkeys/:id': { rule: 'own', params: (w) => ({ id: w.passkey! }) },
  'POST /api/account/totp': { rule: 'user' },
  'POST /api/account/totp/confirm': { rule: 'user', body: () => ({ code: '000000' }) },
  'DELETE /api/account/totp': { rule: 'user' },
  'POST /api/account/recovery-codes': { rule: 'user' },
  'POST /api/accounts/reauthenticate/options': { rule: 'user' },
  'POST /api/accounts/reauthenticate': { rule: 'user', body: () => ({}) },
  'GET /api/staff-settings/second-factor': { rule: 'staff', roles: [] },
  'PUT /api/staff-settings/second-factor': {
    rule: 'staff',
    roles: ['owner'],
    body: () => ({ required: false }),
  },
  'PUT /api/account': { rule: 'user', body: () => ({}) },
  'POST /api/contact': { rule: 'public', body: () => ({}) },
  'POST /api/submitContact.php': { rule: 'public', body: () => ({}) },
  // The spec's original calls (SPEC §7, modules/legacy), on the same rules as the routes they stand for.
  'POST /api/login.php': { rule: 'public', body: () => ({}) },
  'POST /api/logout.php': { rule: 'public' },
  // Registration when signed out, the account update when signed in.
  'POST /api/updateUser.php': { rule: 'public', body: () => ({}) },
  'POST /api/forgotPassword.php': { rule: 'public', body: () => ({ email: 'nobody@example.com' }) },
  'GET /api/status.php': { rule: 'public' },
  'POST /api/status.php': { rule: 'public' },
  'GET /api/check.php': { rule: 'session' },
  'POST /api/log.php': { rule: 'public', body: () => ({ type: 'info', data: 'matrix' }) },
  'GET /api/log.php': { rule: 'staff', roles: ['owner'] },
  'POST /api/submitForm.php': { rule: 'session', body: () => ({}) },
  'GET /api/getStoreData.php': { rule: 'public', query: '?store_id=demo-expo' },
  'POST /api/getStoreData.php': { rule: 'public', body: () => ({ store_id: 'demo-expo' }) },
  // Public: active stores; staff asking with an empty payload: every store.
  'GET /api/getAllStores.php': { rule: 'public' },
  'POST /api/getAllStores.php': { rule: 'public', body: () => ({}) },
  'POST /api/updateStore.php': { rule: 'staff', roles: ['store_manager'], body: () => ({}) },
  'POST /api/deleteStore.php': {
    rule: 'staff',
    roles: ['store_manager'],
    body: (w) => ({ storeId: w.storeKey }),
  },
  'POST /api/stripeIntent.php': { rule: 'public', body: () => ({}) },
  'POST /api/sendOrderConfirmationEmail.php': { rule: 'public', body: () => ({}) },
  'POST /api/charge.php': { rule: 'staff', roles: ['finance'], body: () => ({}) },
  // The exhibitor store: anonymous by SPEC §6; an order is guarded by its own token, not by an account.
  'GET /api/stores': { rule: 'public' },
  'GET /api/stores/:storeId': { rule: 'public', params: () => ({ storeId: 'demo-expo' }) },
  'POST /api/stores/:storeId/payment-intents': {
    rule: 'public',
    params: () => ({ storeId: 'demo-expo' }),
    body: (w) => ({ cart: [{ productId: w.productId, count: 1 }] }),
  },
  'GET /api/orders/:orderId': { rule: 'token', params: orderA },
  'PUT /api/orders/:orderId': { rule: 'token', params: orderA, body: () => ({}) },
  'POST /api/orders/:orderId/pay': { rule: 'token', params: orderA, body: () => ({}) },
  'POST /api/orders/:orderId/confirm': { rule: 'token', params: orderA },
  'POST /api/webhooks/stripe': { rule: 'webhook' },
  // Uploads: the protocol is for any signed-in account, on its own submissions only; the inbox is staff's.
  'POST /api/uploads/submissions': {
    rule: 'user',
    body: () => ({ form_type: 'sponsor', event_name: 'Expo 2027', sponsor_company: 'Acme AV' }),
  },
  'GET /api/uploads/submissions/:submissionId': { rule: 'own', params: submissionOf },
  'POST /api/uploads/submissions/:submissionId/files': {
    rule: 'own',
    params: submissionOf,
    body: () => ({ name: 'b-roll.mov', size: 5, lastModified: 7 }),
  },
  'POST /api/uploads/submissions/:submissionId/files/batch': {
    rule: 'own',
    params: submissionOf,
    body: () => ({ files: [{ name: 'b-roll.mov', size: 5, lastModified: 7 }] }),
  },
  'POST /api/uploads/submissions/:submissionId/submit': { rule: 'own', params: submissionOf },
  'GET /api/uploads/files/:fileId': { rule: 'own', params: fileOf },
  // Cloud imports: the pickers' public keys for anyone; starting and renewing on the caller's own files.
  'GET /api/uploads/cloud-config': { rule: 'public' },
  'GET /api/uploads/imports': { rule: 'user' },
  'POST /api/uploads/submissions/:submissionId/imports': {
    rule: 'own',
    params: submissionOf,
    body: () => ({ provider: 'dropbox', link: 'http://169.254.169.254/latest', name: 'clip.mov' }),
  },
  'POST /api/uploads/cloud/box/token': { rule: 'user', body: () => ({ code: 'a-code' }) },
  'POST /api/uploads/imports/:fileId/token': {
    rule: 'own',
    params: fileOf,
    body: () => ({ accessToken: 'fresh-token' }),
  },
  'PUT /api/uploads/files/:fileId/parts/:partNumber': {
    rule: 'own',
    params: (_w, u) => ({ fileId: u.fileId, partNumber: 1 }),
    raw: { contentType: 'application/octet-stream', bytes: 'hello' },
  },
  // Bundles (#34): for any signed-in account; each file named is checked as its own PUT is (a file of
  // someone else's is answered 404 in the list: upload-bundles.test.ts), so this names no one's.
  'POST /api/uploads/bundles': {
    rule: 'user',
    query: `?files=00000000-0000-4000-8000-000000000000:5:${'0'.repeat(64)}`,
    raw: { contentType: 'application/octet-stream', bytes: 'hello' },
  },
  'POST /api/uploads/files/:fileId/complete': { rule: 'own', params: fileOf },
  'DELETE /api/uploads/files/:fileId': { rule: 'own', params: fileOf },
  'GET /api/uploads/inbox': { rule: 'staff', roles: ['media'] },
  'PUT /api/uploads/inbox/:submissionId/handled': {
    rule: 'staff',
    roles: ['media'],
    params: (w) => ({ submissionId: w.sentSubmission }),
    body: () => ({ handled: true }),
  },
  'GET /api/uploads/inbox/files/:fileId/download': {
    rule: 'staff',
    roles: ['media'],
    params: (w) => ({ fileId: w.sentFile }),
  },
  // Reviews (#31): staff set a file's state and see its poster; a client lists their own sent submissions.
  'PUT /api/uploads/inbox/files/:fileId/review': {
    rule: 'staff',
    roles: ['media'],
    params: (w) => ({ fileId: w.sentFile }),
    body: () => ({ state: 'accepted' }),
  },
  'GET /api/uploads/inbox/files/:fileId/poster': {
    rule: 'staff',
    roles: ['media'],
    params: (w) => ({ fileId: w.sentFile }),
  },
  'GET /api/uploads/mine': { rule: 'user' },
  'GET /api/uploads/pull': { rule: 'staff', roles: ['media'], query: '?event=Expo%202027' },
  // Upload events (#30): the open list for whoever may upload; defining them is staff's.
  'GET /api/upload-events': { rule: 'user' },
  'GET /api/staff/upload-events': { rule: 'staff', roles: ['media'] },
  'POST /api/staff/upload-events': { rule: 'staff', roles: ['media'], body: () => ({}) },
  'PATCH /api/staff/upload-events/:id': {
    rule: 'staff',
    roles: ['media'],
    params: (w) => ({ id: w.uploadEvent! }),
    body: () => ({}),
  },
  'POST /api/staff/upload-events/:id/archive': {
    rule: 'staff',
    roles: ['media'],
    params: (w) => ({ id: w.uploadEvent! }),
  },
  'POST /api/staff/upload-events/:id/restore': {
    rule: 'staff',
    roles: ['media'],
    params: (w) => ({ id: w.uploadEvent! }),
  },
  // Staff screens: every call is staff-only.
  'GET /api/staff/settings': { rule: 'staff', roles: [] },
  'GET /api/staff/stores': { rule: 'staff', roles: [] },
  'POST /api/staff/stores': { rule: 'staff', roles: ['store_manager'], body: () => storeForm },
  'PUT /api/staff/stores/:id': { rule: 'staff', roles: ['store_manager'], params: store, body: () => ({}) },
  'POST /api/staff/stores/:id/active': {
    rule: 'staff',
    roles: ['store_manager'],
    params: store,
    body: () => ({ is_active: true }),
  },
  'POST /api/staff/stores/:id/archive': {
    rule: 'staff',
    roles: ['store_manager'],
    params: store,
    body: () => ({ is_archived: false }),
  },
  'DELETE /api/staff/stores/:id': { rule: 'staff', roles: ['store_manager'], paramsPerCaller: archivedStore },
  'GET /api/staff/store-images': { rule: 'staff', roles: ['store_manager'] },
  'POST /api/staff/store-images': {
    rule: 'staff',
    roles: ['store_manager'],
    query: '?name=logo.png',
    raw: { contentType: 'image/png', bytes: PNG_1X1 },
  },
  'GET /api/staff/stores/:id/prices': { rule: 'staff', roles: ['store_manager'], params: store },
  'PUT /api/staff/stores/:id/prices': {
    rule: 'staff',
    roles: ['store_manager'],
    params: store,
    body: () => ({}),
  },
  'GET /api/staff/stores/:id/pull-sheet': {
    rule: 'staff',
    roles: ['store_manager', 'finance'],
    params: store,
  },
  'GET /api/staff/stores/:id/stock': { rule: 'staff', roles: ['store_manager'], params: store },
  'PUT /api/staff/stores/:id/stock/:productId': {
    rule: 'staff',
    roles: ['store_manager'],
    params: (w) => ({ id: w.storeKey, productId: w.productId }),
    body: () => ({ limit: 50 }),
  },
  'GET /api/staff/overview': { rule: 'staff', roles: [] },
  'GET /api/staff/products': { rule: 'staff', roles: ['store_manager'] },
  'POST /api/staff/products': {
    rule: 'staff',
    roles: ['store_manager'],
    body: () => ({ name: 'Matrix Mic' }),
  },
  'PUT /api/staff/products/:id': {
    rule: 'staff',
    roles: ['store_manager'],
    params: (w) => ({ id: w.productId }),
    body: () => ({}),
  },
  'POST /api/staff/products/reorder': { rule: 'staff', roles: ['store_manager'], body: () => ({}) },
  'POST /api/staff/product-images': {
    rule: 'staff',
    roles: ['store_manager'],
    query: '?name=mic.png',
    raw: { contentType: 'image/png', bytes: PNG_1X1 },
  },
  'GET /api/staff/orders': { rule: 'staff', roles: ['finance'] },
  'GET /api/staff/orders.csv': { rule: 'staff', roles: ['finance'] },
  'GET /api/staff/orders/:orderId': { rule: 'staff', roles: ['finance'], params: paid },
  'POST /api/staff/orders/:orderId/refunds': {
    rule: 'staff',
    roles: ['finance'],
    params: paid,
    body: () => ({ amount: 1, reason: 'Matrix', key: 'matrix-refund-1' }),
  },
  'POST /api/staff/orders/:orderId/resend-confirmation': { rule: 'staff', roles: ['finance'], params: paid },
  'GET /api/staff/audit': { rule: 'staff', roles: ['owner'] },
  // Staff management (#33): the owner's; the invitee's lookup and accept are public (the token is the key).
  'GET /api/staff/members': { rule: 'staff', roles: ['owner'] },
  'PUT /api/staff/members/:id/roles': {
    rule: 'staff',
    roles: ['owner'],
    params: (w) => ({ id: w.spareMember }),
    body: () => ({}),
  },
  'POST /api/staff/members/:id/deactivate': {
    rule: 'staff',
    roles: ['owner'],
    params: (w) => ({ id: w.spareMember }),
  },
  'POST /api/staff/members/:id/reactivate': {
    rule: 'staff',
    roles: ['owner'],
    params: (w) => ({ id: w.spareMember }),
  },
  'GET /api/staff/invitations': { rule: 'staff', roles: ['owner'] },
  'POST /api/staff/invitations': { rule: 'staff', roles: ['owner'], body: () => ({}) },
  'DELETE /api/staff/invitations/:id': {
    rule: 'staff',
    roles: ['owner'],
    params: (w) => ({ id: w.invitation }),
  },
  'POST /api/staff-invitations/lookup': { rule: 'public', body: (w) => ({ token: w.lookupToken }) },
  'POST /api/staff-invitations/accept': {
    rule: 'public',
    body: (w) => ({
      token: w.acceptToken,
      firstName: 'Ivy',
      lastName: 'Invited',
      password: 'Invited passphrase 5',
    }),
  },
};

/**
 * Denials first, then the staff roles, the owner last of them, then client A: a route such as DELETE
 * changes what it is allowed to touch.
 */
const CALLERS: Caller[] = ['anonymous', 'clientB', 'media', 'finance', 'store_manager', 'owner', 'clientA'];

/** What a caller should get from a route (the staff rule decided here, not by the code under test). */
function expectedOf(spec: { rule: Rule; roles?: StaffRole[] }, caller: Caller): Expected {
  const isStaff = (STAFF_ROLES as readonly string[]).includes(caller);
  if (spec.rule !== 'staff') return EXPECTED[spec.rule][isStaff ? 'staff' : (caller as Column)];
  if (spec.roles === undefined)
    throw new Error('a staff rule names its roles (roles: [] for any staff role)');
  if (caller === 'anonymous') return 401;
  if (!isStaff) return 403;
  return caller === 'owner' || spec.roles.length === 0 || spec.roles.includes(caller as StaffRole)
    ? 'allowed'
    : 403;
}

/** A new archived store, for a caller allowed to delete one. */
let archivedStores = 0;
async function archivedStore(w: World): Promise<Record<string, number>> {
  const slug = `matrix-archived-${++archivedStores}`;
  const owner = await as(w, w.staff.owner);
  const created = await owner.post('/api/staff/stores', {
    ...storeForm,
    name: `Gone ${archivedStores}`,
    store_id: slug,
  });
  expect(created.status).toBe(201);
  const key = (await w.t.db.models.Store.findOne({ where: { slug } }))!.id;
  expect((await owner.post(`/api/staff/stores/${key}/archive`, { is_archived: true })).status).toBe(200);
  return { id: key };
}

describe('routes and rules', () => {
  it('would notice a route added without a rule, naming it', async () => {
    const t = await startTestApp();
    try {
      const app = createApp({ config: t.config, db: t.db, logger: t.logger });
      const extra = express.Router();
      extra.delete('/no-rule/:id', (_req, res) => {
        res.end();
      });
      app.use('/api/staff', extra);
      expect(registeredRoutes(app).filter((route) => !(route in ROUTES))).toEqual([
        'DELETE /api/staff/no-rule/:id',
      ]);
    } finally {
      await t.close();
    }
  });
});

describe.each(DIALECTS)('authorization matrix (%s)', (dialect: TestDialect) => {
  let w: World;
  let standIn: StripeStandIn;

  beforeAll(async () => {
    standIn = await new StripeStandIn().start();
    const t = await startTestApp({ dialect, env: { ...STRIPE_KEYS, STRIPE_API_URL: standIn.url } });
    await seeded(t);
    const signUp = async (email: string) => {
      const res = await new TestBrowser(t.url).post<{ user: { id: number } }>(
        '/api/auth/register',
        registration({ email }),
      );
      expect(res.status).toBe(201);
      return res.body.user.id;
    };
    const clientA = await signUp('ada@example.com');
    const clientB = await signUp('bob@example.com');
    const { user: owner } = await upsertStaffAccount(t.db, {
      ...STAFF,
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    const { StaffRole: StaffRoleRow } = staffRoleModels(t.db.sequelize);
    const memberWith = async (role: StaffRole, name: string) => {
      const { user } = await upsertStaffAccount(t.db, {
        email: `${name.toLowerCase()}@example.com`,
        password: STAFF.password,
        firstName: name,
        lastName: 'Matrix',
      });
      await StaffRoleRow.destroy({ where: { userId: user.id } });
      await StaffRoleRow.create({ userId: user.id, role, createdAt: new Date() });
      return user.id;
    };
    const staff: Record<StaffRole, number> = {
      owner: owner.id,
      store_manager: await memberWith('store_manager', 'Stella'),
      finance: await memberWith('finance', 'Fin'),
      media: await memberWith('media', 'Mei'),
    };
    const spareMember = await memberWith('media', 'Spare');

    const exhibitor = new Exhibitor(t);
    const { body } = await exhibitor.store();
    const productId = body.store.products[0]!.id;
    const cart = [{ productId, count: 1 }];
    const intent = async () => {
      const created = await exhibitor.createIntent({ cart });
      expect(created.status).toBe(201);
      return created.body;
    };
    const orderA = await intent();
    const orderB = await intent();
    const paidOrder = await intent();
    expect(
      (await exhibitor.updateIntent(paidOrder, { cart, customer: customerFor(body.store) })).status,
    ).toBe(200);
    standIn.succeed(paidOrder.intentID);
    expect((await exhibitor.confirm(paidOrder)).body.status).toBe('paid');

    const stores = await t.db.models.Store.findAll();
    const keyOf = (storeId: string) => stores.find((s) => s.slug === storeId)!.id;

    w = {
      t,
      clientA,
      clientB,
      staff,
      spareMember,
      lookupToken: '',
      acceptToken: '',
      invitation: 0,
      orderA,
      orderB,
      paidOrder: paidOrder.orderId,
      storeKey: keyOf('demo-expo'),
      archivedStoreKey: keyOf('demo-archived'),
      productId,
      sentSubmission: '',
      sentFile: '',
    };
    const sent = await uploadFor(w, clientA);
    expect((await (await as(w, clientA)).post(`/api/uploads/files/${sent.fileId}/complete`, {})).status).toBe(
      200,
    );
    expect(
      (await (await as(w, clientA)).post(`/api/uploads/submissions/${sent.submissionId}/submit`, {})).status,
    ).toBe(200);
    w.sentSubmission = sent.submissionId;
    w.sentFile = sent.fileId;
    w.uploadEvent = (
      await t.db.models.UploadEvent.create({
        ...{ name: 'Matrix Expo', nameKey: 'matrix expo', startsOn: '2099-01-01', endsOn: '2099-01-02' },
        ...{ timeZone: 'UTC', deadline: new Date('2098-12-31T00:00:00Z'), specs: {} as never },
      })
    ).id;
    const passkey = { credentialId: 'matrix', publicKey: 'AA', name: 'Matrix key', createdAt: new Date() };
    const invite = async (email: string) => {
      const res = await (
        await as(w, owner.id)
      ).post<{ invitation: { id: number } }>('/api/staff/invitations', {
        email,
        roles: ['media'],
      });
      expect(res.status).toBe(201);
      const mail = await t.db.models.MailOutbox.findOne({ where: { toAddress: email } });
      return {
        id: res.body.invitation.id,
        token: /\/staff\/invite#token=([\w-]{43})/.exec(mail!.textBody)![1]!,
      };
    };
    w.lookupToken = (await invite('look@example.com')).token;
    w.acceptToken = (await invite('accept@example.com')).token;
    w.invitation = (await invite('withdraw@example.com')).id;
    w.passkey = (await secondFactorModels(t.db.sequelize).Passkey.create({ ...passkey, userId: clientA })).id;
  });

  afterAll(async () => {
    await w?.t.close();
    await standIn?.stop();
  });

  it('has a rule for every registered route and a route for every rule', () => {
    const routes = registeredRoutes(w.t.app);
    expect(routes).toContain('GET /api/health');
    expect(
      routes.filter((route) => !(route in ROUTES)),
      'routes without a rule in ROUTES',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((route) => !routes.includes(route)),
      'rules naming no registered route',
    ).toEqual([]);
  });

  it.each(Object.entries(ROUTES))('%s', async (route, spec) => {
    const [method = 'GET', pattern = '/'] = route.split(' ');
    const upload =
      pattern.includes(':submissionId') || pattern.includes(':fileId')
        ? await uploadFor(w, w.clientA)
        : undefined;
    const pathWith = (params: Record<string, string | number>) =>
      fillPath(pattern, stringsOf(params)) + (spec.query ?? '');
    const fixedPath = spec.paramsPerCaller ? '' : pathWith(spec.params?.(w, upload!) ?? {});
    const answers = {} as Record<Caller, number>;
    for (const caller of CALLERS) {
      const path = spec.paramsPerCaller ? pathWith(await spec.paramsPerCaller(w)) : fixedPath;
      answers[caller] = await callAs(w, caller, spec, method, path, upload);
    }
    const expected = Object.fromEntries(CALLERS.map((c) => [c, expectedOf(spec, c)])) as Record<
      Caller,
      Expected
    >;
    const seen = Object.fromEntries(
      CALLERS.map((caller) => {
        const status = answers[caller];
        const want = expected[caller];
        const ok = want === 'allowed' ? status < 500 && ![401, 403, 404].includes(status) : status === want;
        return [caller, ok ? want : `${status} (expected ${want})`];
      }),
    );
    expect(seen, `${route} is ${spec.rule}`).toEqual(
      Object.fromEntries(CALLERS.map((c) => [c, expected[c]])),
    );
  });

  it("cannot reach another client's submission through the ids in a body", async () => {
    const a = await uploadFor(w, w.clientA);
    const b = await uploadFor(w, w.clientB);
    // Resuming A's submission as B starts a submission of B's own instead.
    const resumed = await (
      await as(w, w.clientB)
    ).post<{ submission: { id: string } }>('/api/uploads/submissions', {
      form_type: 'sponsor',
      event_name: 'Expo 2027',
      sponsor_company: 'Acme AV',
      resume_id: a.submissionId,
    });
    expect(resumed.status).toBe(201);
    expect(resumed.body.submission.id).not.toBe(a.submissionId);
    // Sending B's submission with A's file names a file B's submission does not have.
    const submitted = await (
      await as(w, w.clientB)
    ).post(`/api/uploads/submissions/${b.submissionId}/submit`, {
      files: [a.fileId],
    });
    expect(submitted.status).toBe(400);
    const own = await (
      await as(w, w.clientA)
    ).get<{ submission: { status: string; files: unknown[] } }>(`/api/uploads/submissions/${a.submissionId}`);
    expect(own.body.submission).toMatchObject({ status: 'open', files: [expect.anything()] });
  });
});

function stringsOf(values: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
}

/** A browser signed in as that account, on a fresh session (a route such as logout ends the one it has). */
async function as(w: World, userId: number): Promise<TestBrowser> {
  const { token } = await createSession(w.t.db, w.t.config, userId, {
    ip: null,
    userAgent: null,
    via: 'cookie',
  });
  const browser = new TestBrowser(w.t.url);
  browser.cookies.set(sessionCookieName(w.t.config), token);
  return browser;
}

async function uploadFor(w: World, userId: number): Promise<Upload> {
  const browser = await as(w, userId);
  const created = await browser.post<{ submission: { id: string } }>('/api/uploads/submissions', {
    form_type: 'creative',
    project_name: 'Keynote',
  });
  expect(created.status).toBe(201);
  const submissionId = created.body.submission.id;
  const file = await browser.post<{ file: { id: string } }>(
    `/api/uploads/submissions/${submissionId}/files`,
    {
      name: 'clip.mov',
      size: 5,
      lastModified: 1,
    },
  );
  expect(file.status).toBe(201);
  const part = await fetch(`${w.t.url}/api/uploads/files/${file.body.file.id}/parts/1`, {
    method: 'PUT',
    headers: {
      cookie: browser.cookieHeader() ?? '',
      origin: w.t.url,
      'content-type': 'application/octet-stream',
    },
    body: 'hello',
  });
  expect(part.status).toBe(200);
  return { submissionId, fileId: file.body.file.id };
}

/** One caller's request: its session, and the token or signature it holds (see the rules above). */
async function callAs(
  w: World,
  caller: Caller,
  spec: Call & { rule: Rule },
  method: string,
  path: string,
  upload: Upload | undefined,
): Promise<number> {
  const userId = { anonymous: undefined, clientA: w.clientA, clientB: w.clientB, ...w.staff }[caller];
  const headers: Record<string, string> = { accept: 'application/json' };
  if (userId !== undefined) {
    const { token } = await createSession(w.t.db, w.t.config, userId, {
      ip: null,
      userAgent: null,
      via: 'cookie',
    });
    headers.cookie = `${sessionCookieName(w.t.config)}=${token}`;
  }
  if (method !== 'GET') headers.origin = w.t.url;
  if (spec.rule === 'token') {
    if (caller === 'clientA') headers['x-order-token'] = w.orderA.token;
    if (caller === 'clientB') headers['x-order-token'] = w.orderB.token;
  }
  let body: string | Uint8Array | undefined;
  if (spec.rule === 'webhook') {
    body = stripeEvent(`evt_matrix_${caller}`, 'payment_intent.payment_failed', { id: 'pi_matrix' });
    headers['content-type'] = 'application/json';
    if (caller === 'clientA')
      headers['stripe-signature'] = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: WEBHOOK_SECRET,
      });
    if (caller === 'clientB')
      headers['stripe-signature'] = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: 'whsec_someone_else',
      });
  } else if (spec.raw) {
    body = spec.raw.bytes;
    headers['content-type'] = spec.raw.contentType;
  } else if (method !== 'GET' && method !== 'DELETE') {
    body = JSON.stringify(spec.body?.(w, upload!) ?? {});
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${w.t.url}${path}`, {
    method,
    headers,
    body: body as string | Uint8Array<ArrayBuffer>,
  });
  await res.arrayBuffer();
  return res.status;
}

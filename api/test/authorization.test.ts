import express from 'express';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { sessionCookieName } from '../src/modules/accounts/index.js';
import { createSession } from '../src/modules/accounts/sessions.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';

/**
 * Who may call what (SPEC §6 'Roles and permissions'). Every route the app registers must have a rule
 * here, and every rule must name a registered route: a new route without a rule fails this test, so
 * nobody ships an endpoint without deciding who may use it.
 *
 *   public  anyone, signed in or not
 *   user    any signed-in account (client or staff); 401 when signed out
 *   staff   staff only; 401 when signed out, 403 for a client account
 *   session any signed-in account; 403 when signed out (the spec's original calls: 'a 403 destroys the
 *           session', SPEC §4)
 */
type Rule = 'public' | 'user' | 'staff' | 'session';

const RULES: Record<string, Rule> = {
  'GET /api/health': 'public',
  'GET /api/session': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'public',
  'POST /api/auth/register': 'public',
  'POST /api/auth/forgot-password': 'public',
  'POST /api/auth/reset-password': 'public',
  'GET /api/account': 'user',
  'PUT /api/account': 'user',
  'POST /api/contact': 'public',
  'POST /api/submitContact.php': 'public',
  // The exhibitor store: anonymous by SPEC §6; an order is guarded by its own token, not by an account.
  'GET /api/stores': 'public',
  'GET /api/stores/:storeId': 'public',
  'POST /api/stores/:storeId/payment-intents': 'public',
  'GET /api/orders/:orderId': 'public',
  'PUT /api/orders/:orderId': 'public',
  'POST /api/orders/:orderId/pay': 'public',
  'POST /api/orders/:orderId/confirm': 'public',
  'POST /api/webhooks/stripe': 'public',
  // Uploads (issue 8): the protocol is for any signed-in account, on its own submissions only (another
  // user's answer 404, see uploads.test.ts); the inbox is staff-only.
  'POST /api/uploads/submissions': 'user',
  'GET /api/uploads/submissions/:submissionId': 'user',
  'POST /api/uploads/submissions/:submissionId/files': 'user',
  'POST /api/uploads/submissions/:submissionId/submit': 'user',
  'GET /api/uploads/files/:fileId': 'user',
  'PUT /api/uploads/files/:fileId/parts/:partNumber': 'user',
  'POST /api/uploads/files/:fileId/complete': 'user',
  'DELETE /api/uploads/files/:fileId': 'user',
  'GET /api/uploads/inbox': 'staff',
  'PUT /api/uploads/inbox/:submissionId/handled': 'staff',
  'GET /api/uploads/inbox/files/:fileId/download': 'staff',
  // Staff screens (issue 7): every call is staff-only.
  'GET /api/staff/stores': 'staff',
  'POST /api/staff/stores': 'staff',
  'PUT /api/staff/stores/:id': 'staff',
  'POST /api/staff/stores/:id/active': 'staff',
  'POST /api/staff/stores/:id/archive': 'staff',
  'DELETE /api/staff/stores/:id': 'staff',
  'POST /api/staff/store-images': 'staff',
  'GET /api/staff/stores/:id/prices': 'staff',
  'PUT /api/staff/stores/:id/prices': 'staff',
  'GET /api/staff/stores/:id/pull-sheet': 'staff',
  'GET /api/staff/products': 'staff',
  'POST /api/staff/products': 'staff',
  'PUT /api/staff/products/:id': 'staff',
  'POST /api/staff/products/reorder': 'staff',
  'POST /api/staff/product-images': 'staff',
  'GET /api/staff/orders': 'staff',
  'GET /api/staff/orders.csv': 'staff',
  'GET /api/staff/orders/:orderId': 'staff',
  'POST /api/staff/orders/:orderId/refunds': 'staff',
  'POST /api/staff/orders/:orderId/resend-confirmation': 'staff',
  'GET /api/staff/audit': 'staff',
  // The spec's original calls (SPEC §7, modules/legacy), on the same rules as the routes they stand for.
  'POST /api/login.php': 'public',
  'POST /api/logout.php': 'public',
  // Registration when signed out, the account update when signed in.
  'POST /api/updateUser.php': 'public',
  'POST /api/forgotPassword.php': 'public',
  'GET /api/status.php': 'public',
  'POST /api/status.php': 'public',
  'GET /api/check.php': 'session',
  'POST /api/log.php': 'public',
  'GET /api/log.php': 'staff',
  'POST /api/submitForm.php': 'session',
  'GET /api/getStoreData.php': 'public',
  'POST /api/getStoreData.php': 'public',
  // Public: active stores; staff asking with an empty payload: every store.
  'GET /api/getAllStores.php': 'public',
  'POST /api/getAllStores.php': 'public',
  'POST /api/updateStore.php': 'staff',
  'POST /api/deleteStore.php': 'staff',
  'POST /api/stripeIntent.php': 'public',
  'POST /api/sendOrderConfirmationEmail.php': 'public',
  'POST /api/charge.php': 'staff',
};

interface Layer {
  route?: { path: string | RegExp | (string | RegExp)[]; methods: Record<string, boolean> };
  rawPath?: string | RegExp | (string | RegExp)[];
  handle: { stack?: Layer[] };
}

function paths(value: string | RegExp | (string | RegExp)[] | undefined): string[] {
  if (value === undefined) return [''];
  const list = Array.isArray(value) ? value : [value];
  return list.map((p) => (p instanceof RegExp ? `regexp:${p.source}` : p));
}

function join(prefix: string, path: string): string {
  const joined = `${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/**
 * Every (method, path) of the app. Express 5 keeps its router (the `router` package, v2) on
 * `app.router`; each layer has `rawPath` (where `use()` mounted it, or the route's path), `route` for a
 * route, and `handle.stack` for a mounted router.
 */
export function registeredRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const path of paths(layer.route.path)) {
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') found.push(`${method.toUpperCase()} ${join(prefix, path)}`);
          }
        }
      } else if (Array.isArray(layer.handle.stack)) {
        for (const mount of paths(layer.rawPath)) walk(layer.handle.stack, join(prefix, mount));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return found.sort();
}

describe('authorisation of every API route', () => {
  let t: TestApp;
  let clientId: number;
  let staffId: number;
  beforeAll(async () => {
    t = await startTestApp();
    const registered = await new TestBrowser(t.url).post<{ user: { id: number } }>(
      '/api/auth/register',
      registration(),
    );
    expect(registered.status).toBe(201);
    clientId = registered.body.user.id;
    const { user } = await upsertStaffAccount(t.db, {
      email: 'grace@example.com',
      password: 'Staff passphrase 9',
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    staffId = user.id;
  });

  /** A browser holding a fresh session of that account (a route such as logout may end the last one). */
  async function signedIn(userId: number): Promise<TestBrowser> {
    const { token } = await createSession(t.db, t.config, userId, {
      ip: null,
      userAgent: null,
      via: 'cookie',
    });
    const browser = new TestBrowser(t.url);
    browser.cookies.set(sessionCookieName(t.config), token);
    return browser;
  }
  afterAll(async () => {
    await t?.close();
  });

  it('finds the routes the app registers (the walk itself works)', () => {
    const routes = registeredRoutes(t.app);
    expect(routes).toContain('GET /api/health');
    expect(routes).toContain('PUT /api/account');
  });

  it('would notice a route added without a rule', () => {
    const app = createApp({ config: t.config, db: t.db, logger: t.logger });
    const extra = express.Router();
    extra.delete('/no-rule/:id', (_req, res) => {
      res.end();
    });
    app.use('/api/staff', extra);
    expect(registeredRoutes(app).filter((route) => !(route in RULES))).toEqual([
      'DELETE /api/staff/no-rule/:id',
    ]);
  });

  it('has a rule for every registered route and a route for every rule', () => {
    const routes = registeredRoutes(t.app);
    expect(
      routes.filter((route) => !(route in RULES)),
      'routes without a rule in RULES',
    ).toEqual([]);
    expect(
      Object.keys(RULES).filter((rule) => !routes.includes(rule)),
      'rules naming no registered route',
    ).toEqual([]);
  });

  it.each(Object.entries(RULES))('%s is %s', async (route, rule) => {
    const [method = 'GET', pattern = '/'] = route.split(' ');
    // Parameters get a placeholder; the answer past the access check does not matter here.
    const path = pattern.replace(/:(\w+)/g, 'x');
    const body = method === 'GET' || method === 'HEAD' ? undefined : {};
    const anonymous = await new TestBrowser(t.url).call(method, path, body);
    const asClient = await (await signedIn(clientId)).call(method, path, body);
    const asStaff = await (await signedIn(staffId)).call(method, path, body);
    const denied = (status: number) => status === 401 || status === 403;

    if (rule === 'public') {
      expect(denied(anonymous.status), `anonymous got ${anonymous.status}`).toBe(false);
    } else {
      expect(anonymous.status).toBe(rule === 'session' ? 403 : 401);
    }
    if (rule === 'staff') {
      expect(asClient.status).toBe(403);
    } else {
      expect(denied(asClient.status), `client got ${asClient.status}`).toBe(false);
    }
    expect(denied(asStaff.status), `staff got ${asStaff.status}`).toBe(false);
  });
});

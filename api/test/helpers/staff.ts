import { expect } from 'vitest';
import type { Database } from '../../src/db/index.js';
import type { Config } from '../../src/config.js';
import { sessionCookieName } from '../../src/modules/accounts/index.js';
import { createSession } from '../../src/modules/accounts/sessions.js';
import { upsertStaffAccount } from '../../src/modules/accounts/staff-accounts.js';
import { registration, TestBrowser } from './browser.js';

/**
 * The people most tests start from: a staff member already signed in, and clients who registered through
 * the API. Staff sign in here with a session made as sign-in makes one (the sign-in itself, its limits and
 * second factors have their own tests); clients register over HTTP, as the portal does.
 */

type App = { db: Database; config: Config; url: string };

/** Grace Hopper, staff, signed in: her browser and her user id. */
export async function signedInStaff(t: App): Promise<{ staff: TestBrowser; staffId: number }> {
  const { user } = await upsertStaffAccount(t.db, {
    email: 'grace@example.com',
    password: 'Staff passphrase 9',
    firstName: 'Grace',
    lastName: 'Hopper',
  });
  const { token } = await createSession(t.db, t.config, user.id, {
    ip: null,
    userAgent: null,
    via: 'cookie',
  });
  const staff = new TestBrowser(t.url);
  staff.cookies.set(sessionCookieName(t.config), token);
  return { staff, staffId: user.id };
}

/** A client browser registered (and so signed in) with registration(overrides): Ada unless told. */
export async function registeredClient(
  t: Pick<App, 'url'>,
  overrides: Record<string, unknown> = {},
): Promise<TestBrowser> {
  const client = new TestBrowser(t.url);
  expect((await client.post('/api/auth/register', registration(overrides))).status).toBe(201);
  return client;
}

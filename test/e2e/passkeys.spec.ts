import { execFileSync } from 'node:child_process';
import { createServer, connect, type Server } from 'node:net';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import { root, startServerProcess, type ServerProcess } from '../support/server-process';
import { STAFF_PASSWORD } from '../support/staff-account';

/**
 * Passkeys and two-step sign-in through the browser (#33), against the real server. The passkey comes from
 * Chromium's virtual authenticator (DevTools' WebAuthn domain through a CDP session: the installed
 * Playwright has no browserContext.credentials). WebAuthn refuses an IP address as the relying party, so
 * this file runs its own server whose PUBLIC_URL is http://localhost:<port>, reached through a small
 * loopback relay on that port.
 */

const SHOTS = '/work/notes/shots';
const PASSWORD = 'Difference Engine 1843';

let server: ServerProcess | undefined;
let relay: Server | undefined;
let base = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

// One relay and one server for the file's tests, in order in one worker: under the config's fullyParallel
// each test ran beforeAll/afterAll for itself, starting its own relay and server (a server start is
// seconds on a loaded 2-core runner).
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  let target = 0;
  relay = createServer((socket) => {
    const upstream = connect(target, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => relay!.listen(port, '127.0.0.1', resolve));
  server = await startServerProcess({ PUBLIC_URL: base });
  target = Number(new URL(server.url).port);
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => relay?.close(resolve));
});

/** A virtual platform authenticator with resident keys and user verification (a phone's screen lock). */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

function field(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

async function register(page: Page, email: string) {
  await page.goto(`${base}/register`);
  const form = page.getByRole('form', { name: 'Registration' });
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByRole('textbox', { name: 'First name', exact: true }).fill('Ada');
  await form.getByRole('textbox', { name: 'Last name', exact: true }).fill('Lovelace');
  await form.getByRole('textbox', { name: 'Company', exact: true }).fill('Analytical Engines');
  await form.getByRole('textbox', { name: 'Phone', exact: true }).fill('(555) 123-4567');
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await form.getByRole('textbox', { name: 'Confirm password', exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Your account has been created and you are signed in.')).toBeVisible();
}

async function signOut(page: Page) {
  await page.goto(`${base}/client`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
}

async function passwordSignIn(page: Page, email: string, password: string) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function shots(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/factors-${name}-${width}.png`, fullPage: true });
    // No sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a passkey: add it by name, sign out, sign in with it by autofill, see its last use, remove it', async ({
  page,
}) => {
  await virtualAuthenticator(page);
  const email = `ada.${Date.now().toString(36)}@example.com`;
  await register(page, email);

  await page.goto(`${base}/account/security`);
  await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
  await expect(page.getByText('No passkeys yet.')).toBeVisible();
  await field(page, 'Passkey name').fill('Test laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Added the passkey "Test laptop".')).toBeVisible();
  const list = page.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByText('Test laptop')).toBeVisible();
  await expect(list.getByText(/Never used/)).toBeVisible();

  // Signed out, the sign-in form asks for passkeys through the browser's autofill (conditional
  // mediation); Chromium's virtual authenticator answers it with the one it holds, with no click.
  await signOut(page);
  await expect(page.getByText('Logged in as Ada Lovelace')).toBeVisible();

  await page.goto(`${base}/account/security`);
  await expect(list.getByText(/Last used/)).toBeVisible();
  await shots(page, 'passkeys-list');
  await page.getByRole('button', { name: 'Remove Test laptop' }).click();
  await expect(page.getByText('Removed the passkey "Test laptop".')).toBeVisible();
  await expect(page.getByText('No passkeys yet.')).toBeVisible();

  // Removed on the server: the authenticator still holds it, but it signs nobody in, by autofill (which
  // says nothing) or by the button.
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toHaveText('That passkey was not accepted. Please try again.');
});

function createStaff(email: string, first: string, last: string) {
  const args = ['create', '--email', email, '--password', STAFF_PASSWORD, '--first', first, '--last', last];
  execFileSync(process.execPath, [join(root, 'api', 'dist', 'cli', 'admin.js'), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: server!.dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    stdio: 'pipe',
  });
}

test('the owner setting: a staff member without a factor is taken to set one up at sign-in', async ({
  page,
  browser,
}) => {
  const owner = `owner.${Date.now().toString(36)}@example.com`;
  const member = `lin.${Date.now().toString(36)}@example.com`;
  createStaff(owner, 'Olive', 'Owner');
  createStaff(member, 'Lin', 'Member');
  await page.goto(`${base}/account/security`);
  await passwordSignIn(page, owner, STAFF_PASSWORD);
  const box = page.getByRole('checkbox', { name: 'Staff must use a passkey or a second factor' });
  await expect(box).not.toBeChecked();
  // The kit's checkbox draws its own box over the input: the label is what a person clicks.
  await page.getByText('Staff must use a passkey or a second factor').click();
  await expect(box).toBeChecked();
  await expect(page.getByText('will be asked to set one up at their next sign-in')).toBeVisible();

  const other = await browser.newContext();
  const memberPage = await other.newPage();
  await memberPage.goto(`${base}/client`);
  await passwordSignIn(memberPage, member, STAFF_PASSWORD);
  await expect(memberPage).toHaveURL(/\/account\/security$/);
  await expect(
    memberPage.getByText(
      'Your company requires staff to use a passkey or two-step sign-in. Set one up to continue.',
    ),
  ).toBeVisible();
  await shots(memberPage, 'forced-setup');
  // A staff page opened later (typed, bookmarked, reloaded) leads to the same set-up, not a refusal.
  await memberPage.goto(`${base}/staff/orders`);
  await expect(memberPage).toHaveURL(/\/account\/security$/);
  await expect(
    memberPage.getByText(
      'Your company requires staff to use a passkey or two-step sign-in. Set one up to continue.',
    ),
  ).toBeVisible();
  await other.close();

  // The rule goes off again (the owner's session is from before it), for the other tests of this server.
  await page.getByText('Staff must use a passkey or a second factor').click();
  await expect(page.getByText('Staff may sign in with a password alone.')).toBeVisible();
});

test('two-step sign-in: set up with a computed code, sign in with the next one, a recovery code works once', async ({
  page,
}) => {
  const email = `grace.${Date.now().toString(36)}@example.com`;
  createStaff(email, 'Grace', 'Hopper');
  await page.goto(`${base}/account/security`);
  await passwordSignIn(page, email, STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  const key = (await page.getByLabel('Setup key').textContent())!.replace(/\s+/g, '');
  await shots(page, 'totp-setup');
  const at = (steps: number) => generate({ secret: key, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
  await field(page, '6-digit code').fill(await at(0));
  await page.getByRole('button', { name: 'Turn on' }).click();
  // Shown once the server has answered: wait for the list before reading it.
  const shown = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(shown).toHaveCount(10);
  const codes = await shown.allTextContents();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('Two-step sign-in is on. 10 of 10 recovery codes left.')).toBeVisible();

  await signOut(page);
  await passwordSignIn(page, email, STAFF_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await shots(page, 'second-step');
  await field(page, 'Code').fill('000000');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('That code is not right, or it has already been used.')).toBeVisible();
  await field(page, 'Code').fill(await at(1));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Logged in as Grace Hopper')).toBeVisible();

  for (const outcome of ['signed in', 'refused']) {
    await signOut(page);
    await passwordSignIn(page, email, STAFF_PASSWORD);
    await field(page, 'Code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Continue' }).click();
    if (outcome === 'signed in') await expect(page.getByText('Logged in as Grace Hopper')).toBeVisible();
    else await expect(page.getByText('That code is not right, or it has already been used.')).toBeVisible();
  }
});

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { standInFile } from '../support/cloud-standin';
import { expect, test } from '../support/fixtures';
import { oneDriveEnv, startOneDriveStandIn, type OneDriveStandIn } from '../support/onedrive-standin';
import { root, startServerProcess, type ServerProcess } from '../support/server-process';

/**
 * OneDrive in the portal through the File Picker v8, against the real server with ONEDRIVE_* aimed at a
 * stand-in (test/support/onedrive-standin.ts) of the Microsoft identity authority (https, a certificate
 * made for this run, so the context ignores HTTPS errors), the v8 picker page and Graph: the button shown
 * when configured; one click opening the sign-in popup, then the picker popup that talks to the page over
 * a MessageChannel; the pick joining the file list; the server's import shown running and done; staff
 * finding the file with its checksum and provider. Cancel in the picker is silent; a refused sign-in shows
 * SPEC §8's text.
 */

const PASSWORD = 'Difference Engine 1843';
const STAFF_PASSWORD = 'Staff passphrase 9';
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLOUD_PICK_FAILED = 'Unable to Save File. Please Try Again or Contact For Help';

let standIn: OneDriveStandIn;
let server: ServerProcess;
const reel = standInFile('od-reel-7', 'Sponsor reel OneDrive master v3.mp4', 9 * 1024 * 1024 + 77);
const logo = standInFile('od-logo-2', 'logo.png', 40 * 1024, 'image/png');

test.beforeAll(async () => {
  standIn = await startOneDriveStandIn([reel, logo]);
  server = await startServerProcess(oneDriveEnv(standIn));
});
test.afterAll(async () => {
  await server?.stop();
  await standIn?.close();
});

async function register(baseURL: string, email: string): Promise<void> {
  const res = await fetch(`${baseURL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({
      email,
      firstname: 'Ada',
      lastname: 'Cloud',
      company: 'Analytical Engines',
      phone: '(555) 123-4567',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    }),
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}`);
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${server.url}/client#sponsor`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Logged in as Ada Cloud')).toBeVisible();
}

/** Every window the page opens, in order, with where each has been. */
function watchPopups(context: BrowserContext): { pages: Page[]; urls: Map<Page, string[]> } {
  const pages: Page[] = [];
  const urls = new Map<Page, string[]>();
  context.on('page', (p) => {
    pages.push(p);
    if (process.env.OD_DEBUG) {
      p.on('console', (m) => console.log(`[${p.url().slice(0, 60)}] ${m.type()}: ${m.text().slice(0, 400)}`));
      p.on('pageerror', (e) => console.log(`[${p.url().slice(0, 60)}] pageerror: ${e.message}`));
      p.on('request', (r) => console.log(`[req] ${r.method()} ${r.url().slice(0, 140)}`));
      p.on('framenavigated', (f) => f === p.mainFrame() && console.log(`[nav] ${f.url().slice(0, 100)}`));
      p.on('close', () => console.log(`[close] ${p.url().slice(0, 100)}`));
      p.on('requestfailed', (r) =>
        console.log(`[failed] ${r.url().slice(0, 140)} ${r.failure()?.errorText}`),
      );
    }
    urls.set(p, [p.url()]);
    p.on('framenavigated', (frame) => {
      if (frame === p.mainFrame()) urls.get(p)!.push(frame.url());
    });
  });
  return { pages, urls };
}

async function staffInbox(page: Page, staffEmail: string): Promise<void> {
  execFileSync(
    process.execPath,
    [
      join(root, 'api', 'dist', 'cli', 'admin.js'),
      'create',
      '--email',
      staffEmail,
      '--password',
      STAFF_PASSWORD,
      '--first',
      'Grace',
      '--last',
      'Hopper',
    ],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      stdio: 'pipe',
    },
  );
  await page.goto(`${server.url}/staff/uploads`);
  const login = page.getByRole('form', { name: 'Sign in' });
  await login.getByRole('textbox', { name: 'Email', exact: true }).fill(staffEmail);
  await login.getByRole('textbox', { name: 'Password', exact: true }).fill(STAFF_PASSWORD);
  await login.getByRole('button', { name: 'Sign in' }).click();
}

test('a OneDrive file picked through sign-in and the v8 picker is imported by the server and reaches staff', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const email = `onedrive.${suffix}@example.com`;
  await register(server.url, email);
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const popups = watchPopups(context);
  const page = await context.newPage();
  await signIn(page, email);

  const button = page.getByRole('button', { name: 'Add files from OneDrive' });
  await expect(button).toBeVisible();
  await button.click();

  // MSAL's sign-in goes to the authority and back to /client/cloud-callback; the picker page follows.
  await expect.poll(() => standIn.authorizeRequests.length).toBe(1);
  const signInQuery = standIn.authorizeRequests[0]!;
  expect(signInQuery.redirect_uri).toBe(`${server.url}/client/cloud-callback`);
  expect(signInQuery.scope).toContain('OneDrive.ReadOnly');
  expect(signInQuery.code_challenge_method).toBe('S256');
  await expect.poll(() => popups.pages.find((p) => p.url().startsWith(standIn.pickerUrl))).toBeTruthy();
  const picker = popups.pages.find((p) => p.url().startsWith(standIn.pickerUrl))!;
  const dialog = picker.getByRole('dialog', { name: 'OneDrive picker (stand-in)' });
  await expect(dialog.getByRole('status')).toHaveText('Your files');
  await dialog.getByRole('checkbox', { name: reel.name }).check();
  await dialog.getByRole('button', { name: 'Select' }).click();
  await expect.poll(() => picker.isClosed()).toBe(true);

  const chosen = page.getByRole('list', { name: 'Chosen files' });
  await expect(chosen).toContainText('Sponsor reel OneDrive ma');
  await expect(chosen).not.toContainText(reel.name);
  await expect(chosen).toContainText('9 MB');
  await expect(chosen).toContainText('OneDrive');
  await expect(page.getByRole('alert')).toHaveCount(0);

  standIn.delayMs = 800;
  const form = page.getByRole('form', { name: 'Sponsor Commercial form' });
  await form.getByRole('textbox', { name: 'Event name', exact: true }).fill(`OneDrive Expo ${suffix}`);
  await form.getByRole('textbox', { name: 'Sponsor company', exact: true }).fill('Acme AV');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Thank you! Your files were received.')).toBeVisible();
  const row = page.getByRole('region', { name: 'Files from cloud accounts' }).getByTestId('import-row');
  await expect(row).toContainText('Sponsor reel OneDrive ma');
  await expect(row).toContainText('from OneDrive');
  await expect(row).toContainText(/Waiting|Copying/);
  standIn.delayMs = 0;
  await expect(row).toContainText('Done', { timeout: 30_000 });
  await expect(row.getByRole('progressbar')).toHaveAttribute('value', '100');
  expect(standIn.wrongTokens).toBe(0);
  expect(standIn.leakedTokens).toBe(0);
  await context.close();

  const staff = await browser.newPage();
  await staffInbox(staff, `onedrive.staff.${suffix}@example.com`);
  const file = staff.getByTestId('inbox-file').filter({ hasText: reel.name });
  await expect(file).toContainText(reel.sha256);
  await expect(file).toContainText('Complete (from OneDrive)');
  await staff.close();
});

test('a refused sign-in shows SPEC §8’s text, Cancel in the picker shows nothing, and the next click needs no sign-in', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const email = `onedrive.cancel.${suffix}@example.com`;
  await register(server.url, email);
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const popups = watchPopups(context);
  const page = await context.newPage();
  await signIn(page, email);
  const button = page.getByRole('button', { name: 'Add files from OneDrive' });
  const before = standIn.authorizeRequests.length;

  // The authority answers error=access_denied: the form says so, the picker window is gone.
  standIn.signInError = true;
  await button.click();
  await expect(page.getByRole('alert')).toHaveText(CLOUD_PICK_FAILED);
  expect(standIn.authorizeRequests.length).toBe(before + 1);
  await expect.poll(() => context.pages().length).toBe(1);
  standIn.signInError = false;

  // Signed in this time; the picker opens and is cancelled: no message, nothing added.
  await button.click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect
    .poll(() => popups.pages.find((p) => !p.isClosed() && p.url().startsWith(standIn.pickerUrl)))
    .toBeTruthy();
  const picker = popups.pages.find((p) => !p.isClosed() && p.url().startsWith(standIn.pickerUrl))!;
  const dialog = picker.getByRole('dialog', { name: 'OneDrive picker (stand-in)' });
  await expect(dialog.getByRole('status')).toHaveText('Your files');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => picker.isClosed()).toBe(true);
  await expect(button).toBeEnabled();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Chosen files' })).toHaveCount(0);
  expect(standIn.authorizeRequests.length).toBe(before + 2);

  // Again: MSAL has the account, so no sign-in page; straight to the picker, and the pick is listed.
  const pickerLoads = standIn.pickerLoads;
  await button.click();
  await expect.poll(() => standIn.pickerLoads).toBe(pickerLoads + 1);
  await expect
    .poll(() => popups.pages.find((p) => !p.isClosed() && p.url().startsWith(standIn.pickerUrl)))
    .toBeTruthy();
  const again = popups.pages.find((p) => !p.isClosed() && p.url().startsWith(standIn.pickerUrl))!;
  const dialogAgain = again.getByRole('dialog', { name: 'OneDrive picker (stand-in)' });
  await dialogAgain.getByRole('checkbox', { name: logo.name }).check();
  await dialogAgain.getByRole('button', { name: 'Select' }).click();
  await expect(page.getByRole('list', { name: 'Chosen files' })).toContainText('logo.png');
  await expect(page.getByRole('list', { name: 'Chosen files' })).toContainText('OneDrive');
  expect(standIn.authorizeRequests.length).toBe(before + 2);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await context.close();
});

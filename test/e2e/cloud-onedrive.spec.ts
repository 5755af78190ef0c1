import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { BrowserContext, FrameLocator, Locator, Page } from '@playwright/test';
import config from '../playwright.config';
import { standInFile } from '../support/cloud-standin';
import { registerClient, signInClient } from '../support/cloud-client';
import { expect, test } from '../support/fixtures';
import {
  ONEDRIVE_DRIVE,
  oneDriveEnv,
  startOneDriveStandIn,
  type OneDriveStandIn,
} from '../support/onedrive-standin';
import { root, startServerProcess, type ServerProcess } from '../support/server-process';

/**
 * OneDrive in the portal through the File Picker v8, against the real server with ONEDRIVE_* aimed at a
 * stand-in (test/support/onedrive-standin.ts) of the Microsoft identity authority (https, a certificate
 * made for this run, so the context ignores HTTPS errors), the v8 picker page and Graph: the button shown
 * when configured; one click opening only MSAL's sign-in popup, then the picker in a frame inside a modal
 * dialog in the page, talking to the page over a MessageChannel; the pick joining the file list; the
 * server's import shown running and done; staff finding the file with its checksum and provider. Cancel
 * (the picker's, Escape, the dialog's Close) is silent; a refused sign-in shows SPEC §8's text; a signed-in
 * user opens no window at all.
 *
 * Chromium's popup blocker is on here (Playwright turns it off by default): a click may open one window,
 * as in a real browser.
 */
test.use({
  launchOptions: {
    ...config.use?.launchOptions,
    ignoreDefaultArgs: ['--disable-popup-blocking'],
  },
});

const STAFF_PASSWORD = 'Staff passphrase 9';
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLOUD_PICK_FAILED = 'Unable to Save File. Please Try Again or Contact For Help';

let standIn: OneDriveStandIn;
let server: ServerProcess;
const reel = standInFile('od-reel-7', 'Sponsor reel OneDrive master v3.mp4', 9 * 1024 * 1024 + 77);
const logo = standInFile('od-logo-2', 'logo.png', 40 * 1024, 'image/png');

// One stand-in and one server for the file's tests, in order in one worker: under the config's fullyParallel
// each test ran beforeAll/afterAll for itself, starting its own stand-in and server (a server start is
// seconds on a loaded 2-core runner).
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  standIn = await startOneDriveStandIn([reel, logo]);
  server = await startServerProcess(oneDriveEnv(standIn));
});
test.afterAll(async () => {
  await server?.stop();
  await standIn?.close();
});

/** Every window the test's page opens, in order, with where each has been. */
function watchPopups(context: BrowserContext): { pages: Page[]; urls: Map<Page, string[]> } {
  const pages: Page[] = [];
  const urls = new Map<Page, string[]>();
  let first: Page | null = null;
  context.on('page', (p) => {
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
    // The first page is the test's own; the others are windows it opened.
    if (!first) {
      first = p;
      return;
    }
    pages.push(p);
    urls.set(p, [p.url()]);
    p.on('framenavigated', (frame) => {
      if (frame === p.mainFrame()) urls.get(p)!.push(frame.url());
    });
  });
  return { pages, urls };
}

/** The picker dialog in the page, and the v8 picker page in its frame. */
function pickerDialog(page: Page): { dialog: Locator; picker: FrameLocator } {
  const dialog = page.getByRole('dialog', { name: 'Choose files from OneDrive' });
  return { dialog, picker: dialog.locator('iframe[title="OneDrive file picker"]').contentFrame() };
}

/** The dialog's focus, size and place: inside it, and within the window. */
async function expectFitsAndHoldsFocus(page: Page, dialog: Locator): Promise<void> {
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  const box = (await dialog.boundingBox())!;
  const view = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(view.width);
  expect(box.y + box.height).toBeLessThanOrEqual(view.height);
  expect(box.width).toBeGreaterThanOrEqual(Math.min(view.width - 16, 1080) - 1);
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
  await login.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('the popup blocker is on: a window opened without a click is refused', async ({ browser }) => {
  // A page of its own whose script runs as it loads (setContent and evaluate would run with a gesture).
  const page = await browser.newPage();
  await page.route('http://popup-blocker.test/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<script>window.blocked = window.open('about:blank', 'x') === null;</script>`,
    }),
  );
  await page.goto('http://popup-blocker.test/');
  expect(await page.evaluate(() => (window as unknown as { blocked: boolean }).blocked)).toBe(true);
  expect(page.context().pages()).toHaveLength(1);
  await page.close();
});

test('a first OneDrive pick, with no earlier sign-in, opens only the sign-in popup, then the picker dialog, and the file reaches staff', async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const email = `onedrive.${suffix}@example.com`;
  await registerClient(server.url, email);
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const popups = watchPopups(context);
  const page = await context.newPage();
  await signInClient(page, server.url, email);

  const button = page.getByRole('button', { name: 'Add files from OneDrive' });
  await expect(button).toBeVisible();
  await button.click();

  // MSAL's sign-in goes to the authority and back to /client/cloud-callback, in the one popup.
  await expect.poll(() => standIn.authorizeRequests.length).toBe(1);
  const signInQuery = standIn.authorizeRequests[0]!;
  expect(signInQuery.redirect_uri).toBe(`${server.url}/client/cloud-callback`);
  expect(signInQuery.scope).toContain('OneDrive.ReadOnly');
  expect(signInQuery.code_challenge_method).toBe('S256');
  expect(popups.pages).toHaveLength(1);
  await expect.poll(() => popups.pages[0]!.isClosed()).toBe(true);

  // The picker, in a frame inside a modal dialog in the page: no second window.
  const { dialog, picker } = pickerDialog(page);
  await expect(dialog).toBeVisible();
  await expect(picker.getByRole('status')).toHaveText('Your files');
  expect(popups.pages).toHaveLength(1);
  expect(context.pages()).toEqual([page]);
  await expectFitsAndHoldsFocus(page, dialog);
  await page.screenshot({ path: testInfo.outputPath('onedrive-picker-1280.png') });
  await page.setViewportSize({ width: 375, height: 667 });
  await expectFitsAndHoldsFocus(page, dialog);
  await expect(picker.getByRole('checkbox', { name: reel.name })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('onedrive-picker-375.png') });
  await page.setViewportSize({ width: 1280, height: 720 });

  // A personal OneDrive's ids: the item id holds its drive id and a '!', so the two travel apart.
  const importPosted = page.waitForRequest(
    (request) =>
      request.method() === 'POST' && /\/api\/uploads\/submissions\/[^/]+\/imports$/.test(request.url()),
  );
  await picker.getByRole('checkbox', { name: reel.name }).check();
  await picker.getByRole('button', { name: 'Select' }).click();
  await expect(dialog).toHaveCount(0);

  const chosen = page.getByRole('list', { name: 'Chosen files' });
  await expect(chosen).toContainText('Sponsor reel OneDrive ma');
  await expect(chosen).not.toContainText(reel.name);
  await expect(chosen).toContainText('9 MB');
  await expect(chosen).toContainText('OneDrive');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(popups.pages).toHaveLength(1);

  standIn.delayMs = 800;
  const form = page.getByRole('form', { name: 'Sponsor Commercial form' });
  // The Event name suggests the open upload events (issue #30); Tab closes its list.
  await form.getByRole('combobox', { name: /^Event name/ }).fill(`OneDrive Expo ${suffix}`);
  await form.getByRole('combobox', { name: /^Event name/ }).press('Tab');
  await form.getByRole('textbox', { name: 'Sponsor company', exact: true }).fill('Acme AV');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Thank you! Your files were received.')).toBeVisible();
  expect((await importPosted).postDataJSON()).toMatchObject({
    provider: 'onedrive',
    driveId: ONEDRIVE_DRIVE,
    fileId: `${ONEDRIVE_DRIVE.toUpperCase()}!54927`,
  });
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

test('a refused sign-in shows SPEC §8’s text; Cancel, Escape and Close show nothing; a signed-in pick opens no window', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const email = `onedrive.cancel.${suffix}@example.com`;
  await registerClient(server.url, email);
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const popups = watchPopups(context);
  const page = await context.newPage();
  await signInClient(page, server.url, email);
  const button = page.getByRole('button', { name: 'Add files from OneDrive' });
  const { dialog, picker } = pickerDialog(page);
  const before = standIn.authorizeRequests.length;

  // The authority answers error=access_denied: the form says so, no picker, the sign-in window is gone.
  standIn.signInError = true;
  await button.click();
  await expect(page.getByRole('alert')).toHaveText(CLOUD_PICK_FAILED);
  expect(standIn.authorizeRequests.length).toBe(before + 1);
  await expect.poll(() => context.pages().length).toBe(1);
  await expect(dialog).toHaveCount(0);
  expect(popups.pages).toHaveLength(1);
  standIn.signInError = false;

  // Signed in this time (the one popup); the picker opens in the dialog and is cancelled: no message.
  await button.click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(picker.getByRole('status')).toHaveText('Your files');
  expect(popups.pages).toHaveLength(2);
  expect(standIn.authorizeRequests.length).toBe(before + 2);
  await picker.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeEnabled();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Chosen files' })).toHaveCount(0);

  // Signed in now: each click goes straight to the picker, with no window. Escape cancels, silently.
  await button.click();
  await expect(picker.getByRole('status')).toHaveText('Your files');
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeEnabled();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // The dialog's Close button: the same.
  await button.click();
  await expect(picker.getByRole('status')).toHaveText('Your files');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeEnabled();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Chosen files' })).toHaveCount(0);

  // And a pick: listed, with no sign-in and no window.
  const pickerLoads = standIn.pickerLoads;
  await button.click();
  await expect.poll(() => standIn.pickerLoads).toBe(pickerLoads + 1);
  await picker.getByRole('checkbox', { name: logo.name }).check();
  await picker.getByRole('button', { name: 'Select' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Chosen files' })).toContainText('logo.png');
  await expect(page.getByRole('list', { name: 'Chosen files' })).toContainText('OneDrive');
  expect(standIn.authorizeRequests.length).toBe(before + 2);
  expect(popups.pages).toHaveLength(2);
  expect(context.pages()).toEqual([page]);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await context.close();
});

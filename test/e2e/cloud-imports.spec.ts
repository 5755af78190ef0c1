import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { cloudEnv, standInFile, startCloudStandIn, type CloudStandIn } from '../support/cloud-standin';
import { registerClient, signInClient } from '../support/cloud-client';
import { expect, test } from '../support/fixtures';
import { root, startServerProcess, type ServerProcess } from '../support/server-process';

/**
 * Files from cloud accounts in the portal, against the real server with its provider settings aimed at
 * a stand-in (test/support/cloud-standin.ts): the pickers' buttons only when configured, a pick joining
 * the file list, the server's import shown with its progress, the page closed and /client opened again
 * while it runs, and staff finding the file with its checksum. A failing sign-in shows SPEC §8's text; a
 * cancel shows nothing.
 */

const STAFF_PASSWORD = 'Staff passphrase 9';
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLOUD_PICK_FAILED = 'Unable to Save File. Please Try Again or Contact For Help';
const SHOTS = process.env.E2E_SHOTS_DIR;
const PORTAL_SHOTS = SHOTS ?? join(tmpdir(), 'avp-e2e-shots');

let standIn: CloudStandIn;
let server: ServerProcess;
const keynote = standInFile('drive-keynote', 'Keynote opening reel final cut.mov', 44 * 1024 * 1024 + 321);
const promo = standInFile('drive-promo', 'promo.mp4', 3 * 1024 * 1024);
const booth = standInFile('box-42', 'booth loop.mp4', 7 * 1024 * 1024);

// One stand-in and one server for the file's tests, in order in one worker: under the config's fullyParallel
// each test ran beforeAll/afterAll for itself, starting its own stand-in and server (a server start is
// seconds on a loaded 2-core runner).
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  standIn = await startCloudStandIn([keynote, promo, booth]);
  server = await startServerProcess(cloudEnv(standIn));
});
test.afterAll(async () => {
  await server?.stop();
  await standIn?.close();
});

async function fillSponsor(page: Page, event: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Sponsor Commercial form' });
  // The Event name suggests the open upload events (issue #30); Tab closes its list.
  await form.getByRole('combobox', { name: /^Event name/ }).fill(event);
  await form.getByRole('combobox', { name: /^Event name/ }).press('Tab');
  await form.getByRole('textbox', { name: 'Sponsor company', exact: true }).fill('Acme AV');
}

test('no cloud buttons on a server without provider keys', async ({ page, baseURL }) => {
  const email = `nocloud.${suffix}@example.com`;
  await registerClient(baseURL!, email);
  await signInClient(page, baseURL!, email);
  await expect(page.getByRole('button', { name: 'Choose files' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Add files from/ })).toHaveCount(0);
});

test('a Drive file is imported by the server, goes on while the page is closed, and reaches staff with its checksum', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const email = `cloud.${suffix}@example.com`;
  await registerClient(server.url, email);
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInClient(page, server.url, email);

  // Both configured providers have a button; a failed sign-in shows the spec's text, a cancel nothing
  // (the sign-in is kept for the token's lifetime, so the failure comes first).
  await expect(page.getByRole('button', { name: 'Add files from Google Drive' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add files from Dropbox' })).toBeVisible();
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `cloud-buttons-${width}.png`), fullPage: true });
    }
  }
  await page.evaluate(() => {
    (window as unknown as { __cloudStandIn: object }).__cloudStandIn = { tokenError: true };
  });
  await page.getByRole('button', { name: 'Add files from Google Drive' }).click();
  await expect(page.getByRole('alert')).toHaveText(CLOUD_PICK_FAILED);
  await page.evaluate(() => {
    (window as unknown as { __cloudStandIn: object }).__cloudStandIn = {};
  });

  await page.getByRole('button', { name: 'Add files from Google Drive' }).click();
  const picker = page.getByRole('dialog', { name: 'Google Picker (stand-in)' });
  await picker.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Chosen files' })).toHaveCount(0);

  // The pick joins the list, name cut at 24 characters, with its size and provider.
  await page.getByRole('button', { name: 'Add files from Google Drive' }).click();
  await picker.getByRole('checkbox', { name: keynote.name }).check();
  await picker.getByRole('button', { name: 'Select' }).click();
  const chosen = page.getByRole('list', { name: 'Chosen files' });
  await expect(chosen).toContainText('Keynote opening reel fin');
  await expect(chosen).toContainText('44 MB');
  await expect(chosen).toContainText('Google Drive');
  await expect(page.getByRole('alert')).toHaveCount(0);
  if (SHOTS) await page.screenshot({ path: join(SHOTS, 'cloud-picked-1280.png'), fullPage: true });

  // Sent: the server copies it slowly enough to watch.
  standIn.delayMs = 1_500;
  await fillSponsor(page, `Cloud Expo ${suffix}`);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Thank you! Your files were received.')).toBeVisible();
  const panel = page.getByRole('region', { name: 'Files from cloud accounts' });
  await expect(panel.getByTestId('import-row')).toContainText(/Waiting|Copying/);
  if (SHOTS) {
    await page.setViewportSize({ width: 375, height: 900 });
    await panel.screenshot({ path: join(SHOTS, 'cloud-imports-375.png') });
  }
  await page.close();

  // Back later: /client shows it still going, then done.
  const again = await context.newPage();
  await again.goto(`${server.url}/client`);
  const row = again.getByRole('region', { name: 'Files from cloud accounts' }).getByTestId('import-row');
  await expect(row).toContainText('Keynote opening reel fin');
  await expect(row).toContainText('from Google Drive');
  await expect(row).toContainText(/Waiting|Copying/);
  standIn.delayMs = 0;
  await expect(row).toContainText('Done', { timeout: 30_000 });
  await expect(row.getByRole('progressbar')).toHaveAttribute('value', '100');
  await context.close();

  // Staff find it with the checksum of the provider's bytes.
  const staffEmail = `cloud.staff.${suffix}@example.com`;
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
  const staff = await browser.newPage();
  await staff.goto(`${server.url}/staff/uploads`);
  const login = staff.getByRole('form', { name: 'Sign in' });
  await login.getByRole('textbox', { name: 'Email', exact: true }).fill(staffEmail);
  await login.getByRole('textbox', { name: 'Password', exact: true }).fill(STAFF_PASSWORD);
  await login.getByRole('button', { name: 'Sign in', exact: true }).click();
  const file = staff.getByTestId('inbox-file').filter({ hasText: keynote.name });
  await expect(file).toContainText(keynote.sha256);
  await expect(file).toContainText('Complete (from Google Drive)');
  await staff.close();
});

test('Box (after its sign-in popup) and Dropbox picks travel with a local file in one submission', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const email = `cloud.mixed.${suffix}@example.com`;
  await registerClient(server.url, email);
  const page = await browser.newPage();
  await signInClient(page, server.url, email, '#creative');
  const form = page.getByRole('form', { name: 'Creative Asset form' });
  await form.getByRole('textbox', { name: 'Project name', exact: true }).fill(`Mixed ${suffix}`);

  // Box: the sign-in popup comes back with a code the server exchanges; the picker opens in a dialog.
  await page.getByRole('button', { name: 'Add files from Box' }).click();
  const boxDialog = page.getByRole('dialog', { name: 'Choose files from Box' });
  await boxDialog.getByRole('checkbox', { name: booth.name }).check();
  await boxDialog.getByRole('button', { name: 'Choose' }).click();
  await expect(boxDialog).toHaveCount(0);

  await page.getByRole('button', { name: 'Add files from Dropbox' }).click();
  const chooser = page.getByRole('dialog', { name: 'Dropbox Chooser (stand-in)' });
  await chooser.getByRole('checkbox', { name: promo.name }).check();
  await chooser.getByRole('button', { name: 'Select' }).click();

  await page.getByTestId('upload-file-input').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('run of show\n'),
  });
  const chosen = page.getByRole('list', { name: 'Chosen files' });
  await expect(chosen.getByRole('listitem')).toHaveCount(3);
  await expect(chosen).toContainText('Box');
  await expect(chosen).toContainText('Dropbox');

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Thank you! Your files were received.')).toBeVisible({ timeout: 30_000 });
  const rows = page.getByRole('region', { name: 'Files from cloud accounts' }).getByTestId('import-row');
  await expect(rows.filter({ hasText: booth.name })).toContainText('Done', { timeout: 30_000 });
  await expect(rows.filter({ hasText: promo.name })).toContainText('Done', { timeout: 30_000 });
  await expect(rows.filter({ hasText: booth.name })).toContainText('from Box');
  await page.close();
});

for (const width of [375, 1280]) {
  test(`at ${width} px, a provider whose script cannot be reached is named as unreachable, and its script loads only on the click`, async ({
    browser,
  }) => {
    const email = `cloud.offline.${width}.${suffix}@example.com`;
    await registerClient(server.url, email);
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.url().startsWith(standIn.url) && /\.js$/.test(new URL(req.url()).pathname))
        scripts.push(req.url());
    });
    // The provider out of reach: its scripts' connections refused (the stand-in stays up for the rest).
    let reachable = false;
    await page.route(`${standIn.url}/google/**`, (route) =>
      reachable ? route.fallback() : route.abort('connectionrefused'),
    );
    await signInClient(page, server.url, email, '#sponsor');
    const button = page.getByRole('button', { name: 'Add files from Google Drive' });
    await expect(button).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add files from Dropbox' })).toBeVisible();
    // The form opened: no provider's script asked for yet.
    expect(scripts).toEqual([]);

    await button.click();
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText(
      'Google Drive could not be reached. Check your connection, then try again.',
    );
    await expect(page.getByText(CLOUD_PICK_FAILED)).toHaveCount(0);
    await expect(button).toBeEnabled();
    await alert.scrollIntoViewIfNeeded();
    const box = (await alert.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await page.screenshot({ path: join(PORTAL_SHOTS, `portal-provider-unreachable-${width}.png`) });
    // Only Google's scripts were asked for, on the click.
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((url) => url.startsWith(`${standIn.url}/google/`))).toBe(true);

    // Back in reach: the next click loads it and opens the picker.
    reachable = true;
    await button.click();
    const picker = page.getByRole('dialog', { name: 'Google Picker (stand-in)' });
    await expect(picker).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await picker.getByRole('button', { name: 'Cancel' }).click();
    await page.close();
  });
}

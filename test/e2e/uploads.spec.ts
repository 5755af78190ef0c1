import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';

/**
 * The client upload portal and the staff inbox (issue 8) against the real server: the hash states with
 * back and forward, every validation message of the three forms, and a sponsor commercial with two
 * files (one of 50 MB) sent through the shared upload client and found in the staff inbox with
 * matching checksums. One client registration for the whole file (the server limits registrations).
 */

const root = resolve(import.meta.dirname, '..', '..');
const PASSWORD = 'Difference Engine 1843';
const STAFF_PASSWORD = 'Staff passphrase 9';
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `uploader.${suffix}@example.com`;
const STAFF_EMAIL = `inbox.${suffix}@example.com`;

function text(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('textbox', { name, exact: true });
}

let registered: Promise<void> | undefined;
/** Registers the client account once per file (through the API: the registration page has its own spec). */
function ensureClient(baseURL: string): Promise<void> {
  registered ??= fetch(`${baseURL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({
      email: CLIENT_EMAIL,
      firstname: 'Ada',
      lastname: 'Uploader',
      company: 'Analytical Engines',
      phone: '(555) 123-4567',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    }),
  }).then((res) => {
    if (res.status !== 201) throw new Error(`registration answered ${res.status}`);
  });
  return registered;
}

async function signInAtClient(page: Page, baseURL: string, hash = '') {
  await ensureClient(baseURL);
  await page.goto(`/client${hash}`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await text(form, 'Email').fill(CLIENT_EMAIL);
  await text(form, 'Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Logged in as Ada Uploader')).toBeVisible();
}

function createStaff(): void {
  execFileSync(
    process.execPath,
    [
      join(root, 'api', 'dist', 'cli', 'admin.js'),
      'create',
      '--email',
      STAFF_EMAIL,
      '--password',
      STAFF_PASSWORD,
      '--first',
      'Grace',
      '--last',
      'Inbox',
    ],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      stdio: 'pipe',
    },
  );
}

test.describe('client upload portal', () => {
  test('moves between the hash states with back and forward, and shows every validation message', async ({
    page,
    baseURL,
  }) => {
    await signInAtClient(page, baseURL!);
    await expect(page.getByRole('heading', { name: 'What are you uploading?' })).toBeVisible();

    await page.getByRole('button', { name: 'Event Asset' }).click();
    await expect(page).toHaveURL(/\/client#eventForm$/);
    await page.getByRole('button', { name: 'Event Asset' }).click();
    await expect(page).toHaveURL(/\/client#event$/);
    const event = page.getByRole('form', { name: 'Event Asset form' });
    await event.getByRole('button', { name: 'Submit' }).click();
    for (const message of [
      'Please enter an event name.',
      'Please choose a date.',
      'Please choose an hour.',
      'Please choose the minutes.',
      'Please choose AM or PM.',
      'Please enter a speaker name.',
      'Please Add a File.',
    ]) {
      await expect(event.getByText(message, { exact: true })).toBeVisible();
    }

    await page.goBack();
    await expect(page).toHaveURL(/\/client#eventForm$/);
    await expect(page.getByRole('button', { name: 'Sponsor Commercial' })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'What are you uploading?' })).toBeVisible();
    await page.goForward();
    await expect(page).toHaveURL(/\/client#eventForm$/);
    await page.goForward();
    await expect(page).toHaveURL(/\/client#event$/);
    await expect(page.getByRole('form', { name: 'Event Asset form' })).toBeVisible();
    await page.goBack();

    await page.getByRole('button', { name: 'Sponsor Commercial' }).click();
    await expect(page).toHaveURL(/\/client#sponsor$/);
    const sponsor = page.getByRole('form', { name: 'Sponsor Commercial form' });
    await sponsor.getByRole('button', { name: 'Submit' }).click();
    for (const message of [
      'Please enter an event name.',
      'Please enter a sponsor company.',
      'Please Add a File.',
    ]) {
      await expect(sponsor.getByText(message, { exact: true })).toBeVisible();
    }

    await page.goBack();
    await page.goBack();
    await page.getByRole('button', { name: 'Creative Asset' }).click();
    await expect(page).toHaveURL(/\/client#creative$/);
    const creative = page.getByRole('form', { name: 'Creative Asset form' });
    await creative.getByRole('button', { name: 'Submit' }).click();
    await expect(creative.getByText('Please enter a project name.', { exact: true })).toBeVisible();
    await expect(creative.getByText('Please Add a File.', { exact: true })).toBeVisible();
    // A chosen file clears the file message.
    await creative
      .getByTestId('upload-file-input')
      .setInputFiles({
        name: 'a-very-long-file-name-for-the-list.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('x'),
      });
    await expect(creative.getByText('a-very-long-file-name-fo…', { exact: true })).toBeVisible();
    await expect(creative.getByText('Please Add a File.', { exact: true })).toHaveCount(0);
  });

  test('sends a sponsor commercial with two files (one of 50 MB); staff find both with matching checksums', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'avp-e2e-upload-'));
    try {
      const big = join(dir, 'sponsor-commercial-final-cut.mp4');
      const bigBytes = randomBytes(50 * 1024 * 1024);
      writeFileSync(big, bigBytes);
      const small = join(dir, 'logo.png');
      const smallBytes = randomBytes(12_345);
      writeFileSync(small, smallBytes);
      const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

      await signInAtClient(page, baseURL!, '#sponsor');
      const form = page.getByRole('form', { name: 'Sponsor Commercial form' });
      await text(form, 'Event name').fill('Expo 2027');
      await text(form, 'Sponsor company').fill('Acme AV');
      await form.getByTestId('upload-file-input').setInputFiles([big, small]);
      await expect(form.getByRole('list', { name: 'Chosen files' }).getByRole('listitem')).toHaveCount(2);
      await form.getByRole('button', { name: 'Submit' }).click();

      await expect(page.getByText('Thank you! Your files were received.')).toBeVisible({ timeout: 90_000 });
      // A clean form after success.
      const clean = page.getByRole('form', { name: 'Sponsor Commercial form' });
      await expect(text(clean, 'Event name')).toHaveValue('');
      await expect(text(clean, 'Sponsor company')).toHaveValue('');
      await expect(clean.getByRole('list', { name: 'Chosen files' })).toHaveCount(0);

      createStaff();
      const staffContext = await browser.newContext({ baseURL });
      const staff = await staffContext.newPage();
      await staff.goto('/staff/uploads');
      const login = staff.getByRole('form', { name: 'Staff sign in' });
      await text(login, 'Email').fill(STAFF_EMAIL);
      await text(login, 'Password').fill(STAFF_PASSWORD);
      await login.getByRole('button', { name: 'Sign in' }).click();
      const submission = staff.getByRole('article', { name: 'Submission from Ada Uploader' }).first();
      await expect(submission).toBeVisible();
      await expect(submission.getByText('Acme AV')).toBeVisible();
      const rows = submission.getByTestId('inbox-file');
      await expect(rows).toHaveCount(2);
      await expect(rows.filter({ hasText: 'sponsor-commercial-final-cut.mp4' })).toContainText(sha(bigBytes));
      await expect(rows.filter({ hasText: 'logo.png' })).toContainText(sha(smallBytes));
      await expect(rows.filter({ hasText: 'logo.png' })).toContainText('Complete');
      await submission.getByRole('button', { name: 'Mark handled' }).click();
      await expect(submission.getByRole('button', { name: 'Mark not handled' })).toBeVisible();
      await staffContext.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

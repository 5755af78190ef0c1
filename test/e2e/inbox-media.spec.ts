import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { request, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createStaff, STAFF_PASSWORD } from '../support/staff-account';

/**
 * The staff inbox's media facts (issue #30) against the real server: a sponsor commercial sent for an
 * event with a warning spec, with one file that meets it, one that misses it twice and one that cannot be
 * read. Staff see each file's facts as the server read them, a 'Meets spec' badge, a '2 issues' button
 * that shows the sentences on demand (by keyboard too), and the unreadable file's muted line; at 375 px
 * nothing widens the page. Screenshots at 1280 and 375 px (E2E_SHOTS_DIR, default /work/notes/shots).
 */

const root = resolve(import.meta.dirname, '..', '..');
const MEDIA = join(root, 'test', 'fixtures', 'media');
const FILES = ['h264-1920x1080-29.97-aac-faststart.mp4', 'h264-1280x720-25-aac.mp4', 'not-a-video.mp4'];
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `inbox.${suffix}@example.com`;
const STAFF_EMAIL = `inbox-staff.${suffix}@example.com`;
const PASSWORD = 'Difference Engine 1843';
const EVENT = `Inbox Expo ${suffix}`;
const COMPANY = `Badge Co ${suffix}`;
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/work/notes/shots';
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

async function api(baseURL: string): Promise<APIRequestContext> {
  return request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
}

/** Staff define the event; the client sends the three files through the upload protocol. */
async function sendSubmission(baseURL: string): Promise<void> {
  createStaff(STAFF_EMAIL, 'Inbox');
  const staff = await api(baseURL);
  expect(
    (
      await staff.post('/api/auth/login', { data: { email: STAFF_EMAIL, password: STAFF_PASSWORD } })
    ).status(),
  ).toBe(200);
  const made = await staff.post('/api/staff/upload-events', {
    data: {
      name: EVENT,
      startsOn: `${NEXT_YEAR}-05-01`,
      endsOn: `${NEXT_YEAR}-05-02`,
      timeZone: 'Europe/London',
      deadline: `${NEXT_YEAR}-04-20T17:00`,
      specs: {
        sponsor: {
          videoCodecs: ['H.264'],
          resolutions: [{ width: 1920, height: 1080 }],
          frameRates: [29.97],
          onMismatch: 'warn',
        },
      },
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  await staff.dispose();

  const client = await api(baseURL);
  const registered = await client.post('/api/auth/register', {
    data: {
      email: CLIENT_EMAIL,
      firstname: 'Ada',
      lastname: 'Inbox',
      company: 'Analytical Engines',
      phone: '(555) 123-4567',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    },
  });
  expect(registered.status()).toBe(201);
  const created = await client.post('/api/uploads/submissions', {
    data: { form_type: 'sponsor', event_name: EVENT, sponsor_company: COMPANY },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { submission } = (await created.json()) as { submission: { id: string } };
  for (const name of FILES) {
    const bytes = readFileSync(join(MEDIA, name));
    const file = await client.post(`/api/uploads/submissions/${submission.id}/files`, {
      data: { name, size: bytes.length, lastModified: 1, type: 'video/mp4' },
    });
    expect(file.status(), await file.text()).toBe(201);
    const { file: info } = (await file.json()) as { file: { id: string } };
    const part = await client.put(`/api/uploads/files/${info.id}/parts/1`, {
      data: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(part.status()).toBe(200);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect((await client.post(`/api/uploads/files/${info.id}/complete`, { data: { sha256 } })).status()).toBe(
      200,
    );
  }
  // Sending waits (bounded) for the server's readings, so the inbox has them.
  expect((await client.post(`/api/uploads/submissions/${submission.id}/submit`, { data: {} })).status()).toBe(
    200,
  );
  await client.dispose();
}

async function signInToInbox(page: Page): Promise<void> {
  await page.goto('/staff/uploads');
  const login = page.getByRole('form', { name: 'Staff sign in' });
  await login.getByRole('textbox', { name: 'Email', exact: true }).fill(STAFF_EMAIL);
  await login.getByRole('textbox', { name: 'Password', exact: true }).fill(STAFF_PASSWORD);
  await login.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('staff see each file’s facts and its spec badge; the issues open on demand; 375 px does not overflow', async ({
  page,
  baseURL,
}) => {
  await sendSubmission(baseURL!);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInToInbox(page);
  const submission = page.getByRole('article').filter({ hasText: COMPANY });
  await expect(submission).toHaveCount(1, { timeout: 15_000 });
  const rows = submission.getByTestId('inbox-file');
  const [fits, wrong, unreadable] = [rows.nth(0), rows.nth(1), rows.nth(2)];

  await expect(fits).toContainText('1920×1080 · H.264 · 29.97 fps · 0:02 · AAC 48 kHz stereo');
  await expect(fits.getByTestId('spec-badge')).toHaveText('Meets spec');
  await expect(wrong).toContainText('1280×720 · H.264 · 25 fps · 0:02 · AAC 48 kHz stereo');
  await expect(unreadable).toContainText("Could not read this file's details");
  await expect(unreadable.getByTestId('spec-badge')).toHaveCount(0);

  const badge = wrong.getByRole('button', { name: /^2 issues/ });
  await expect(badge).toHaveAttribute('aria-expanded', 'false');
  await expect(wrong.getByText('The screens need 1920×1080; this file is 1280×720.')).toBeHidden();
  await badge.focus();
  await page.keyboard.press('Enter');
  await expect(badge).toHaveAttribute('aria-expanded', 'true');
  await expect(wrong.getByText('The screens need 1920×1080; this file is 1280×720.')).toBeVisible();
  await expect(wrong.getByText('The screens need 29.97 fps; this file is 25 fps.')).toBeVisible();
  await submission.screenshot({ path: join(SHOTS, 'media-api-inbox-1280.png') });

  await page.setViewportSize({ width: 375, height: 900 });
  await expect(wrong.getByText('The screens need 1920×1080; this file is 1280×720.')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
  await submission.screenshot({ path: join(SHOTS, 'media-api-inbox-375.png') });

  await page.keyboard.press('Enter');
  await expect(badge).toHaveAttribute('aria-expanded', 'false');
  await expect(wrong.getByText('The screens need 1920×1080; this file is 1280×720.')).toBeHidden();
});

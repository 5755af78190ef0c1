import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { request, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createStaff, STAFF_PASSWORD } from '../support/staff-account';

/**
 * File reviews and new versions (issue #31) against the real server: staff mark a file "Needs a new version"
 * with a reason in the inbox; the client sees the state and the message on /client and gets the round's
 * mail; the client sends a new version from /client; staff see version 2 as New with version 1 kept. Search
 * and the review filter narrow the inbox; neither page widens past 375 px. Screenshots at 375 and 1280 px
 * (E2E_SHOTS_DIR, default /work/notes/shots).
 */

const root = resolve(import.meta.dirname, '..', '..');
const MEDIA = join(root, 'test', 'fixtures', 'media');
const SPOT = 'h264-1280x720-25-aac.mp4';
const LOGO = 'still-1920x1080.png';
const NEW_CUT = 'h264-1920x1080-29.97-aac-faststart.mp4';
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `review.${suffix}@example.com`;
const STAFF_EMAIL = `review-staff.${suffix}@example.com`;
const PASSWORD = 'Difference Engine 1843';
const EVENT = `Review Expo ${suffix}`;
const COMPANY = `Spot Co ${suffix}`;
const REASON = 'The spot runs 45 s; the slot is 30 s.';
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/work/notes/shots';
const MAIL_TIMEOUT_MS = Number(process.env.E2E_MAIL_TIMEOUT_MS ?? 30_000);

async function api(baseURL: string): Promise<APIRequestContext> {
  return request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
}

/** The client registers and sends a sponsor commercial with a video and an image through the protocol. */
async function sendSubmission(baseURL: string): Promise<void> {
  createStaff(STAFF_EMAIL, 'Review');
  const client = await api(baseURL);
  const registered = await client.post('/api/auth/register', {
    data: {
      email: CLIENT_EMAIL,
      firstname: 'Ada',
      lastname: 'Review',
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
  for (const [name, type] of [
    [SPOT, 'video/mp4'],
    [LOGO, 'image/png'],
  ] as const) {
    const bytes = readFileSync(join(MEDIA, name));
    const file = await client.post(`/api/uploads/submissions/${submission.id}/files`, {
      data: { name, size: bytes.length, lastModified: 1, type },
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
  expect((await client.post(`/api/uploads/submissions/${submission.id}/submit`, { data: {} })).status()).toBe(
    200,
  );
  await client.dispose();
}

async function signInStaff(page: Page): Promise<void> {
  await page.goto('/staff/uploads');
  const login = page.getByRole('form', { name: 'Staff sign in' });
  await login.getByRole('textbox', { name: 'Email', exact: true }).fill(STAFF_EMAIL);
  await login.getByRole('textbox', { name: 'Password', exact: true }).fill(STAFF_PASSWORD);
  await login.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Uploads inbox' })).toBeVisible();
}

async function signInClient(page: Page): Promise<void> {
  await page.goto('/client');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(CLIENT_EMAIL);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Logged in as Ada Review')).toBeVisible();
}

/** The e2e server's mail folder (mail written as .eml files), the messages to `to`. */
async function mailTo(to: string): Promise<string[]> {
  const dir = join(process.env.E2E_DATA_DIR ?? '', 'mail');
  const names = await readdir(dir).catch(() => [] as string[]);
  const texts = await Promise.all(
    names.filter((n) => n.endsWith('.eml')).map((n) => readFile(join(dir, n), 'utf8')),
  );
  return texts.filter((text) => text.includes(to));
}

async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

test('staff send a file back with a reason; the client sees it, gets the mail and sends version 2, which staff see as New', async ({
  page,
  browser,
  baseURL,
}) => {
  // Two accounts, a mail round and an upload through the browser on a loaded machine.
  test.setTimeout(120_000);
  await sendSubmission(baseURL!);

  // Staff: search narrows the inbox to this company, the file is sent back with a reason.
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInStaff(page);
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill(COMPANY);
  await search.press('Enter');
  const company = page.getByRole('region', { name: `${COMPANY} at ${EVENT}` });
  await expect(company).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('inbox-company')).toHaveCount(1);
  await expect(company.getByTestId('inbox-file')).toHaveCount(2);
  await expect(page.getByRole('region', { name: EVENT, exact: true })).toContainText('2 files · 0 accepted');
  await expect(page.getByRole('link', { name: `Manifest (CSV) of ${EVENT}` })).toHaveAttribute(
    'href',
    `/api/uploads/pull?${new URLSearchParams({ event: EVENT, format: 'csv' })}`,
  );
  const spot = company.getByTestId('inbox-file').filter({ hasText: SPOT });
  const logo = company.getByTestId('inbox-file').filter({ hasText: LOGO });
  await expect(spot.getByTestId('review-state')).toHaveText('New');
  await expect(logo.getByRole('img', { name: `Thumbnail of ${LOGO}` })).toBeVisible();
  await expect(spot.getByRole('link', { name: `Download ${SPOT}` })).toBeVisible();

  await logo.getByRole('button', { name: `Accept ${LOGO}` }).click();
  await expect(logo.getByTestId('review-state')).toHaveText('Accepted');

  await spot.getByRole('button', { name: `Needs a new version: ${SPOT}` }).click();
  const why = spot.getByRole('textbox', { name: `Why does ${SPOT} need a new version?` });
  await expect(why).toBeFocused();
  // No reason: refused in place, nothing sent.
  await spot.getByRole('button', { name: `Send: ${SPOT} needs a new version` }).click();
  await expect(spot.getByRole('alert')).toHaveText('Say why the file needs a new version.');
  await why.fill(REASON);
  await spot.getByRole('button', { name: `Send: ${SPOT} needs a new version` }).click();
  await expect(spot.getByTestId('review-state')).toHaveText('Needs a new version');
  await expect(spot.getByTestId('review-message')).toHaveText(REASON);
  await expect(page.getByRole('region', { name: EVENT, exact: true })).toContainText(
    '2 files · 1 accepted · 1 needs a new version · 0 new',
  );
  await spot.screenshot({ path: join(SHOTS, 'review-web-file-review-1280.png') });
  await page.screenshot({ path: join(SHOTS, 'review-web-inbox-1280.png'), fullPage: true });

  // The review filter narrows the list to the file sent back.
  await page.getByRole('button', { name: 'Any Review', exact: true }).click();
  await page.getByRole('option', { name: 'Needs a new version' }).click();
  await expect(company.getByTestId('inbox-file')).toHaveCount(1);
  await expect(company.getByTestId('inbox-file')).toContainText(SPOT);

  await page.setViewportSize({ width: 375, height: 812 });
  await fitsWidth(page, 375);
  await page.screenshot({ path: join(SHOTS, 'review-web-inbox-375.png'), fullPage: true });
  await spot.screenshot({ path: join(SHOTS, 'review-web-file-review-375.png') });

  // The client: one mail for the round, naming the file, the reason and /client.
  await expect
    .poll(async () => (await mailTo(CLIENT_EMAIL)).join('\n'), { timeout: MAIL_TIMEOUT_MS })
    .toContain(REASON);
  const mails = await mailTo(CLIENT_EMAIL);
  const round = mails.filter((text) => text.includes(REASON));
  expect(round).toHaveLength(1);
  expect(round[0]).toContain('A file needs a new version');
  expect(round[0]).toContain('/client');

  const clientContext = await browser.newContext({
    baseURL: baseURL!,
    viewport: { width: 375, height: 812 },
  });
  const client = await clientContext.newPage();
  await signInClient(client);
  const mine = client.getByRole('region', { name: 'Your submissions' });
  const sentBack = mine.getByTestId('client-file').filter({ hasText: SPOT });
  await expect(sentBack.getByTestId('client-state')).toHaveText('Needs a new version');
  await expect(sentBack.getByTestId('client-message')).toContainText(REASON);
  await expect(
    mine.getByTestId('client-file').filter({ hasText: LOGO }).getByTestId('client-state'),
  ).toHaveText('Accepted');
  await expect(
    mine
      .getByTestId('client-file')
      .filter({ hasText: LOGO })
      .getByRole('button', { name: /Send a new version/ }),
  ).toHaveCount(0);
  await sentBack.scrollIntoViewIfNeeded();
  await fitsWidth(client, 375);
  await sentBack.screenshot({ path: join(SHOTS, 'review-web-client-needs-375.png') });
  await client.setViewportSize({ width: 1280, height: 900 });
  await sentBack.screenshot({ path: join(SHOTS, 'review-web-client-needs-1280.png') });

  // A new version: picked, its facts read, uploaded as version 2.
  await sentBack.getByRole('button', { name: `Send a new version of ${SPOT}` }).click();
  await sentBack.getByLabel(`New version of ${SPOT}`, { exact: true }).setInputFiles(join(MEDIA, NEW_CUT));
  await expect(sentBack.getByTestId('file-facts')).toContainText('1920×1080', { timeout: 30_000 });
  await sentBack.getByRole('button', { name: `Upload the new version of ${SPOT}` }).click();
  const v2 = mine.getByTestId('client-file').filter({ hasText: NEW_CUT });
  await expect(v2).toContainText('version 2', { timeout: 30_000 });
  await expect(v2.getByTestId('client-state')).toHaveText('New');
  await expect(v2).toContainText(`version 1 (${SPOT})`);
  await clientContext.close();

  // Staff: version 2 is New, version 1 kept.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await search.fill(COMPANY);
  await search.press('Enter');
  const latest = company.getByTestId('inbox-file').filter({ hasText: NEW_CUT });
  await expect(latest).toContainText('version 2', { timeout: 15_000 });
  await expect(latest.getByTestId('review-state')).toHaveText('New');
  await expect(latest.getByRole('link', { name: `Download version 1 of ${NEW_CUT}` })).toBeVisible();
  await expect(company.getByTestId('inbox-file')).toHaveCount(2);
});

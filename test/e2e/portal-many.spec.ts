import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page, Route } from '@playwright/test';
import { expect, test } from '../support/fixtures';

/**
 * Many files picked at once in the upload portal (issue #34, part 2), against the real server: 300 small
 * files chosen in one go are listed with only a screenful of rows in the page, the list scrolls (and is
 * scrolled from the keyboard) to the last file, every file is sent, and the list of the send holds far
 * fewer rows than files too, with a summary line of its counts. Screenshots at 375 and 1280 px, taken
 * mid-send (parts held back a while), go to E2E_SHOTS_DIR for whoever changes these pages to look at.
 * The timings are bench:portal's (test/bench/portal.mjs); nothing here is timed.
 */

const PASSWORD = 'Many files 2026 portal';
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `many.${suffix}@example.com`;
const FILES = 300;
const SHOTS = process.env.E2E_SHOTS_DIR ?? join(tmpdir(), 'avp-e2e-shots');
const THANKS = 'Thank you! Your files were received.';
const PART_PUTS = '**/api/uploads/files/*/parts/*';
/** Small files go many to a request (#34): a bundle of whole files. */
const BUNDLES = '**/api/uploads/bundles?*';
const fileName = (i: number) => `event-still-${String(i + 1).padStart(4, '0')}.jpg`;

let registered: Promise<void> | undefined;
function ensureClient(baseURL: string): Promise<void> {
  registered ??= fetch(`${baseURL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({
      email: CLIENT_EMAIL,
      firstname: 'Mona',
      lastname: 'Many',
      company: 'Event Stills',
      phone: '(555) 123-4567',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    }),
  }).then((res) => {
    if (res.status !== 201) throw new Error(`registration answered ${res.status}`);
  });
  return registered;
}

async function signIn(page: Page, baseURL: string): Promise<Locator> {
  await ensureClient(baseURL);
  await page.goto('/client#creative');
  const login = page.getByRole('form', { name: 'Sign in' });
  await login.getByRole('textbox', { name: 'Email', exact: true }).fill(CLIENT_EMAIL);
  await login.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await login.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Logged in as Mona Many')).toBeVisible();
  return page.getByRole('form', { name: 'Creative Asset form' });
}

/** The files, written once per test: 1–4 KB each. */
function writeFiles(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: FILES }, (_, i) => {
    const path = join(dir, fileName(i));
    writeFileSync(path, randomBytes(1024 + ((i * 37) % 3072)));
    return path;
  });
}

/**
 * The requests that carry files' bytes (part PUTs, and bundles of whole small files) let through `n` of
 * each, the rest held until opened: the send stays mid-way for a look, however fast the runner.
 */
async function holdSends(page: Page, after: number): Promise<() => Promise<void>> {
  const allowance = { PUT: after, POST: after };
  const held: (() => void)[] = [];
  const handler = (route: Route) => {
    const method = route.request().method();
    if (!(method === 'PUT' || method === 'POST') || allowance[method]-- > 0) return route.fallback();
    return new Promise<void>((resolve) => held.push(() => void route.fallback().then(resolve)));
  };
  await page.route(PART_PUTS, handler);
  await page.route(BUNDLES, handler);
  return async () => {
    allowance.PUT = allowance.POST = Number.POSITIVE_INFINITY;
    for (const go of held.splice(0)) go();
    await page.unroute(PART_PUTS, handler);
    await page.unroute(BUNDLES, handler);
  };
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const viewport of [
  { name: 'a phone', width: 375, height: 812 },
  { name: 'a desktop', width: 1280, height: 800 },
]) {
  test(`on ${viewport.name}, ${FILES} files picked at once: a screenful of rows, the last reached by scrolling, every file sent`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const dir = mkdtempSync(join(tmpdir(), 'avp-e2e-many-'));
    try {
      const paths = writeFiles(dir);
      // One-part files are hashed by crypto.subtle from the bytes they are sent with: 300 of them once
      // started 300 hash workers (#34).
      const hashWorkers: string[] = [];
      page.on('worker', (worker) => {
        if (/\/assets\/hash\.worker-[\w-]+\.js$/.test(worker.url())) hashWorkers.push(worker.url());
      });
      const form = await signIn(page, baseURL!);
      await form.getByRole('textbox', { name: 'Project name', exact: true }).fill(`Many ${viewport.width}`);
      await form.getByTestId('upload-file-input').setInputFiles(paths);

      // The chosen files: their count, and a window of rows that know their place among 300.
      // Taken in a slice at a time (FilePicker): seconds on a busy two-core runner.
      await expect(form.getByText(`${FILES} files chosen`, { exact: true })).toBeVisible({ timeout: 60_000 });
      const chosen = form.getByRole('list', { name: 'Chosen files' });
      const first = chosen.locator(':scope > li').first();
      await expect(first).toHaveAttribute('aria-setsize', String(FILES));
      await expect(first).toHaveAttribute('aria-posinset', '1');
      expect(await chosen.locator(':scope > li').count()).toBeLessThan(FILES / 5);
      // Scrolled with the pointer's wheel to the end, then back to the start with the keyboard.
      // (Past the list's end the wheel scrolls the page on, so the list's own scroll is what is checked.)
      await chosen.hover();
      const leftBelow = () =>
        chosen.evaluate((list) => list.scrollHeight - list.scrollTop - list.clientHeight);
      // Rows grow as their files' details come in, so the end moves: the wheel turns until it is reached.
      await expect
        .poll(
          async () => {
            await page.mouse.wheel(0, 1500);
            return leftBelow();
          },
          { timeout: 60_000, intervals: [50] },
        )
        .toBeLessThanOrEqual(1);
      const lastRemove = form.getByRole('button', { name: `Remove ${fileName(FILES - 1)}` });
      await expect(lastRemove).toBeVisible();
      await chosen.focus();
      await page.keyboard.press('Home');
      await expect(form.getByRole('button', { name: `Remove ${fileName(0)}` })).toBeInViewport();
      await page.keyboard.press('End');
      await expect(lastRemove).toBeInViewport();
      expect(await chosen.locator(':scope > li').count()).toBeLessThan(FILES / 5);
      await noSidewaysScroll(page);
      await chosen.evaluate((list) => (list.scrollTop = 0));
      await page.screenshot({ path: join(SHOTS, `portal-many-chosen-${viewport.width}.png`) });

      // A few requests' worth through (a bundle holds up to 32 small files), the rest held.
      const open = await holdSends(page, 2);
      await form.getByRole('button', { name: 'Submit' }).click();
      const summary = page.getByTestId('upload-summary');
      await expect(summary).toContainText(`${FILES} files:`);
      // Some sent before the gate holds the rest (a busy runner: seconds).
      await expect(summary).toContainText(/\b[1-9]\d* sent/, { timeout: 60_000 });
      const sending = page.getByRole('list', { name: 'Files being sent' });
      expect(await sending.locator(':scope > li').count()).toBeLessThan(FILES / 5);
      await expect(sending.locator(':scope > li').first()).toHaveAttribute('aria-setsize', String(FILES));
      await sending.focus();
      await page.keyboard.press('End');
      const lastRow = sending.locator(':scope > li').filter({ hasText: fileName(FILES - 1) });
      await expect(lastRow).toBeInViewport();
      await expect(lastRow).toHaveAttribute('aria-posinset', String(FILES));
      await expect(lastRow.getByRole('button', { name: `Remove ${fileName(FILES - 1)}` })).toBeVisible();
      await noSidewaysScroll(page);
      await page.keyboard.press('Home');
      await page.screenshot({ path: join(SHOTS, `portal-many-${viewport.width}.png`) });

      await open();
      await expect(page.getByText(THANKS)).toBeVisible({ timeout: 180_000 });
      // Every file arrived whole: the client's own list of what it sent has them all.
      const mine = (await (await page.request.get('/api/uploads/mine')).json()) as {
        submissions: { fields: Record<string, string>; files: { name: string; status: string }[] }[];
      };
      const sent = mine.submissions.find((s) => s.fields.project_name === `Many ${viewport.width}`);
      expect(sent?.files).toHaveLength(FILES);
      expect(sent?.files.every((f) => f.status === 'complete')).toBe(true);
      expect(hashWorkers).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

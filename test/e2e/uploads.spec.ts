import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page, Route } from '@playwright/test';
import { expect, test } from '../support/fixtures';

/**
 * The client upload portal and the staff inbox against the real server: the hash states with
 * back and forward, every validation message of the three forms, a sponsor commercial with two files
 * (one of 50 MB) sent through the shared upload client and found in the staff inbox with matching
 * checksums, pause, resume and remove of files mid-way, and a session ended in another tab during an
 * upload. The sha-256 is computed by the page in a Web Worker (web/src/features/uploads/hashing.ts) and
 * checked by the server (a mismatch is a 422) and again here against node:crypto.
 *
 * One client registration and one staff account per test process (the server limits registrations);
 * both are named after the process, and each test finds its own submission in the inbox by a field of
 * its own, so the two CI workers never read each other's.
 */

const root = resolve(import.meta.dirname, '..', '..');
const PASSWORD = 'Difference Engine 1843';
const STAFF_PASSWORD = 'Staff passphrase 9';
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `uploader.${suffix}@example.com`;
const STAFF_EMAIL = `inbox.${suffix}@example.com`;
const DO_NOT_CLOSE = 'Uploading… Please do not close or refresh this page until your upload is complete.';
// Screenshots of the pages this file changes (issue #29), looked at by whoever changes them.
const SHOTS = process.env.E2E_SHOTS_DIR ?? join(tmpdir(), 'avp-e2e-shots');

function text(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('textbox', { name, exact: true });
}

/** The Event name, a suggestions field over the open upload events (issue #30). */
function eventName(form: Locator): Locator {
  return form.getByRole('combobox', { name: /^Event name/ });
}

/** Types a free-text Event name and leaves the field (Tab), which closes its list of suggestions. */
async function fillEventName(form: Locator, value: string): Promise<void> {
  await eventName(form).fill(value);
  await eventName(form).press('Tab');
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
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Logged in as Ada Uploader')).toBeVisible();
}

let staffCreated = false;
/** The staff account, created once per test process through the admin CLI. */
function ensureStaff(): void {
  if (staffCreated) return;
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
  staffCreated = true;
}

/** Signs staff in at the inbox in a context of its own; the submission whose fields include `marker`. */
async function inboxSubmission(browser: Browser, baseURL: string, marker: string) {
  ensureStaff();
  const context = await browser.newContext({ baseURL });
  const staff = await context.newPage();
  await staff.goto('/staff/uploads');
  const login = staff.getByRole('form', { name: 'Staff sign in' });
  await text(login, 'Email').fill(STAFF_EMAIL);
  await text(login, 'Password').fill(STAFF_PASSWORD);
  await login.getByRole('button', { name: 'Sign in', exact: true }).click();
  // The inbox is paged, and every test of the run sends to one server: search for this test's event.
  const search = staff.getByRole('search', { name: 'Search the inbox' });
  await search.getByRole('searchbox', { name: 'Search' }).fill(marker);
  await search.getByRole('button', { name: 'Search' }).click();
  const submission = staff
    .getByRole('article', { name: 'Submission from Ada Uploader' })
    .filter({ hasText: marker });
  await expect(submission).toHaveCount(1);
  return { submission, close: () => context.close() };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const PART_PUT = /^\/api\/uploads\/files\/([^/]+)\/parts\/(\d+)$/;
const DELETE_FILE = /^\/api\/uploads\/files\/[^/]+$/;
const pathOf = (url: string) => new URL(url).pathname;
// Quick to notice, patient with a busy machine (CI runs two browsers against one server).
const FAST_POLL = { intervals: [50], timeout: 45_000 };

const PART_PUTS = '**/api/uploads/files/*/parts/*';

/**
 * Part PUTs held back so that a test can act while a file is mid-way: the page's requests are let
 * through unchanged, only later (`route.continue()`); nothing is answered in the server's place. Also
 * records the parts the server stored (answered 200), as 'fileId/part'.
 */
class PartGate {
  private allowance = Number.POSITIVE_INFINITY;
  private readonly held: (() => void)[] = [];
  private readonly handler = (route: Route) => this.handle(route);
  readonly stored: string[] = [];

  private constructor(private readonly page: Page) {}

  static async on(page: Page): Promise<PartGate> {
    const gate = new PartGate(page);
    await page.route(PART_PUTS, gate.handler);
    page.on('response', (res) => {
      const m = PART_PUT.exec(pathOf(res.url()));
      if (m && res.request().method() === 'PUT' && res.status() === 200) gate.stored.push(`${m[1]}/${m[2]}`);
    });
    return gate;
  }

  /** Lets `n` more part PUTs through, then holds the others. */
  holdAfter(n: number): void {
    this.allowance = n;
  }

  /**
   * Lets the held part PUTs and every later one through, and stops intercepting them (an intercepted
   * 6 MiB body costs the browser noticeably more time than a plain one).
   */
  async open(): Promise<void> {
    this.allowance = Number.POSITIVE_INFINITY;
    for (const go of this.held.splice(0)) go();
    await this.page.unroute(PART_PUTS, this.handler);
  }

  /** The part numbers stored for a file, in the order the server stored them. */
  partsOf(fileId: string): number[] {
    return this.stored.filter((s) => s.startsWith(`${fileId}/`)).map((s) => Number(s.split('/')[1]));
  }

  private async handle(route: Route): Promise<void> {
    if (route.request().method() !== 'PUT') return route.fallback();
    if (this.allowance > 0) this.allowance--;
    else await new Promise<void>((resolve) => this.held.push(resolve));
    // A request the page aborted while it was held (pause, remove) can no longer be continued.
    await route.continue().catch(() => undefined);
  }
}

/** The hashing workers the page starts and ends (hash.worker.ts), and any CSP refusal on the console. */
function watchHashWorkers(page: Page) {
  const seen = { started: [] as string[], ended: 0, cspErrors: [] as string[] };
  page.on('worker', (worker) => {
    if (!/\/assets\/hash\.worker-[\w-]+\.js$/.test(worker.url())) return;
    seen.started.push(worker.url());
    worker.on('close', () => seen.ended++);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content[- ]Security[- ]Policy/i.test(message.text())) {
      seen.cspErrors.push(message.text());
    }
  });
  return seen;
}

/**
 * The texts and boxes of a progress line's percent, speed and time left, read at one instant once it
 * shows a speed and a time left (between parts the speed may read '—').
 */
async function movingFigures(figures: Locator) {
  type Box = { x: number; y: number; width: number; height: number };
  type Seen = { texts: string[]; boxes: Box[]; bar: Box };
  let seen: Seen | null = null;
  let failure = '';
  await expect
    .poll(
      async () => {
        seen = await figures
          .first()
          .evaluate(
            (el) => {
              const parts = ['.uploads-percent', '.uploads-speed', '.uploads-time-left'].map((selector) =>
                el.querySelector(selector)!,
              );
              const box = (element: Element) => {
                const r = element.getBoundingClientRect();
                return { x: r.x, y: r.y, width: r.width, height: r.height };
              };
              return {
                texts: parts.map((part) => part.textContent ?? ''),
                boxes: parts.map(box),
                bar: box(el.parentElement!.querySelector('progress')!),
              };
            },
            undefined,
            { timeout: 5_000 },
          )
          .catch((error: unknown) => {
            failure = String(error).split('\n')[0]!;
            return null;
          });
        // The three texts, so that a failure shows what the line said.
        return (seen as Seen | null)?.texts.join(' | ') ?? `no progress line (${failure})`;
      },
      { intervals: [20], timeout: 60_000 },
    )
    .toMatch(/^\d+% \| [\d.]+ [KMG]?B\/s \| .+ left$/);
  return seen! as Seen;
}

test.describe('client upload portal', () => {
  // One after another in one worker: two uploads of some 50 MB at once on a two-CPU CI machine (and one
  // server) double each other's time. The other worker runs the other files meanwhile.
  test.describe.configure({ mode: 'default' });

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
    await creative.getByTestId('upload-file-input').setInputFiles({
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
      const workers = watchHashWorkers(page);
      const marker = `Expo 2027 ${suffix}`;

      await signInAtClient(page, baseURL!, '#sponsor');
      const form = page.getByRole('form', { name: 'Sponsor Commercial form' });
      await fillEventName(form, marker);
      await text(form, 'Sponsor company').fill('Acme AV');
      await form.getByTestId('upload-file-input').setInputFiles([big, small]);
      await expect(form.getByRole('list', { name: 'Chosen files' }).getByRole('listitem')).toHaveCount(2);
      await form.getByRole('button', { name: 'Submit' }).click();

      await expect(page.getByText('Thank you! Your files were received.')).toBeVisible({ timeout: 90_000 });
      // A clean form after success.
      const clean = page.getByRole('form', { name: 'Sponsor Commercial form' });
      await expect(eventName(clean)).toHaveValue('');
      await expect(text(clean, 'Sponsor company')).toHaveValue('');
      await expect(clean.getByRole('list', { name: 'Chosen files' })).toHaveCount(0);
      // The 50 MB file hashed in a worker under the production CSP, kept for a next file once it
      // answered (#34); the one-part logo by crypto.subtle, from the bytes it was sent with: no worker.
      expect(workers.started).toHaveLength(1);
      expect(workers.ended).toBe(0);
      expect(workers.cspErrors).toEqual([]);

      const inbox = await inboxSubmission(browser, baseURL!, marker);
      const submission = inbox.submission;
      await expect(submission.getByText('Acme AV')).toBeVisible();
      const rows = submission.getByTestId('inbox-file');
      await expect(rows).toHaveCount(2);
      await expect(rows.filter({ hasText: 'sponsor-commercial-final-cut.mp4' })).toContainText(sha(bigBytes));
      await expect(rows.filter({ hasText: 'logo.png' })).toContainText(sha(smallBytes));
      await expect(rows.filter({ hasText: 'logo.png' })).toContainText('Complete');
      await submission.getByRole('button', { name: 'Mark handled' }).click();
      await expect(submission.getByRole('button', { name: 'Mark not handled' })).toBeVisible();
      await inbox.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('pauses, resumes and removes files mid-way: the resumed file arrives whole, the removed one not at all', async ({
    page,
    browser,
    baseURL,
  }) => {
    // 12–20 s on this two-CPU machine. A part abandoned mid-body keeps its write claim until the lease
    // runs out (up to 10 s), so the resumed send may wait that long: room for it and a busy CI runner.
    test.setTimeout(90_000);
    const dir = mkdtempSync(join(tmpdir(), 'avp-e2e-pause-'));
    try {
      const MiB = 1024 * 1024;
      // 7 parts of 6 MiB, and 2.
      const keynote = join(dir, 'keynote-session.mp4');
      const keynoteBytes = randomBytes(42 * MiB);
      writeFileSync(keynote, keynoteBytes);
      const bumper = join(dir, 'sponsor-bumper.mov');
      writeFileSync(bumper, randomBytes(12 * MiB));
      const workers = watchHashWorkers(page);
      const gate = await PartGate.on(page);
      const marker = `Pause and resume ${suffix}`;

      await signInAtClient(page, baseURL!, '#sponsor');
      const form = page.getByRole('form', { name: 'Sponsor Commercial form' });
      await fillEventName(form, marker);
      await text(form, 'Sponsor company').fill('Acme AV');
      await form.getByTestId('upload-file-input').setInputFiles([keynote, bumper]);
      gate.holdAfter(1);
      await form.getByRole('button', { name: 'Submit' }).click();

      // The files go one at a time: the keynote's first part is stored, the next ones held back.
      const rowOf = (name: string) => page.getByTestId('upload-row').filter({ hasText: name });
      const keynoteRow = rowOf('keynote-session.mp4');
      const bumperRow = rowOf('sponsor-bumper.mov');
      await expect.poll(() => gate.stored.length, FAST_POLL).toBe(1);
      await expect(keynoteRow).toContainText('Sending');
      await expect(keynoteRow).toContainText('14%');
      await expect(bumperRow).toContainText('Waiting');

      // Pause the keynote mid-way (its parts in flight are abandoned): the queue moves on to the bumper.
      gate.holdAfter(1);
      await page.getByRole('button', { name: 'Pause keynote-session.mp4' }).click();
      await expect(keynoteRow).toContainText('Paused');
      await expect(page.getByRole('button', { name: 'Resume keynote-session.mp4' })).toBeVisible();
      await expect.poll(() => gate.stored.length, FAST_POLL).toBe(2);
      await expect(bumperRow).toContainText('Sending');
      await expect(bumperRow).toContainText('50%');

      // Remove the bumper mid-way: the server forgets it.
      const removal = page.waitForResponse(
        (res) => res.request().method() === 'DELETE' && DELETE_FILE.test(pathOf(res.url())),
      );
      await page.getByRole('button', { name: 'Remove sponsor-bumper.mov' }).click();
      expect((await removal).status()).toBe(204);
      await expect(bumperRow).toContainText('Removed');
      await expect(page.getByRole('button', { name: 'Remove sponsor-bumper.mov' })).toHaveCount(0);
      await expect(keynoteRow).toContainText('Paused');
      await expect(keynoteRow).toContainText('14%');
      await expect(page.getByText('Thank you! Your files were received.')).toHaveCount(0);

      // Resume: the keynote continues where it stopped, and the submission is sent.
      await gate.open();
      await page.getByRole('button', { name: 'Resume keynote-session.mp4' }).click();
      await expect(page.getByText('Thank you! Your files were received.')).toBeVisible({ timeout: 45_000 });
      // Part 1 was stored before the pause and not sent again; the other six after the resume.
      const keynoteId = gate.stored[0]!.split('/')[0]!;
      const keynoteParts = gate.partsOf(keynoteId);
      expect(keynoteParts[0]).toBe(1);
      expect([...keynoteParts].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      // A hashing worker per round that hashes a second part: the keynote's two rounds, and the bumper's
      // unless it was removed before its last part was read (a last part waits for the others' answers,
      // #34). Those given up were ended at once (they may still have been hashing); the last, once it had
      // answered, is kept for a next file.
      expect(workers.started.length).toBeGreaterThanOrEqual(2);
      expect(workers.started.length).toBeLessThanOrEqual(3);
      await expect.poll(() => workers.ended, FAST_POLL).toBe(workers.started.length - 1);
      expect(workers.cspErrors).toEqual([]);

      const inbox = await inboxSubmission(browser, baseURL!, marker);
      const rows = inbox.submission.getByTestId('inbox-file');
      await expect(rows).toHaveCount(1);
      await expect(rows.filter({ hasText: 'keynote-session.mp4' })).toContainText(sha(keynoteBytes));
      await expect(rows.filter({ hasText: 'keynote-session.mp4' })).toContainText('Complete');
      await expect(rows.filter({ hasText: 'sponsor-bumper.mov' })).toHaveCount(0);
      await inbox.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const viewport of [
    { name: 'a phone', width: 375, height: 667 },
    { name: 'a desktop', width: 1280, height: 800 },
  ]) {
    test(`on ${viewport.name}, Submit at the foot of the form brings the progress into view with the focus; the thank-you follows over a fresh form`, async ({
      page,
      baseURL,
    }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const gate = await PartGate.on(page);
      await signInAtClient(page, baseURL!, '#event');
      const form = page.getByRole('form', { name: 'Event Asset form' });
      await fillEventName(form, `In view ${suffix}`);
      const date = text(form, 'Session date');
      await date.fill(new Date().toLocaleDateString('en-US'));
      await date.press('Enter');
      await form.getByRole('button', { name: /hour/i }).click();
      await page.getByRole('option', { name: '9', exact: true }).click();
      await form.getByRole('button', { name: /minute/i }).click();
      await page.getByRole('option', { name: '30', exact: true }).click();
      await form.getByRole('button', { name: /AM\/PM/i }).click();
      await page.getByRole('option', { name: 'AM', exact: true }).click();
      await text(form, 'Speaker name').fill('Ada Lovelace');
      await form.getByTestId('upload-file-input').setInputFiles({
        name: 'keynote-slides.pdf',
        mimeType: 'application/pdf',
        buffer: randomBytes(300_000),
      });
      gate.holdAfter(0);
      await form.getByRole('button', { name: 'Submit' }).click();

      const warning = page.getByRole('status').filter({ hasText: DO_NOT_CLOSE });
      await expect(warning).toBeInViewport();
      await expect(warning).toBeFocused();
      await expect(page.getByRole('progressbar', { name: 'Overall progress' })).toBeInViewport();

      await gate.open();
      const thanks = page.getByRole('status').filter({ hasText: 'Thank you! Your files were received.' });
      await expect(thanks).toBeInViewport({ timeout: 20_000 });
      await expect(thanks).toBeFocused();
      // The spec reloads the page after a send: the same form, as new, under the thank-you.
      const fresh = page.getByRole('form', { name: 'Event Asset form' });
      await expect(eventName(fresh)).toHaveValue('');
      for (const name of ['Session date', 'Speaker name']) await expect(text(fresh, name)).toHaveValue('');
      await expect(fresh.getByRole('button', { name: /hour/i })).not.toContainText('9');
      await expect(fresh.getByRole('list', { name: 'Chosen files' })).toHaveCount(0);
    });
  }

  for (const viewport of [
    { name: 'a phone', width: 375, height: 812 },
    { name: 'a desktop', width: 1280, height: 800 },
  ]) {
    test(`on ${viewport.name}, a reload 20% into an upload brings the form back, names the file, and choosing it sends only the parts the server lacks`, async ({
      page,
      browser,
      baseURL,
    }) => {
      test.setTimeout(150_000);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const dir = mkdtempSync(join(tmpdir(), 'avp-e2e-reload-'));
      try {
        // 10 parts of 6 MiB.
        const reel = join(dir, 'opening-reel.mp4');
        const reelBytes = randomBytes(60 * 1024 * 1024);
        writeFileSync(reel, reelBytes);
        const gate = await PartGate.on(page);
        const marker = `Reload ${viewport.width} ${suffix}`;
        const sent: string[] = [];
        page.on('request', (req) => {
          const m = PART_PUT.exec(pathOf(req.url()));
          if (m && req.method() === 'PUT') sent.push(`${m[1]}/${m[2]}`);
        });

        // The page's clock, so that the progress line can be held still to be measured (below).
        await page.clock.install();
        await signInAtClient(page, baseURL!, '#sponsor');
        const form = page.getByRole('form', { name: 'Sponsor Commercial form' });
        await fillEventName(form, marker);
        await text(form, 'Sponsor company').fill('Acme AV');
        await text(form, 'Description').fill('Cut 3, with captions');
        await form.getByTestId('upload-file-input').setInputFiles(reel);
        gate.holdAfter(2);
        await form.getByRole('button', { name: 'Submit' }).click();
        // Time stands still in the page while its first parts go: the speed measured over them stays on
        // the line (its window never ends), and the parts held back here are not given up as stalled.
        await page.clock.pauseAt(Date.now() + 1_000);
        await expect.poll(() => gate.stored.length, { intervals: [50], timeout: 45_000 }).toBe(2);
        // Issue #29 item 17: percent, speed and time left each on one line, inside the screen.
        const { boxes, bar } = await movingFigures(
          page.getByTestId('upload-row').locator('.uploads-figures'),
        );
        for (const box of boxes) {
          expect(box.height).toBeLessThanOrEqual(boxes[0]!.height);
          expect(box.y).toBe(boxes[0]!.y);
          expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
          // On a phone they have a line of their own under the bar, so longer figures ('3 min 20 s left')
          // still fit; beside it they were squeezed into columns.
          if (viewport.width < 480) expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height);
        }
        await page.screenshot({ path: join(SHOTS, `portal-progress-${viewport.width}.png`) });
        const row = page.getByTestId('upload-row').filter({ hasText: 'opening-reel.mp4' });
        await expect(row).toContainText('20%');

        await page.clock.resume();
        // The reload (the page's leave warning accepted) cuts the parts in flight.
        page.once('dialog', (dialog) => void dialog.accept());
        await page.reload();
        await gate.open();
        const before = sent.length;

        const again = page.getByRole('form', { name: 'Sponsor Commercial form' });
        await expect(eventName(again)).toHaveValue(marker);
        await expect(text(again, 'Sponsor company')).toHaveValue('Acme AV');
        await expect(text(again, 'Description')).toHaveValue('Cut 3, with captions');
        const message = page
          .getByRole('status')
          .getByText('This upload can continue: choose the same file again (opening-reel.mp4, 60 MB)', {
            exact: true,
          });
        await expect(message).toBeVisible();
        await message.scrollIntoViewIfNeeded();
        await expect(message).toBeInViewport();
        await page.screenshot({ path: join(SHOTS, `portal-continue-${viewport.width}.png`), fullPage: true });

        // Chosen again: it goes on at once, without another Submit.
        await again.getByTestId('upload-file-input').setInputFiles(reel);
        await expect(page.getByText('Thank you! Your files were received.')).toBeVisible({ timeout: 60_000 });
        const fileId = gate.stored[0]!.split('/')[0]!;
        const resent = sent.slice(before).filter((s) => s.startsWith(`${fileId}/`));
        const storedFirst = gate.partsOf(fileId).slice(0, 2);
        // The two parts the server held were not sent again; the other eight were, each once.
        for (const part of storedFirst) expect(resent).not.toContain(`${fileId}/${part}`);
        expect(resent).toHaveLength(8);
        expect([...gate.partsOf(fileId)].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        await expect(page.getByText(/This upload can continue/)).toHaveCount(0);
        // The fresh form under the thank-you is as new: not sent again, no messages.
        const fresh = page.getByRole('form', { name: 'Sponsor Commercial form' });
        await expect(eventName(fresh)).toHaveValue('');
        await expect(fresh.getByText('Please enter an event name.')).toHaveCount(0);

        const inbox = await inboxSubmission(browser, baseURL!, marker);
        const rows = inbox.submission.getByTestId('inbox-file');
        await expect(rows).toHaveCount(1);
        await expect(rows).toContainText(sha(reelBytes));
        await inbox.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  test('Start over forgets an upload cut off by a reload: its unfinished file is removed on the server and the form is blank', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const gate = await PartGate.on(page);
    await signInAtClient(page, baseURL!, '#creative');
    const form = page.getByRole('form', { name: 'Creative Asset form' });
    await text(form, 'Project name').fill(`Start over ${suffix}`);
    await form.getByTestId('upload-file-input').setInputFiles({
      name: 'rough-cut.mov',
      mimeType: 'video/quicktime',
      buffer: randomBytes(13 * 1024 * 1024),
    });
    gate.holdAfter(1);
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => gate.stored.length, { intervals: [50], timeout: 45_000 }).toBe(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await gate.open();

    const message = page.getByText(
      'This upload can continue: choose the same file again (rough-cut.mov, 13 MB)',
      { exact: true },
    );
    await expect(message).toBeVisible();
    const fileId = gate.stored[0]!.split('/')[0]!;
    const removal = page.waitForResponse(
      (res) => res.request().method() === 'DELETE' && pathOf(res.url()) === `/api/uploads/files/${fileId}`,
    );
    await page.getByRole('button', { name: 'Start over' }).click();
    expect((await removal).status()).toBe(204);
    await expect(message).toHaveCount(0);
    await expect(text(page.getByRole('form', { name: 'Creative Asset form' }), 'Project name')).toHaveValue(
      '',
    );
    // Nothing is left for the next visit to bring back.
    expect(await page.evaluate(() => localStorage.getItem('avp.upload.openSubmission'))).toBeNull();
  });

  test('says which call it is retrying: starting the upload, registering the file, completing it, sending the submission', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const failing = new Set(['start', 'register', 'complete', 'submit']);
    const which = (url: string, method: string) => {
      const path = pathOf(url);
      if (method !== 'POST') return null;
      if (path === '/api/uploads/submissions') return 'start';
      // Files are registered many to a call (files/batch, #34), or alone where that is refused.
      if (/^\/api\/uploads\/submissions\/[^/]+\/files(\/batch)?$/.test(path)) return 'register';
      if (/^\/api\/uploads\/files\/[^/]+\/complete$/.test(path)) return 'complete';
      if (/^\/api\/uploads\/submissions\/[^/]+\/submit$/.test(path)) return 'submit';
      return null;
    };
    await page.route('**/api/uploads/**', (route) => {
      const request = route.request();
      const url = new URL(request.url());
      // The last part names the file's sha-256 and completes it (#34): sent without it, as to a server
      // that ignores it, the file is completed by its own call, the one that fails here.
      if (request.method() === 'PUT' && url.searchParams.has('sha256')) {
        url.search = '';
        return route.continue({ url: url.href });
      }
      const call = which(request.url(), request.method());
      return call && failing.has(call) ? route.abort('connectionfailed') : route.fallback();
    });
    await signInAtClient(page, baseURL!, '#creative');
    const form = page.getByRole('form', { name: 'Creative Asset form' });
    await text(form, 'Project name').fill(`Call retries ${suffix}`);
    // Over one part (6,291,456 bytes): a file of one part is completed by its part's PUT (#34), with no
    // completion call to fail.
    await form.getByTestId('upload-file-input').setInputFiles({
      name: 'storyboard.pdf',
      mimeType: 'application/pdf',
      buffer: randomBytes(6_500_000),
    });
    await form.getByRole('button', { name: 'Submit' }).click();

    const said = (what: string) =>
      page.getByText(
        new RegExp(
          `^Connection problem: retrying ${what} \\(attempt \\d of 9\\)(, next try in \\d+ s| now)\\.$`,
        ),
      );
    const row = page.getByTestId('upload-row').filter({ hasText: 'storyboard.pdf' });
    for (const [call, what] of [
      ['start', 'the start of this upload'],
      ['register', 'the registration of storyboard\\.pdf'],
      ['complete', 'the completion of storyboard\\.pdf'],
      ['submit', 'the submission'],
    ] as const) {
      await expect(said(what)).toBeVisible({ timeout: 15_000 });
      if (call === 'register' || call === 'complete') await expect(row).toContainText('Retrying');
      failing.delete(call);
    }
    await expect(page.getByText('Thank you! Your files were received.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(/Connection problem/)).toHaveCount(0);
  });

  test('says it is retrying while parts fail, then sends them', async ({ page, baseURL }) => {
    let failing = true;
    await page.route(PART_PUTS, (route) =>
      failing && route.request().method() === 'PUT' ? route.abort('connectionfailed') : route.fallback(),
    );
    await signInAtClient(page, baseURL!, '#creative');
    const form = page.getByRole('form', { name: 'Creative Asset form' });
    await text(form, 'Project name').fill(`Retries ${suffix}`);
    await form.getByTestId('upload-file-input').setInputFiles({
      name: 'storyboard.pdf',
      mimeType: 'application/pdf',
      buffer: randomBytes(200_000),
    });
    await form.getByRole('button', { name: 'Submit' }).click();

    await expect(
      page.getByText(
        /^Connection problem: retrying storyboard\.pdf \(attempt 3 of 9\), next try in \d+ s\.$/,
      ),
    ).toBeVisible();
    await expect(page.getByTestId('upload-row').filter({ hasText: 'storyboard.pdf' })).toContainText(
      'Retrying',
    );
    failing = false;
    await expect(page.getByText('Thank you! Your files were received.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(/Connection problem/)).toHaveCount(0);
  });

  for (const zone of [
    // 20:00 UTC: Tokyo is already on tomorrow, New York still on today.
    { timezoneId: 'Asia/Tokyo', utcHour: 20, dayOffset: 1 },
    // 08:00 UTC: Honolulu is still on yesterday, New York already on today.
    { timezoneId: 'Pacific/Honolulu', utcHour: 8, dayOffset: -1 },
  ]) {
    test(`the session date picker starts on today in ${zone.timezoneId}, not in New York`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({ baseURL, timezoneId: zone.timezoneId });
      const page = await context.newPage();
      const utcToday = new Date().toISOString().slice(0, 10);
      const now = new Date(`${utcToday}T${String(zone.utcHour).padStart(2, '0')}:00:00Z`);
      await page.clock.setFixedTime(now);
      const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000);
      const typed = (d: Date) => `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;
      const shown = (d: Date) =>
        d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
      const localToday = day(zone.dayOffset);
      const localYesterday = day(zone.dayOffset - 1);

      await signInAtClient(page, baseURL!, '#event');
      const date = text(page.getByRole('form', { name: 'Event Asset form' }), 'Session date');
      await date.fill(typed(localYesterday));
      await date.press('Enter');
      await expect(page.getByText(`Date must be after ${shown(localYesterday)}`)).toBeVisible();
      await expect(date).toHaveValue('', { timeout: 5_000 });
      await date.fill(typed(localToday));
      await date.press('Enter');
      await expect(page.getByText(/^Date must be/)).toHaveCount(0);
      await expect(date).toHaveValue(typed(localToday));
      await context.close();
    });
  }

  test('a session ended in another tab stops the upload at its next part: the sign-in form returns with the expiry message', async ({
    page,
    baseURL,
  }) => {
    // The API never answers 403 to a signed-in client's own upload (requireUser answers 401; another
    // user's submission is a 404; only a cross-site request is refused with 403, which this same-origin
    // page cannot send). So the path tested is SPEC §8's: the session ends, the next part gets a 401.
    const dir = mkdtempSync(join(tmpdir(), 'avp-e2e-expired-'));
    try {
      const clip = join(dir, 'interview-raw.mov');
      writeFileSync(clip, randomBytes(30 * 1024 * 1024));
      const gate = await PartGate.on(page);

      await signInAtClient(page, baseURL!, '#creative');
      const form = page.getByRole('form', { name: 'Creative Asset form' });
      await text(form, 'Project name').fill(`Session ends ${suffix}`);
      await form.getByTestId('upload-file-input').setInputFiles(clip);
      gate.holdAfter(1);
      await form.getByRole('button', { name: 'Submit' }).click();
      await expect.poll(() => gate.stored.length, FAST_POLL).toBe(1);
      await expect(page.getByText(DO_NOT_CLOSE)).toBeVisible();

      // Another tab of the same browser signs out through the logout API, with the same cookie.
      const other = await page.context().newPage();
      await other.goto('/privacy');
      const loggedOut = await other.evaluate(async () => {
        const res = await fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin' });
        return res.status;
      });
      expect(loggedOut).toBe(204);
      await other.close();

      const refused = page.waitForResponse(
        (res) => res.request().method() === 'PUT' && PART_PUT.test(pathOf(res.url())) && res.status() === 401,
      );
      await gate.open();
      await refused;
      const login = page.getByRole('form', { name: 'Sign in' });
      await expect(login).toBeVisible();
      await expect(page.getByText('The session has expired, please relogin and try again.')).toBeVisible();
      await expect(page.getByText('Logged in as Ada Uploader')).toHaveCount(0);
      await expect(page.getByText(DO_NOT_CLOSE)).toHaveCount(0);
      // Only the part sent before the sign-out was stored.
      expect(gate.stored).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createStaff, STAFF_PASSWORD } from '../support/staff-account';

/**
 * Media facts before upload (issue #30) against the real server: the portal reads a picked file's facts in
 * a Web Worker (mediainfo.js in WebAssembly, under the server's real Content-Security-Policy), shows them
 * under the file's row with each way the file misses the named event's spec; a blocking event's
 * wrong-resolution file cannot be sent, a warning event's is sent with its facts and staff see it flagged,
 * free text checks nothing; staff create an event with a spec in the staff shell; the marketing pages load
 * neither the worker nor the WebAssembly. Fixtures: test/fixtures/media (README there).
 */

const root = resolve(import.meta.dirname, '..', '..');
const MEDIA = join(root, 'test', 'fixtures', 'media');
const WRONG = join(MEDIA, 'h264-1280x720-25-aac.mp4');
const RIGHT = join(MEDIA, 'h264-1920x1080-29.97-aac-faststart.mp4');
const UNREADABLE = join(MEDIA, 'not-a-video.mp4');
const WRONG_FACTS = '1280×720 · H.264 · 25 fps · 0:02 · AAC 48 kHz stereo';
const WRONG_SENTENCE = 'The screens need 1920×1080; this file is 1280×720.';
const PASSWORD = 'Difference Engine 1843';
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `facts.${suffix}@example.com`;
const STAFF_EMAIL = `events.${suffix}@example.com`;
const THANKS = 'Thank you! Your files were received.';
const READING = 'Reading this file’s details…';
const SHOTS = process.env.E2E_SHOTS_DIR ?? join(tmpdir(), 'avp-e2e-shots');
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

type Spec = Record<string, unknown>;
const spec = (onMismatch: 'block' | 'warn'): Spec => ({
  containers: [],
  videoCodecs: [],
  resolutions: [{ width: 1920, height: 1080 }],
  frameRates: [],
  minDurationSeconds: null,
  maxDurationSeconds: null,
  audio: null,
  maxSizeBytes: null,
  onMismatch,
});

let registered: Promise<void> | undefined;
function ensureClient(baseURL: string): Promise<void> {
  registered ??= fetch(`${baseURL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({
      email: CLIENT_EMAIL,
      firstname: 'Ada',
      lastname: 'Facts',
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

let staffMade = false;
function ensureStaff(): void {
  if (staffMade) return;
  createStaff(STAFF_EMAIL, 'Events');
  staffMade = true;
}

/** A staff session for the API, signed in as the staff account of this file. */
async function staffSession(baseURL: string): Promise<APIRequestContext> {
  ensureStaff();
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const login = await api.post('/api/auth/login', {
    data: { email: STAFF_EMAIL, password: STAFF_PASSWORD, requireRole: 'staff' },
  });
  expect(login.status()).toBe(200);
  return api;
}

/** An event (open: deadline next year) whose sponsor commercials must be 1920×1080. */
async function createEvent(
  baseURL: string,
  name: string,
  onMismatch: 'block' | 'warn',
  deadline = `${NEXT_YEAR}-02-25T17:00`,
): Promise<void> {
  const api = await staffSession(baseURL);
  const res = await api.post('/api/staff/upload-events', {
    data: {
      name,
      startsOn: `${NEXT_YEAR}-03-01`,
      endsOn: `${NEXT_YEAR}-03-03`,
      timeZone: 'America/Chicago',
      deadline,
      specs: { creative: null, event: null, sponsor: spec(onMismatch) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await api.dispose();
}

function text(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('textbox', { name, exact: true });
}

async function signInAtSponsorForm(page: Page, baseURL: string): Promise<Locator> {
  await ensureClient(baseURL);
  await page.goto('/client#sponsor');
  const login = page.getByRole('form', { name: 'Sign in' });
  await text(login, 'Email').fill(CLIENT_EMAIL);
  await text(login, 'Password').fill(PASSWORD);
  await login.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Logged in as Ada Facts')).toBeVisible();
  return page.getByRole('form', { name: 'Sponsor Commercial form' });
}

/**
 * Picks a suggestion with the keyboard after typing part of it in lower case (SPEC §9: case-insensitive
 * substring); the typed part must match that suggestion only.
 */
async function pickSuggestion(field: Locator, typed: string, name: string): Promise<void> {
  const page = field.page();
  await field.focus();
  await page.keyboard.type(typed);
  await expect(page.getByRole('listbox').getByRole('option')).toHaveText([name]);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(field).toHaveValue(name);
  await expect(page.getByRole('listbox')).toHaveCount(0);
}

async function chooseEvent(form: Locator, name: string): Promise<void> {
  const field = form.getByRole('combobox', { name: /^Event name/ });
  await pickSuggestion(field, name.toLowerCase().slice(2, -3), name);
}

/** The worker, the WebAssembly, registrations and any CSP refusal the page makes. */
function watch(page: Page) {
  const seen = {
    wasm: 0,
    factsWorkers: 0,
    submissions: 0,
    registrations: [] as unknown[],
    csp: [] as string[],
  };
  page.on('request', (req) => {
    const path = new URL(req.url()).pathname;
    if (path.endsWith('.wasm')) seen.wasm++;
    if (req.method() === 'POST' && path === '/api/uploads/submissions') seen.submissions++;
    // One file a call, or many in one batch call (#34): each file's registration body either way.
    if (req.method() === 'POST' && /^\/api\/uploads\/submissions\/[^/]+\/files$/.test(path)) {
      seen.registrations.push(req.postDataJSON());
    }
    if (req.method() === 'POST' && /^\/api\/uploads\/submissions\/[^/]+\/files\/batch$/.test(path)) {
      seen.registrations.push(...(req.postDataJSON() as { files: unknown[] }).files);
    }
  });
  page.on('worker', (worker) => {
    if (/media-facts\.worker/.test(worker.url())) seen.factsWorkers++;
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content[- ]Security[- ]Policy/i.test(message.text())) {
      seen.csp.push(message.text());
    }
  });
  return seen;
}

function rowOf(form: Locator, name: string): Locator {
  // The row shows the name cut at 24 characters; its Remove button carries it whole.
  return form
    .getByRole('list', { name: 'Chosen files' })
    .getByRole('listitem')
    .filter({ has: form.page().getByRole('button', { name: `Remove ${name}`, exact: true }) });
}

async function shoot(page: Page, name: string, target?: Locator) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // The page from its top (the sticky header would otherwise sit over the middle of a full-page shot);
    // a target inside a scrolling dialog is brought into its view.
    await page.evaluate(() => window.scrollTo(0, 0));
    if (target) await target.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `media-web-${name}-${width}.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${width} px is wider than the window`).toBeLessThanOrEqual(0);
  }
}

test.describe('media facts before upload (issue #30)', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a wrong-resolution file for a blocking event shows the sentence and cannot be sent; a right one and an unreadable one can', async ({
    page,
    baseURL,
  }) => {
    const event = `Blocking Expo ${suffix}`;
    await createEvent(baseURL!, event, 'block');
    const seen = watch(page);
    const form = await signInAtSponsorForm(page, baseURL!);
    await chooseEvent(form, event);
    await expect(
      form.getByText(/screens need 1920×1080\. A file that does not match cannot be sent\./),
    ).toBeVisible();
    await text(form, 'Sponsor company').fill(`Blocked Co ${suffix}`);
    await form.getByTestId('upload-file-input').setInputFiles(WRONG);

    const row = rowOf(form, 'h264-1280x720-25-aac.mp4');
    await expect(row.getByTestId('file-facts')).toHaveText(WRONG_FACTS, { timeout: 20_000 });
    await expect(row.getByTestId('file-issues')).toContainText(WRONG_SENTENCE);
    await expect(row.getByTestId('file-issues')).toContainText('This file cannot be sent for this event.');
    const submit = form.getByRole('button', { name: 'Submit' });
    await expect(submit).toHaveAccessibleDescription(/h264-1280x720-25-aa.*cannot be sent/);
    await shoot(page, 'upload-blocked');

    await submit.click();
    const reason = form
      .getByRole('alert')
      .filter({ hasText: 'cannot be sent. Remove it or choose another file.' });
    await expect(reason).toBeFocused();
    expect(seen.submissions).toBe(0);

    // Remove it: the form is free; a right file and one that cannot be read go (the latter unchecked).
    await form.getByRole('button', { name: 'Remove h264-1280x720-25-aac.mp4' }).click();
    await expect(reason).toHaveCount(0);
    await form.getByTestId('upload-file-input').setInputFiles([RIGHT, UNREADABLE]);
    await expect(rowOf(form, 'h264-1920x1080-29.97-aac-faststart.mp4').getByTestId('file-facts')).toHaveText(
      '1920×1080 · H.264 · 29.97 fps · 0:02 · AAC 48 kHz stereo',
      { timeout: 20_000 },
    );
    await expect(rowOf(form, 'not-a-video.mp4').getByTestId('file-facts')).toHaveText(
      "Could not read this file's details · It will be sent as it is.",
      { timeout: 20_000 },
    );
    await expect(form.getByTestId('file-issues')).toHaveCount(0);
    await submit.click();
    await expect(page.getByText(THANKS)).toBeVisible({ timeout: 30_000 });
    expect(seen.submissions).toBe(1);
    expect(seen.registrations).toHaveLength(2);
    expect(seen.registrations).toContainEqual(
      expect.objectContaining({ name: 'not-a-video.mp4', facts: null }),
    );
    expect(seen.registrations).toContainEqual(
      expect.objectContaining({
        name: 'h264-1920x1080-29.97-aac-faststart.mp4',
        facts: expect.objectContaining({ width: 1920, height: 1080, videoCodec: 'H.264' }),
      }),
    );
    expect(seen.factsWorkers).toBeGreaterThan(0);
    expect(seen.wasm).toBeGreaterThan(0);
    expect(seen.csp).toEqual([]);
  });

  test('reading never holds up the others: files still being read at Submit join when read; a blocked one is kept back and named', async ({
    page,
    baseURL,
  }) => {
    const event = `Late Read Expo ${suffix}`;
    await createEvent(baseURL!, event, 'block');
    const seen = watch(page);
    // The WebAssembly is held back until after Submit, so that no file has been read by then.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.context().route('**/*.wasm', async (route) => {
      await held;
      await route.continue();
    });
    const form = await signInAtSponsorForm(page, baseURL!);
    await chooseEvent(form, event);
    await text(form, 'Sponsor company').fill(`Late Co ${suffix}`);
    await form.getByTestId('upload-file-input').setInputFiles([WRONG, RIGHT]);
    await expect(form.getByTestId('file-facts')).toHaveText([READING, READING]);
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByTestId('upload-held-row')).toHaveCount(2);
    await expect(page.getByTestId('upload-held-row').first()).toContainText('Reading its details');
    release();
    await expect(page.getByText(THANKS)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(`Not sent: h264-1280x720-25-aac.mp4. ${WRONG_SENTENCE}`)).toBeVisible();
    expect(seen.registrations).toEqual([
      expect.objectContaining({
        name: 'h264-1920x1080-29.97-aac-faststart.mp4',
        facts: expect.objectContaining({ width: 1920, height: 1080 }),
      }),
    ]);
  });

  test('a warning event sends the wrong-resolution file with its facts, and staff see it flagged in the inbox', async ({
    page,
    browser,
    baseURL,
  }) => {
    const event = `Warning Expo ${suffix}`;
    const company = `Warned Co ${suffix}`;
    await createEvent(baseURL!, event, 'warn');
    const seen = watch(page);
    const form = await signInAtSponsorForm(page, baseURL!);
    await chooseEvent(form, event);
    await expect(
      form.getByText(/A file that does not match is sent with a note for our team\./),
    ).toBeVisible();
    await text(form, 'Sponsor company').fill(company);
    await form.getByTestId('upload-file-input').setInputFiles(WRONG);
    const row = rowOf(form, 'h264-1280x720-25-aac.mp4');
    await expect(row.getByTestId('file-issues')).toContainText(WRONG_SENTENCE, { timeout: 20_000 });
    await expect(row.getByTestId('file-issues')).toContainText(
      'It can be sent; our team will see these notes with it.',
    );
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(THANKS)).toBeVisible({ timeout: 30_000 });
    expect(seen.registrations).toEqual([
      expect.objectContaining({
        name: 'h264-1280x720-25-aac.mp4',
        facts: expect.objectContaining({ width: 1280, height: 720, fps: 25 }),
      }),
    ]);
    expect(seen.csp).toEqual([]);

    // Staff: the inbox names the file's facts and the mismatch (media-api's part of the inbox).
    ensureStaff();
    const context = await browser.newContext({ baseURL });
    const staff = await context.newPage();
    await staff.goto('/staff/uploads');
    const login = staff.getByRole('form', { name: 'Staff sign in' });
    await text(login, 'Email').fill(STAFF_EMAIL);
    await text(login, 'Password').fill(STAFF_PASSWORD);
    await login.getByRole('button', { name: 'Sign in', exact: true }).click();
    // The inbox is paged, and every test of the run sends to one server: search for this test's company.
    const search = staff.getByRole('search', { name: 'Search the inbox' });
    await search.getByRole('searchbox', { name: 'Search' }).fill(company);
    await search.getByRole('button', { name: 'Search' }).click();
    const submission = staff.getByRole('article').filter({ hasText: company });
    await expect(submission).toHaveCount(1, { timeout: 15_000 });
    await expect(submission).toContainText('1280×720');
    await expect(submission).toContainText('1 issue');
    await submission
      .getByRole('button', { name: /^1 issue .*: show for h264-1280x720-25-aac\.mp4$/ })
      .click();
    await expect(submission.getByText(WRONG_SENTENCE)).toBeVisible();
    await context.close();
  });

  test('a free-text event name checks nothing: the facts show, no sentence, and the file is sent', async ({
    page,
    baseURL,
  }) => {
    const seen = watch(page);
    const form = await signInAtSponsorForm(page, baseURL!);
    const field = form.getByRole('combobox', { name: /^Event name/ });
    await field.fill(`Some Other Show ${suffix}`);
    await field.press('Tab');
    await expect(form.getByText(/screens need/)).toHaveCount(0);
    await text(form, 'Sponsor company').fill(`Free Co ${suffix}`);
    await form.getByTestId('upload-file-input').setInputFiles(WRONG);
    const row = rowOf(form, 'h264-1280x720-25-aac.mp4');
    await expect(row.getByTestId('file-facts')).toHaveText(WRONG_FACTS, { timeout: 20_000 });
    await expect(form.getByTestId('file-issues')).toHaveCount(0);
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(THANKS)).toBeVisible({ timeout: 30_000 });
    expect(seen.registrations).toHaveLength(1);
  });

  test('an event whose deadline has passed is not offered, and a submission naming it is refused with the deadline in its zone', async ({
    page,
    baseURL,
  }) => {
    const event = `Closed Expo ${suffix}`;
    await createEvent(baseURL!, event, 'block', '2020-01-02T17:00');
    const seen = watch(page);
    const form = await signInAtSponsorForm(page, baseURL!);
    const field = form.getByRole('combobox', { name: /^Event name/ });
    await field.focus();
    await page.keyboard.type('closed expo');
    await expect(page.getByRole('listbox')).toContainText('-- empty --');
    await page.keyboard.press('Escape');
    await field.fill(event.toUpperCase());
    await field.press('Tab');
    await text(form, 'Sponsor company').fill(`Late Co ${suffix}`);
    await form.getByTestId('upload-file-input').setInputFiles(RIGHT);
    await form.getByRole('button', { name: 'Submit' }).click();
    const refusal = page
      .getByRole('alert')
      .filter({ hasText: `Uploads for ${event} closed on Jan 2, 2020, 5:00 PM CST.` });
    await expect(refusal).toBeVisible();
    await expect(refusal).toBeFocused();
    expect(seen.registrations).toHaveLength(0);
  });

  test('staff create an event with a sponsor spec in the staff shell', async ({ page }) => {
    ensureStaff();
    const name = `Staff Made Summit ${suffix}`;
    await page.goto('/staff/upload-events');
    const login = page.getByRole('form', { name: 'Staff sign in' });
    await text(login, 'Email').fill(STAFF_EMAIL);
    await text(login, 'Password').fill(STAFF_PASSWORD);
    await login.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Upload events' })).toBeVisible();

    await page.getByRole('button', { name: 'New event' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Please enter the event name.')).toBeVisible();
    await expect(text(dialog, 'Name')).toBeFocused();

    await text(dialog, 'Name').fill(name);
    await text(dialog, 'First day').fill(`3/1/${NEXT_YEAR}`);
    await text(dialog, 'Last day').fill(`3/3/${NEXT_YEAR}`);
    const zone = dialog.getByRole('combobox', { name: /^Time zone/ });
    await zone.fill('');
    await pickSuggestion(zone, 'chicago', 'America/Chicago');
    await text(dialog, 'Upload deadline: day').fill(`2/25/${NEXT_YEAR}`);
    await text(dialog, 'Upload deadline: time').fill('5:00 PM');
    await text(dialog, 'Upload deadline: time').press('Tab');
    const sponsor = dialog.getByRole('group', { name: 'Sponsor Commercial files' });
    await sponsor.getByText('Check Sponsor Commercial files against a media spec').click();
    await sponsor.getByText('Blocks: it cannot be sent').click();
    await sponsor.getByRole('button', { name: 'Add 1920×1080' }).click();
    await sponsor.getByRole('button', { name: 'Add resolution' }).click();
    const second = sponsor.getByRole('group', { name: 'Resolution 2' });
    await text(second, 'Width').fill('3840');
    await text(second, 'Height').fill('2160');
    await sponsor.getByText('H.264', { exact: true }).click();
    await text(sponsor, 'Longest run').fill('0:30');
    await sponsor.getByText('No audio', { exact: true }).click();
    await text(sponsor, 'Largest file').fill('2');
    await shoot(page, 'staff-event-dialog', sponsor);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);

    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Open');
    await expect(row).toContainText(`Feb 25, ${NEXT_YEAR}, 5:00 PM CST`);
    await expect(row).toContainText(
      'Sponsor Commercial: H.264 · 1920×1080 or 3840×2160 · at most 0:30 · no audio · up to 2 GB (blocks)',
    );
    await shoot(page, 'staff-events');

    // Edit shows what was saved; archive (confirmed) takes it off the forms, restore puts it back.
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog');
    await expect(text(edit, 'Name')).toHaveValue(name);
    await expect(text(edit.getByRole('group', { name: 'Resolution 2' }), 'Width')).toHaveValue('3840');
    await expect(text(edit, 'Longest run')).toHaveValue('0:30');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: `Archive ${name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Archive' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Archived: ${name}.` })).toBeVisible();
    await expect(row).toContainText('Archived');
    await page.getByRole('button', { name: `Restore ${name}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `Restored: ${name}.` })).toBeVisible();
    await expect(row).toContainText('Open');
  });

  test('the marketing pages load neither the media-facts worker nor the WebAssembly', async ({ page }) => {
    const seen = watch(page);
    for (const path of ['/', '/creative_services', '/contact']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    expect(seen.wasm).toBe(0);
    expect(seen.factsWorkers).toBe(0);
  });
});

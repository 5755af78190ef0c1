import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, connect } from 'node:net';
import type { Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  type Bridge,
  CLIENT_PASSWORD,
  openSection,
  registerClient,
  signIn,
  startBridge,
  textbox,
  useRendererBuild,
  watchConsole,
} from '../support/desktop-window';
import { expect, test } from '../support/fixtures';

/**
 * The desktop uploader's renderer in Chromium, served by the development bridge
 * (desktop/src/bridge), which relays the calls to the app's engine process (desktop/src/engine-host,
 * forked as a Node child) as the app's main process does, talking to the real API server of the global
 * setup. Nothing of ours is replaced: the page's
 * window.avUpload is the bridge's HTTP client, the engine reads the files from disk and the server
 * verifies their sha-256. Files reach the page through the bridge's 'Development bridge' panel, which
 * drops typed paths on the window as the operating system would (a browser cannot name a file's path),
 * and whose 'Folder to choose' field answers the app's folder chooser.
 *
 * One bridge per test (each is a fresh app: memory vault, memory queue). The desktop is compiled once
 * per worker (tsc -b, under a lock shared with desktop-electron.spec.ts) and the renderer built into a
 * folder of the worker's own, so no build ever replaces files a running page is loading.
 */

const PASSWORD = CLIENT_PASSWORD;
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `desktop.${suffix}@example.com`;
const LOGIN_FAILED =
  'Your email or your password did not match our records, please re-enter your login credentials.';

// The tests share the build of beforeAll; they run one after another in one worker.
test.describe.configure({ mode: 'default' });

const rendererDir = useRendererBuild();

let registered: Promise<void> | undefined;
/** The client account, registered once per worker through the API (registration has its own spec). */
function ensureClient(baseURL: string): Promise<void> {
  registered ??= registerClient(baseURL, CLIENT_EMAIL, 'Desktop');
  return registered;
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The queue in one line, as announced (the line on screen says the same with speed and time left). */
function overallStatus(page: Page): Locator {
  return page.getByTestId('overall-status').getByRole('status');
}

/** The bandwidth limit in KB/s (0 = unlimited), saved. */
async function setBandwidth(page: Page, kbPerSecond: number) {
  await openSection(page, 'Settings');
  const field = textbox(page, 'Bandwidth limit (KB/s)');
  await field.fill(String(kbPerSecond));
  await field.press('Tab');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(field).toHaveValue(String(kbPerSecond));
}

/** Paths dropped on the window through the bridge's development panel. */
async function dropPaths(page: Page, paths: string[]) {
  const panel = page.getByRole('complementary', { name: 'Development bridge' });
  await panel.getByText('Development bridge').click();
  await panel.getByRole('textbox', { name: 'Paths to drop (one per line)' }).fill(paths.join('\n'));
  await panel.getByRole('button', { name: 'Drop paths' }).click();
  await expect(panel.getByRole('status')).toHaveText(`Dropped ${paths.length} path(s).`);
}

/** What the app's folder chooser answers: the bridge panel's 'Folder to choose' field. */
async function setChosenFolder(page: Page, folder: string) {
  const panel = page.getByRole('complementary', { name: 'Development bridge' });
  const summary = panel.getByText('Development bridge');
  await summary.click();
  await panel.getByRole('textbox', { name: 'Folder to choose' }).fill(folder);
  // Folded away again so it never covers the app's own controls.
  await summary.click();
}

/** The window at a typical size and at a phone's width, for a person to look at (test output folder). */
async function screenshots(page: Page, name: string) {
  for (const [width, height] of [
    [1000, 700],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function sponsorForm(page: Page, eventName: string, paths: string[]) {
  await openSection(page, 'New upload');
  const form = page.getByRole('form', { name: 'New upload' });
  await form.getByText('Sponsor Commercial', { exact: true }).click();
  await expect(form.getByRole('radio', { name: 'Sponsor Commercial' })).toBeChecked();
  // Event name suggests the open upload events (#30): a combobox whose popover closes with Escape.
  const eventField = form.getByRole('combobox', { name: /^Event name/ });
  await eventField.fill(eventName);
  await eventField.press('Escape');
  await textbox(form, 'Sponsor company').fill('Acme AV');
  await dropPaths(page, paths);
  await expect(form.getByRole('list', { name: 'Chosen files' }).getByRole('listitem')).toHaveCount(
    paths.length,
  );
  return form;
}

let bridge: Bridge;
let dir: string;

test.beforeEach(async ({ baseURL }) => {
  await ensureClient(baseURL!);
  bridge = await startBridge(baseURL!, { rendererDir: rendererDir() });
  dir = mkdtempSync(join(tmpdir(), 'avp-e2e-desktop-'));
});

test.afterEach(async () => {
  await bridge?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('signs in, queues two files, pauses and resumes one; the history shows both with their sha-256', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const problems = watchConsole(page);
  const keynote = join(dir, 'keynote-session-final-cut-v2.mp4');
  // Five parts of 6 MiB: one more than the four the engine keeps in flight.
  const keynoteBytes = randomBytes(26 * 1024 * 1024);
  writeFileSync(keynote, keynoteBytes);
  const logo = join(dir, 'logo.png');
  const logoBytes = randomBytes(150 * 1024);
  writeFileSync(logo, logoBytes);
  const marker = `Expo ${suffix}`;

  await page.goto(bridge.url);
  await expect(page).toHaveTitle('AV Uploader');
  await signIn(page, baseURL!, CLIENT_EMAIL, PASSWORD);
  await expect(overallStatus(page)).toHaveText('Nothing to upload.');

  // Slow enough (26 MiB at 256 KB/s) to pause the keynote on its way.
  await setBandwidth(page, 256);
  const form = await sponsorForm(page, marker, [keynote, logo]);
  // Names cut at 24 characters (SPEC §2), the whole path on hover.
  await expect(form.getByText('keynote-session-final-cu…', { exact: true })).toHaveAttribute(
    'title',
    keynote,
  );
  await form.getByRole('button', { name: 'Submit' }).click();

  await expect(page.getByRole('heading', { level: 2, name: 'Queue' })).toBeVisible();
  await expect(page.getByText('Added to the queue: 2 items.')).toBeVisible();
  await expect(page.getByRole('article', { name: `Sponsor Commercial: ${marker} · Acme AV` })).toBeVisible();
  const rowOf = (name: string) => page.getByTestId('queue-file').filter({ hasText: name });
  const keynoteRow = rowOf('keynote-session-final-cu…');
  const logoRow = rowOf('logo.png');
  // The next file may begin once the keynote's other parts are on their way, its last part waiting for
  // their answers (#34); but the four parts in flight are the keynote's, so nothing of the logo is sent:
  // Waiting, or Sending at 0%, depending on how far the keynote got when the row is read.
  await expect(keynoteRow).toContainText('Sending');
  await expect(logoRow.getByTestId('queue-file-state')).toHaveText(/^(Waiting|Sending)$/);
  await expect(logoRow.locator('.app-progress__percent')).toHaveText('0%');
  await expect(page.getByRole('progressbar', { name: 'Overall progress' })).toBeVisible();
  await expect(overallStatus(page)).toHaveText(/^Uploading: \d+%$/);
  // On screen the same line carries the speed and the time left.
  await expect(page.getByTestId('overall-status')).toContainText(/Uploading: \d+% · /);

  await page.getByRole('button', { name: 'Pause keynote-session-final-cut-v2.mp4' }).click();
  await expect(keynoteRow).toContainText('Paused');
  await expect(page.getByRole('button', { name: 'Resume keynote-session-final-cut-v2.mp4' })).toBeVisible();
  // The queue moves on to the logo, which arrives whole; the paused keynote stays paused.
  await expect(logoRow).toContainText('Done');
  await expect(logoRow).toContainText('100%');
  await expect(keynoteRow).toContainText('Paused');
  await expect(overallStatus(page)).toHaveText(/^Paused at \d+%\.$/);
  await openSection(page, 'History');
  await expect(page.getByText('No finished submissions yet.')).toBeVisible();

  await setBandwidth(page, 0);
  await openSection(page, 'Queue');
  await page.getByRole('button', { name: 'Resume keynote-session-final-cut-v2.mp4' }).click();
  await expect(page.getByText('No uploads in the queue. Start one from New upload.')).toBeVisible({
    timeout: 20_000,
  });

  await openSection(page, 'History');
  const entry = page.getByRole('article', { name: `Sponsor Commercial: ${marker} · Acme AV` });
  await expect(entry.getByRole('row')).toHaveCount(3);
  await expect(entry.getByRole('row', { name: /keynote-session-final-cu…/ })).toContainText(
    sha(keynoteBytes),
  );
  await expect(entry.getByRole('row', { name: /logo\.png/ })).toContainText(sha(logoBytes));
  await expect(entry.getByRole('row', { name: /logo\.png/ })).toContainText('150 KB');
  expect(problems).toEqual([]);
});

test('a file changed on disk while paused is stopped with a clear message', async ({ page, baseURL }) => {
  const problems = watchConsole(page);
  const clip = join(dir, 'closing-titles.mov');
  writeFileSync(clip, randomBytes(1024 * 1024));

  await page.goto(bridge.url);
  await signIn(page, baseURL!, CLIENT_EMAIL, PASSWORD);
  await setBandwidth(page, 64);
  const form = await sponsorForm(page, `Changed ${suffix}`, [clip]);
  await form.getByRole('button', { name: 'Submit' }).click();
  const row = page.getByTestId('queue-file').filter({ hasText: 'closing-titles.mov' });
  await expect(row).toContainText('Sending');
  await page.getByRole('button', { name: 'Pause all' }).click();
  await expect(row).toContainText('Paused');

  appendFileSync(clip, 'an edit after it was queued');
  await page.getByRole('button', { name: 'Resume all' }).click();
  await expect(row).toContainText('Failed');
  await expect(row.getByRole('alert')).toHaveText(
    '"closing-titles.mov" changed on disk after it was queued (its size or modified time differs), so it ' +
      'was stopped rather than sending a mix of old and new bytes. Add it again to send the new version.',
  );
  // Nothing to retry: the message says to add it again.
  await expect(row.getByRole('button')).toHaveCount(0);
  await expect(overallStatus(page)).toHaveText('1 upload has stopped: see the queue.');
  expect(problems).toEqual([]);
});

test('shows the web portal’s sign-in and form messages, and signs out', async ({ page, baseURL }) => {
  const problems = watchConsole(page);
  const still = join(dir, 'a-very-long-file-name-for-the-list.txt');
  writeFileSync(still, 'x');
  await page.goto(bridge.url);

  const signInForm = page.getByRole('form', { name: 'Sign in' });
  await signInForm.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(signInForm.getByText('Please enter your email address.', { exact: true })).toBeVisible();
  await expect(
    signInForm.getByText('Please enter your password (case sensitive).', { exact: true }),
  ).toBeVisible();
  await expect(textbox(signInForm, 'Email')).toBeFocused();

  // Wrong credentials: the spec's message, and the password cleared.
  await textbox(signInForm, 'Server').fill(baseURL!);
  await textbox(signInForm, 'Email').fill(CLIENT_EMAIL);
  await textbox(signInForm, 'Password').fill('not the password');
  await textbox(signInForm, 'Password').press('Enter');
  await expect(signInForm.getByRole('alert')).toHaveText(LOGIN_FAILED);
  await expect(textbox(signInForm, 'Password')).toHaveValue('');
  await signIn(page, baseURL!, CLIENT_EMAIL, PASSWORD);

  const form = page.getByRole('form', { name: 'New upload' });
  await expect(form.getByRole('radio', { name: 'Creative Asset' })).toBeChecked();
  await expect(form.getByText('No files chosen yet.')).toBeVisible();
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText('Please enter a project name.', { exact: true })).toBeVisible();
  await expect(form.getByText('Please Add a File.', { exact: true })).toBeVisible();
  await expect(textbox(form, 'Project name')).toBeFocused();

  // The form choice by keyboard: arrows move the one selection.
  await form.getByRole('radio', { name: 'Creative Asset' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(form.getByRole('radio', { name: 'Event Asset' })).toBeChecked();
  for (const message of [
    'Please enter an event name.',
    'Please choose a date.',
    'Please choose an hour.',
    'Please choose the minutes.',
    'Please choose AM or PM.',
    'Please enter a speaker name.',
    'Please Add a File.',
  ]) {
    await expect(form.getByText(message, { exact: true })).toBeVisible();
  }

  await form.getByText('Sponsor Commercial', { exact: true }).click();
  await expect(form.getByText('Please enter a sponsor company.', { exact: true })).toBeVisible();
  await expect(form.getByText('Please enter a speaker name.', { exact: true })).toHaveCount(0);
  // A file clears the file message; its name is cut at 24 characters.
  await dropPaths(page, [still]);
  await expect(form.getByText('a-very-long-file-name-fo…', { exact: true })).toBeVisible();
  await expect(form.getByText('Please Add a File.', { exact: true })).toHaveCount(0);
  await form.getByRole('button', { name: 'Remove a-very-long-file-name-for-the-list.txt' }).click();
  await expect(form.getByText('Please Add a File.', { exact: true })).toBeVisible();
  // Nothing was sent.
  await openSection(page, 'Queue');
  await expect(page.getByText('No uploads in the queue. Start one from New upload.')).toBeVisible();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  await expect(
    page.getByText('You are signed out. Uploads in the queue are paused until you sign in again.'),
  ).toBeVisible();
  // The token is gone: a fresh page of the same bridge asks to sign in again.
  await page.reload();
  await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('the bridge answers only its own page: another origin or host name is refused', async () => {
  const { port } = new URL(bridge.url);
  // node:http, since fetch does not let a caller choose the Host header.
  const call = (headers: Record<string, string>) =>
    new Promise<number>((ok, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/__bridge/api/session',
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
        },
        (res) => {
          res.resume();
          ok(res.statusCode ?? 0);
        },
      );
      req.on('error', fail);
      req.end('[]');
    });
  expect(await call({})).toBe(200);
  expect(await call({ origin: 'https://example.com' })).toBe(403);
  // A name that resolves to the loopback (DNS rebinding) is not the bridge's own.
  expect(await call({ host: `rebind.example.com:${port}` })).toBe(421);
  const page = await fetch(bridge.url);
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
});

test('watches a folder: a file put in it is sent once it stops growing, with its sha-256', async ({
  page,
  baseURL,
}) => {
  // The watcher waits 10 s for a file to stop growing, then sends it.
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  const watched = join(dir, 'exports');
  mkdirSync(watched);
  const marker = `Watch ${suffix}`;

  await page.goto(bridge.url);
  await signIn(page, baseURL!, CLIENT_EMAIL, PASSWORD);
  await openSection(page, 'Watch folders');
  await expect(
    page.getByText('No folders are watched yet. Add one to send the files you put in it.'),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Add a watch folder' }).click();
  const form = page.getByRole('form', { name: 'Add a watch folder' });
  // Nothing chosen: the folder's message and the upload form's own messages.
  await form.getByRole('button', { name: 'Start watching' }).click();
  await expect(form.getByText('Choose a folder to watch.', { exact: true })).toBeVisible();
  await expect(form.getByText('Please enter a project name.', { exact: true })).toBeVisible();
  await expect(form.getByRole('button', { name: 'Choose a folder…' })).toBeFocused();
  // The chooser closed without a folder changes nothing.
  await form.getByRole('button', { name: 'Choose a folder…' }).click();
  await expect(form.getByText('No folder chosen yet.')).toBeVisible();

  await setChosenFolder(page, watched);
  await form.getByRole('button', { name: 'Choose a folder…' }).click();
  await expect(form.getByText(watched, { exact: true })).toBeVisible();
  await expect(form.getByText('Choose a folder to watch.', { exact: true })).toHaveCount(0);
  await form.getByText('Sponsor Commercial', { exact: true }).click();
  await expect(form.getByText('Please enter a sponsor company.', { exact: true })).toBeVisible();
  await textbox(form, 'Event name').fill(marker);
  await textbox(form, 'Sponsor company').fill('Acme AV');
  await form.getByRole('button', { name: 'Start watching' }).click();

  await expect(page.getByRole('status').filter({ hasText: `Watching ${watched}.` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a watch folder' })).toBeFocused();
  const item = page.getByRole('list', { name: 'Watched folders' }).getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(watched);
  await expect(item).toContainText(`Sponsor Commercial: ${marker} · Acme AV`);
  await expect(item).toContainText('0 files sent');

  // The same folder twice is refused with a clear message.
  await page.getByRole('button', { name: 'Add a watch folder' }).click();
  await form.getByRole('button', { name: 'Choose a folder…' }).click();
  await form.getByText('Sponsor Commercial', { exact: true }).click();
  await textbox(form, 'Event name').fill(marker);
  await textbox(form, 'Sponsor company').fill('Acme AV');
  await form.getByRole('button', { name: 'Start watching' }).click();
  await expect(form.getByRole('alert')).toHaveText(`${watched} is already watched.`);
  await screenshots(page, 'desktop-watch-folders');
  await form.getByRole('button', { name: 'Cancel' }).click();

  // A file appears in the folder on disk, as an export finishing would leave it.
  const clipBytes = randomBytes(300 * 1024);
  writeFileSync(join(watched, 'booth-loop.mp4'), clipBytes);
  await expect(item).toContainText('1 file sent', { timeout: 30_000 });
  await openSection(page, 'History');
  const entry = page.getByRole('article', { name: `Sponsor Commercial: ${marker} · Acme AV` });
  await expect(entry.getByRole('row', { name: /booth-loop\.mp4/ })).toContainText(sha(clipBytes), {
    timeout: 20_000,
  });

  // Removing asks first, then the list is empty again.
  await openSection(page, 'Watch folders');
  await page.getByRole('button', { name: `Remove the watch folder ${watched}` }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`New files in ${watched} will no longer be sent.`);
  await dialog.getByRole('button', { name: 'Stop watching' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Stopped watching ${watched}.` })).toBeVisible();
  await expect(
    page.getByText('No folders are watched yet. Add one to send the files you put in it.'),
  ).toBeVisible();
  expect(problems).toEqual([]);
});

test('a bandwidth window is checked, saved, in force now and kept after a reload; the log file is named', async ({
  page,
  baseURL,
}) => {
  // The bridge's start (up to 15 s, in beforeEach), two saves through the engine process, a reload and
  // screenshots at two sizes: about 20 s alone, near 30 s on a loaded machine.
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  await page.goto(bridge.url);
  await signIn(page, baseURL!, CLIENT_EMAIL, PASSWORD);
  await openSection(page, 'Settings');
  const inForce = page.getByTestId('rate-in-force');
  await expect(inForce).toHaveText(
    'In force now: unlimited (the bandwidth limit; no window applies at this hour).',
  );
  await expect(page.getByText('No windows: the bandwidth limit applies at all hours.')).toBeVisible();

  await page.getByRole('button', { name: 'Add a window' }).click();
  const windowOne = page.getByRole('group', { name: 'Window 1', exact: true });
  // Office hours by default.
  await expect(windowOne.getByRole('checkbox', { name: 'Mon' })).toBeChecked();
  await expect(windowOne.getByRole('checkbox', { name: 'Sun' })).not.toBeChecked();
  await expect(windowOne.getByRole('button', { name: /From/ })).toContainText('09:00');

  // Every message at once: no day, and a window that ends when it starts.
  for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])
    await windowOne.getByText(day, { exact: true }).click();
  const hour = new Date().getHours();
  const at = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
  await windowOne.getByRole('button', { name: /From/ }).click();
  await page.getByRole('option', { name: at(hour), exact: true }).click();
  await windowOne.getByRole('button', { name: /To/ }).click();
  await page.getByRole('option', { name: at(hour), exact: true }).click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(windowOne.getByText('Choose at least one day.')).toBeVisible();
  await expect(windowOne.getByText('A window must not start and end at the same time.')).toBeVisible();
  await expect(windowOne.getByRole('checkbox', { name: 'Mon' })).toBeFocused();

  // Every day, from this hour for two hours, at 256 KB/s: in force now.
  for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'])
    await windowOne.getByText(day, { exact: true }).click();
  await expect(windowOne.getByText('Choose at least one day.')).toHaveCount(0);
  await windowOne.getByRole('button', { name: /To/ }).click();
  await page.getByRole('option', { name: at(hour + 2), exact: true }).click();
  await expect(windowOne.getByText('A window must not start and end at the same time.')).toHaveCount(0);
  const rate = textbox(windowOne, 'Rate (KB/s)');
  await rate.fill('256');
  await rate.press('Tab');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  const expected = `In force now: 256 KB/s, from the window every day ${at(hour)}–${at(hour + 2)}.`;
  await expect(inForce).toHaveText(expected);

  await page.getByRole('button', { name: 'Show log file' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'This window keeps no log file.' })).toBeVisible();

  await screenshots(page, 'desktop-settings-schedule');

  // Kept by the engine: a fresh page shows it again.
  await page.reload();
  await expect(page.getByText(`Signed in as ${CLIENT_EMAIL}`)).toBeVisible();
  await openSection(page, 'Settings');
  await expect(inForce).toHaveText(expected);
  const kept = page.getByRole('group', { name: 'Window 1', exact: true });
  await expect(kept.getByRole('button', { name: /From/ })).toContainText(at(hour));
  await expect(kept.getByRole('button', { name: /To/ })).toContainText(at(hour + 2));
  await expect(textbox(kept, 'Rate (KB/s)')).toHaveValue('256');
  await expect(kept.getByRole('checkbox', { name: 'Sun' })).toBeChecked();

  await kept.getByRole('button', { name: 'Remove window 1' }).click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(inForce).toHaveText(
    'In force now: unlimited (the bandwidth limit; no window applies at this hour).',
  );
  expect(problems).toEqual([]);
});

/**
 * A TCP relay of our own in front of the API: the test "stops the server" by closing it (new connections
 * are refused, open ones cut) and "starts it again" on the same port, as a venue network comes and goes.
 */
async function relay(target: string): Promise<{ url: string; down(): Promise<void>; up(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let at = 0;
  const up = () =>
    new Promise<void>((ok) => {
      server = createServer((client) => {
        const upstream = connect(Number(port), hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(at, '127.0.0.1', () => {
        at = (server!.address() as { port: number }).port;
        ok();
      });
    });
  const down = () =>
    new Promise<void>((ok) => {
      for (const s of sockets) s.destroy();
      if (server) server.close(() => ok());
      else ok();
      server = null;
    });
  await up();
  return { url: `http://127.0.0.1:${at}`, down, up };
}

/** For a person to look at: the window at 1280×800 and a narrow window, under /work/notes/shots when present. */
async function shots(page: Page, name: string) {
  const folder = process.env.AVP_SHOTS_DIR;
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    const path = folder
      ? join(folder, `${name}-${width}.png`)
      : test.info().outputPath(`${name}-${width}.png`);
    await page.screenshot({ path });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('with the server down a job is queued at once, the window says it waits and when it tries next, and Retry now sends it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const problems = watchConsole(page);
  const link = await relay(baseURL!);
  const clip = join(dir, 'venue-wifi.mov');
  const bytes = randomBytes(512 * 1024);
  writeFileSync(clip, bytes);
  const marker = `Offline ${suffix}`;
  await page.goto(bridge.url);
  await signIn(page, link.url, CLIENT_EMAIL, PASSWORD);

  await link.down();
  await openSection(page, 'Queue');
  const form = await sponsorForm(page, marker, [clip]);
  await form.getByRole('button', { name: 'Submit' }).click();
  // Queued at once, not after the server was given up on.
  await expect(page.getByText('Added to the queue: 1 item.')).toBeVisible();
  const banner = page.getByRole('region', { name: 'Waiting for the server' });
  await expect(banner.getByTestId('waiting-line')).toHaveText(
    /^Waiting for the server — 1 file queued, (next try in \d+ s|trying now…)$/,
  );
  await expect(banner).toContainText(`Nothing answers at ${link.url} (the connection was refused).`);
  await expect(
    page.getByRole('status').filter({ hasText: 'Waiting for the server — 1 file queued.' }),
  ).toHaveCount(1);
  await expect(page.getByRole('article', { name: `Sponsor Commercial: ${marker} · Acme AV` })).toContainText(
    'Saved here, waiting for the server',
  );
  await expect(page.locator('body')).not.toContainText(/ECONNREFUSED|ENOENT|connect E/);
  await expect(page.getByTestId('overall-status')).toContainText('Waiting for the server at 0%.');
  await shots(page, 'engine-waiting');

  await link.up();
  await banner.getByRole('button', { name: 'Retry now' }).click();
  await expect(banner).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: 'The server answers again.' })).toHaveCount(1);
  await expect(page.getByText('No uploads in the queue. Start one from New upload.')).toBeVisible({
    timeout: 20_000,
  });
  await openSection(page, 'History');
  const entry = page.getByRole('article', { name: `Sponsor Commercial: ${marker} · Acme AV` });
  await expect(entry.getByRole('row', { name: /venue-wifi\.mov/ })).toContainText(sha(bytes));
  await link.down();
  expect(problems).toEqual([]);
});

test('a dropped path that does not exist is refused at once, by name and reason', async ({
  page,
  baseURL,
}) => {
  const problems = watchConsole(page);
  const real = join(dir, 'real.mov');
  writeFileSync(real, randomBytes(1000));
  const missing = join(dir, 'renamed-since.mov');
  const empty = join(dir, 'empty exports');
  mkdirSync(empty);
  await page.goto(bridge.url);
  await signIn(page, baseURL!, CLIENT_EMAIL, PASSWORD);
  // New upload is the first section shown.
  await dropPaths(page, [real, missing, empty]);
  const form = page.getByRole('form', { name: 'New upload' });
  await expect(
    form.getByText('Not added: renamed-since.mov does not exist; empty exports is an empty folder.'),
  ).toBeVisible();
  await expect(form.getByRole('list', { name: 'Chosen files' }).getByRole('listitem')).toHaveCount(1);
  await expect(form.getByRole('list', { name: 'Chosen files' })).toContainText('real.mov');
  await shots(page, 'engine-refused-path');
  expect(problems).toEqual([]);
});

test('the bandwidth field keeps what is typed (10000 KB/s stays 10000), and the bridge panel covers no control', async ({
  page,
  baseURL,
}) => {
  await page.goto(bridge.url);
  await signIn(page, baseURL!, CLIENT_EMAIL, PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  const choose = page.getByRole('button', { name: 'Choose files' });
  const panel = page.getByRole('complementary', { name: 'Development bridge' });
  const a = (await choose.boundingBox())!;
  const b = (await panel.boundingBox())!;
  const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlap).toBe(false);
  await choose.click({ trial: true });
  await shots(page, 'engine-new-upload');
  await setBandwidth(page, 10000);
  await page.reload();
  await openSection(page, 'Settings');
  await expect(textbox(page, 'Bandwidth limit (KB/s)')).toHaveValue('10000');
  await expect(
    page.getByText('in KB/s as the progress shows them (1 KB = 1024 bytes)', { exact: false }),
  ).toBeVisible();
  await shots(page, 'engine-settings');
});

import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import {
  type Bridge,
  CLIENT_PASSWORD,
  openSection,
  registerClient,
  signIn,
  startBridge as startBridgeProcess,
  textbox,
  useRendererBuild,
  watchConsole,
} from '../support/desktop-window';
import { expect, test } from '../support/fixtures';
import { startServerProcess, type ServerProcess } from '../support/server-process';

/**
 * Cloud accounts in the desktop window, through the development bridge, which keeps the
 * accounts in its own process as the app's main process does and shows the sign-in page it would open in
 * the system browser as a link in its panel. The test visits that address as the system browser would:
 * the stand-in authorization server (desktop/test/helpers/cloud-auth.ts) consents and redirects to the
 * loopback the app listens on. The API server's import sources are the API tests' provider stand-ins,
 * so the server copies the picked files itself and verifies their sha-256. Nothing of ours is replaced.
 *
 * Box is left unconfigured here, to show the 'not configured' state with its message.
 */

const root = resolve(import.meta.dirname, '..', '..');
const PASSWORD = CLIENT_PASSWORD;
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const EMAIL = `desktop.cloud.${suffix}@example.com`;
const MIB = 1024 * 1024;
/** Where the screenshots for a person to look at go (default: the test's output folder). */
const SHOTS = process.env.E2E_SHOTS_DIR;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test.describe.configure({ mode: 'default' });

/**
 * The stand-ins the desktop's own tests use (desktop/test/helpers), loaded by address so that this
 * folder's type-check stays inside it; the part of their shape used here is declared below.
 */
interface StandInItem {
  id: string;
  name: string;
  parent: string | null;
  folder: boolean;
  size?: number;
  modified?: string;
}
interface AuthStandIn {
  items: Record<'google-drive' | 'dropbox' | 'box' | 'onedrive', StandInItem[]>;
  deny: boolean;
  revoked: string[];
  env(): Record<string, string>;
  close(): Promise<void>;
}
interface ProvidersStandIn {
  files: Map<string, { id: string; name: string; data: Buffer }>;
}
const helper = <T>(file: string): Promise<T> =>
  import(pathToFileURL(join(root, 'desktop', 'test', 'helpers', file)).href) as Promise<T>;
let visit: (url: string) => Promise<{ status: number; text: string }>;

const rendererDir = useRendererBuild();
let auth: AuthStandIn;
let providers: ProvidersStandIn;
let closeStandIns: () => Promise<void>;
let server: ServerProcess;

/** The files of the stand-in Dropbox account: what the browse panel lists and what the server copies. */
const keynote = randomBytes(3 * MIB + 17);
const promo = randomBytes(2 * MIB + 5);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const authHelpers = await helper<{
    startAuthStandIn(): Promise<AuthStandIn>;
    visit: typeof visit;
  }>('cloud-auth.ts');
  const { startImportStandIns } = await helper<{
    startImportStandIns(auth: AuthStandIn): Promise<{
      providers: ProvidersStandIn;
      apiEnv: Record<string, string>;
      close(): Promise<void>;
    }>;
  }>('import-standins.ts');
  visit = authHelpers.visit;
  auth = await authHelpers.startAuthStandIn();
  const standIns = await startImportStandIns(auth);
  providers = standIns.providers;
  closeStandIns = standIns.close;
  auth.items.dropbox.push(
    { id: 'id:archive', name: 'Archive', parent: null, folder: true },
    { id: 'id:events', name: 'Events', parent: null, folder: true },
    {
      id: 'id:keynote',
      name: 'keynote-opening-final.mov',
      parent: 'id:events',
      folder: false,
      size: keynote.length,
      modified: '2027-03-02T09:30:00Z',
    },
    { id: 'id:rehearsal', name: 'rehearsal.mov', parent: 'id:events', folder: false, size: 4 * MIB },
    { id: 'id:promo', name: 'promo-reel.mp4', parent: 'id:archive', folder: false, size: promo.length },
    { id: 'id:notes', name: 'notes.txt', parent: null, folder: false, size: 2_048 },
  );
  providers.files.set('id:keynote', { id: 'id:keynote', name: 'keynote-opening-final.mov', data: keynote });
  providers.files.set('id:promo', { id: 'id:promo', name: 'promo-reel.mp4', data: promo });
  server = await startServerProcess(standIns.apiEnv);
  await registerClient(server.url, EMAIL, 'Cloud');
});

test.afterAll(async () => {
  await server?.stop();
  await closeStandIns?.();
  await auth?.close();
});

/** The bridge with the cloud providers aimed at the stand-in (Box left out: 'not configured'). */
async function startBridge(): Promise<Bridge> {
  const env: Record<string, string | undefined> = { ...process.env, ...auth.env() };
  delete env.AV_BOX_CLIENT_ID;
  delete env.AV_BOX_CLIENT_SECRET;
  return startBridgeProcess(server.url, { rendererDir: rendererDir(), env });
}

/** The address the app would have opened in the system browser, from the bridge panel's link. */
async function signInPage(page: Page, provider: string): Promise<string> {
  const link = page
    .getByRole('complementary', { name: 'Development bridge' })
    .getByRole('link', { name: `Sign-in page for ${provider}` });
  await expect(link).toBeVisible();
  return (await link.getAttribute('href'))!;
}

async function shots(page: Page, name: string, target: Locator) {
  for (const [width, height] of [
    [1000, 700],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    const file = `${name}-${width}.png`;
    await target.screenshot({ path: SHOTS ? join(SHOTS, file) : test.info().outputPath(file) });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

let bridge: Bridge;
let dir: string;

test.beforeEach(async () => {
  bridge = await startBridge();
  dir = mkdtempSync(join(tmpdir(), 'avp-e2e-desktop-cloud-'));
});

test.afterEach(async () => {
  await bridge?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('connects Dropbox, picks two files in the browse panel beside a local one; the server imports them and History shows their sha-256; disconnects', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  const local = join(dir, 'logo.png');
  const localBytes = randomBytes(200 * 1024);
  writeFileSync(local, localBytes);
  const marker = `Cloud ${suffix}`;

  await page.goto(bridge.url);
  await signIn(page, server.url, EMAIL, PASSWORD);

  // Settings → Accounts: every provider, Box not configured with the variable to set.
  await openSection(page, 'Settings');
  const card = page.getByRole('region', { name: 'Accounts' });
  const row = (name: string) => card.getByRole('listitem', { name, exact: true });
  await expect(row('Dropbox')).toContainText('Not connected');
  await expect(row('Box')).toContainText(
    'Box is not configured: set AV_BOX_CLIENT_ID and AV_BOX_CLIENT_SECRET.',
  );
  await expect(row('Box').getByRole('button')).toHaveCount(0);

  // A sign-in left unfinished is cancelled from the window.
  await card.getByRole('button', { name: 'Connect Google Drive' }).click();
  await expect(row('Google Drive')).toContainText('Finish signing in in your browser…');
  await expect(card.getByRole('button', { name: 'Cancel connecting Google Drive' })).toBeFocused();
  await card.getByRole('button', { name: 'Cancel connecting Google Drive' }).click();
  await expect(card.getByRole('status')).toHaveText('Connecting Google Drive was cancelled.');
  await expect(card.getByRole('button', { name: 'Connect Google Drive' })).toBeFocused();

  // Dropbox: the window waits while the 'system browser' (this test) consents at the stand-in.
  await card.getByRole('button', { name: 'Connect Dropbox' }).click();
  await expect(row('Dropbox')).toContainText('Finish signing in in your browser…');
  const address = await signInPage(page, 'dropbox');
  expect(new URL(address).searchParams.get('code_challenge_method')).toBe('S256');
  const landing = await visit(address);
  expect(landing.status).toBe(200);
  await expect(row('Dropbox')).toContainText('Connected as ada@dropbox.example');
  await expect(card.getByRole('status')).toHaveText('Dropbox connected as ada@dropbox.example.');
  await expect(card.getByRole('button', { name: 'Disconnect Dropbox' })).toBeFocused();
  await shots(page, 'accounts-card', card);

  // The upload form offers the connected account beside the file chooser.
  await openSection(page, 'New upload');
  const form = page.getByRole('form', { name: 'New upload' });
  await form.getByText('Sponsor Commercial', { exact: true }).click();
  // Event name suggests the open upload events (#30): a combobox whose popover closes with Escape.
  const eventField = form.getByRole('combobox', { name: /^Event name/ });
  await eventField.fill(marker);
  await eventField.press('Escape');
  await textbox(form, 'Sponsor company').fill('Acme AV');
  await expect(form.getByRole('button', { name: 'Add from Google Drive' })).toHaveCount(0);
  await form.getByRole('button', { name: 'Add from Dropbox' }).click();

  const dialog = page.getByRole('dialog', { name: 'Add from Dropbox' });
  await expect(dialog.getByRole('searchbox', { name: 'Search Dropbox' })).toBeFocused();
  const table = dialog.getByRole('table');
  // Folders first, then files, each with its size and date.
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('rowheader')).toHaveText(['▸Archive', '▸Events', 'notes.txt']);
  await expect(table.getByRole('row', { name: /notes\.txt/ })).toContainText('2 KB');
  await expect(dialog.getByRole('button', { name: 'Add files' })).toBeDisabled();

  await dialog.getByRole('button', { name: 'Open folder Events' }).click();
  await expect(dialog.getByRole('heading', { name: 'Events' })).toBeFocused();
  const crumbs = dialog.getByRole('navigation', { name: 'Folders' });
  await expect(crumbs.getByRole('listitem')).toHaveText(['Dropbox', 'Events']);
  await expect(crumbs.locator('[aria-current="location"]')).toHaveText('Events');
  await expect(crumbs.getByRole('button', { name: 'Dropbox' })).toBeVisible();
  await expect(table.getByRole('row', { name: /keynote-opening-final\.mov/ })).toContainText('3 MB');
  await expect(table.getByRole('row', { name: /keynote-opening-final\.mov/ })).toContainText('2027');
  await shots(page, 'browse-folder', dialog);
  // Ticked from the keyboard.
  await dialog.getByRole('checkbox', { name: 'keynote-opening-final.mov' }).focus();
  await page.keyboard.press('Space');
  await expect(dialog.getByRole('checkbox', { name: 'keynote-opening-final.mov' })).toBeChecked();
  await expect(dialog.getByText('1 selected')).toBeVisible();

  // A search across the account keeps what was ticked.
  await dialog.getByRole('searchbox', { name: 'Search Dropbox' }).fill('promo');
  await dialog.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(dialog.getByRole('heading', { name: 'Search results for “promo”' })).toBeFocused();
  await expect(table.getByRole('row')).toHaveCount(2);
  await dialog.getByText('promo-reel.mp4', { exact: true }).click();
  await expect(dialog.getByRole('checkbox', { name: 'promo-reel.mp4' })).toBeChecked();
  await expect(dialog.getByRole('button', { name: 'Add 2 files' })).toBeEnabled();
  await shots(page, 'browse-dialog', dialog);

  await dialog.getByRole('searchbox', { name: 'Search Dropbox' }).fill('nothing-like-this');
  await dialog.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(dialog.getByText('Nothing in Dropbox matches “nothing-like-this”.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Add 2 files' }).click();
  await expect(dialog).toHaveCount(0);

  // The picked files join the form's list with size and provider, beside a local file.
  const panel = page.getByRole('complementary', { name: 'Development bridge' });
  await panel.getByText('Development bridge').click();
  await panel.getByRole('textbox', { name: 'Paths to drop (one per line)' }).fill(local);
  await panel.getByRole('button', { name: 'Drop paths' }).click();
  const chosen = form.getByRole('list', { name: 'Chosen files' });
  await expect(chosen.getByRole('listitem')).toHaveCount(3);
  await expect(chosen.getByRole('listitem').filter({ hasText: 'keynote-opening-final.mo…' })).toContainText(
    '3 MB · from Dropbox',
  );
  await expect(chosen.getByRole('listitem').filter({ hasText: 'promo-reel.mp4' })).toContainText(
    'from Dropbox',
  );
  await form.getByRole('button', { name: 'Submit' }).click();

  // The queue: the server's copies shown like local files, with where they come from.
  await expect(page.getByText('Added to the queue: 3 items.')).toBeVisible();
  const queueRow = (name: string) => page.getByTestId('queue-file').filter({ hasText: name });
  await expect(queueRow('promo-reel.mp4')).toContainText('from Dropbox');
  await expect(queueRow('promo-reel.mp4').getByTestId('queue-file-state')).toHaveText(
    /Asking our server to copy it|Waiting for our server|Copying on our server|Done/,
  );
  await expect(page.getByText('No uploads in the queue. Start one from New upload.')).toBeVisible({
    timeout: 30_000,
  });

  await openSection(page, 'History');
  const entry = page.getByRole('article', { name: `Sponsor Commercial: ${marker} · Acme AV` });
  await expect(entry.getByRole('row')).toHaveCount(4);
  await expect(entry.getByRole('row', { name: /keynote-opening-final/ })).toContainText(sha(keynote));
  await expect(entry.getByRole('row', { name: /promo-reel\.mp4/ })).toContainText(sha(promo));
  await expect(entry.getByRole('row', { name: /logo\.png/ })).toContainText(sha(localBytes));

  // Disconnect: confirmed, revoked at the provider, and the form's button is gone.
  await openSection(page, 'Settings');
  await card.getByRole('button', { name: 'Disconnect Dropbox' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Disconnect Dropbox?' });
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(card.getByRole('status')).toHaveText('Dropbox disconnected and its sign-in revoked.');
  await expect(row('Dropbox')).toContainText('Not connected');
  expect(auth.revoked.length).toBeGreaterThan(0);
  await openSection(page, 'New upload');
  await expect(page.getByRole('button', { name: 'Add from Dropbox' })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a sign-in refused in the browser is shown in words', async ({ page }) => {
  await page.goto(bridge.url);
  await signIn(page, server.url, EMAIL, PASSWORD);
  await openSection(page, 'Settings');
  const card = page.getByRole('region', { name: 'Accounts' });
  auth.deny = true;
  await card.getByRole('button', { name: 'Connect Google Drive' }).click();
  await visit(await signInPage(page, 'google-drive'));
  const row = card.getByRole('listitem', { name: 'Google Drive' });
  await expect(row.getByRole('alert')).toHaveText(
    'Google Drive access was not granted, so nothing was connected.',
  );
  await expect(row).toContainText('Not connected');
});

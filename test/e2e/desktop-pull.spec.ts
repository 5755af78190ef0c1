import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  apiCall,
  CLIENT_PASSWORD,
  registerClient,
  signIn,
  signInToken,
  startBridge,
  textbox,
  useRendererBuild,
} from '../support/desktop-window';
import { expect, test } from '../support/fixtures';
import { createStaff, STAFF_PASSWORD } from '../support/staff-account';

/**
 * "Pull this event to a folder…" in the desktop window (issue #31), as desktop-renderer.spec.ts drives the
 * renderer: served by the development bridge, which relays to the engine process, against the real API of
 * the global setup. A client sends three files through the API; signed in as that client, the window does
 * not offer the pull. Signed in as staff, the view takes the event, a bandwidth limit and a folder (the
 * bridge panel's 'Folder to choose' answers the folder chooser), shows the pull's progress, is cancelled
 * mid-file, and a second pull into the same folder finishes it: every file on disk with the server's
 * sha-256, and manifest.csv beside them.
 */

const PASSWORD = CLIENT_PASSWORD;
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `desktop-pull.${suffix}@example.com`;
const STAFF_EMAIL = `desktop-pull-staff.${suffix}@example.com`;
const EVENT = `Pull Expo ${suffix}`;
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/work/notes/shots';
const ENTRY = 'Pull this event to a folder…';

const rendererDir = useRendererBuild();

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A sent sponsor submission of files smaller than one part (6 MiB), over the upload protocol. */
async function send(
  baseURL: string,
  token: string,
  company: string,
  files: { name: string; bytes: Buffer }[],
) {
  const { submission } = await apiCall<{ submission: { id: string } }>(baseURL, '/api/uploads/submissions', {
    token,
    method: 'POST',
    body: { form_type: 'sponsor', event_name: EVENT, sponsor_company: company },
  });
  const ids: string[] = [];
  for (const f of files) {
    const { file } = await apiCall<{ file: { id: string } }>(
      baseURL,
      `/api/uploads/submissions/${submission.id}/files`,
      {
        token,
        method: 'POST',
        body: {
          name: f.name,
          size: f.bytes.length,
          type: 'video/mp4',
          lastModified: 1_700_000_000_000,
          sha256: sha(f.bytes),
        },
      },
    );
    await apiCall(baseURL, `/api/uploads/files/${file.id}/parts/1`, { token, method: 'PUT', raw: f.bytes });
    await apiCall(baseURL, `/api/uploads/files/${file.id}/complete`, {
      token,
      method: 'POST',
      body: { sha256: sha(f.bytes) },
    });
    ids.push(file.id);
  }
  await apiCall(baseURL, `/api/uploads/submissions/${submission.id}/submit`, {
    token,
    method: 'POST',
    body: { files: ids },
  });
  return ids;
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('staff pull an event to a folder from the window, cancel it and finish it; a client is not offered it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await registerClient(baseURL!, CLIENT_EMAIL, 'Pull');
  createStaff(STAFF_EMAIL, 'Pull');
  const client = await signInToken(baseURL!, CLIENT_EMAIL, PASSWORD);
  const spot = randomBytes(40_000);
  const logo = randomBytes(5_000);
  const reel = randomBytes(3 * 1024 * 1024);
  await send(baseURL!, client, 'Acme AV', [
    { name: 'spot.mov', bytes: spot },
    { name: 'logo.png', bytes: logo },
  ]);
  await send(baseURL!, client, 'Blue Sky', [{ name: 'reel.mp4', bytes: reel }]);

  const dir = mkdtempSync(join(tmpdir(), 'avp-e2e-desktop-pull-'));
  const out = join(dir, 'show');
  const bridge = await startBridge(baseURL!, { rendererDir: rendererDir() });
  try {
    await page.goto(bridge.url);
    const sections = page.getByRole('navigation', { name: 'Sections' });

    // A client account: no pull in the sections.
    await signIn(page, baseURL!, CLIENT_EMAIL, PASSWORD);
    await expect(sections.getByRole('button', { name: 'History' })).toBeVisible();
    await expect(sections.getByRole('button', { name: ENTRY })).toHaveCount(0);
    await page.getByRole('button', { name: 'Sign out' }).click();

    // Staff (an owner: every role, Media among them).
    await signIn(page, baseURL!, STAFF_EMAIL, STAFF_PASSWORD);
    await sections.getByRole('button', { name: ENTRY }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Pull an event to a folder' })).toBeFocused();
    const form = page.getByRole('form', { name: 'Pull an event' });

    // Started without an event or a folder: both named.
    await form.getByRole('button', { name: 'Start the pull' }).click();
    await expect(form.getByText('Choose the event to pull.')).toBeVisible();
    await expect(form.getByText('Choose a folder to pull into.')).toBeVisible();

    // The trigger is named by its value and its label ('Choose an event… Event').
    await form.getByRole('button', { name: /Event/ }).click();
    await page.getByRole('option', { name: EVENT, exact: true }).click();
    await expect(form.getByRole('checkbox', { name: 'Accepted files only' })).not.toBeChecked();
    const limit = textbox(form, 'Bandwidth limit (KB/s)');
    await limit.fill('256');
    await limit.press('Tab');
    const panel = page.getByRole('complementary', { name: 'Development bridge' });
    const chooseFolder = async (folder: string) => {
      await panel.getByText('Development bridge').click();
      await textbox(panel, 'Folder to choose').fill(folder);
      await panel.getByText('Development bridge').click();
      await form.getByRole('button', { name: /^Choose (a|another) folder…$/ }).click();
      await expect(form.getByText(folder, { exact: true })).toBeVisible();
    };
    const progress = page.getByRole('region', { name: 'The pull' });

    // A folder that cannot be written (/sys refuses new folders, even to root): said in a sentence.
    const locked = `/sys/avp-e2e-pull-${process.pid}`;
    await chooseFolder(locked);
    await form.getByRole('button', { name: 'Start the pull' }).click();
    await expect(progress.getByRole('alert')).toHaveText(
      `The folder ${locked} cannot be written to (permission denied). Choose another folder.`,
    );

    await chooseFolder(out);
    await shoot(page, 'pull-view-before');

    // At 256 KB/s the 3 MB reel takes seconds: the progress shows, then Cancel stops it.
    await form.getByRole('button', { name: 'Start the pull' }).click();
    const bar = progress.getByRole('progressbar', { name: `Pull of ${EVENT}` });
    await expect(bar).toBeVisible();
    // Start is disabled while the pull runs: the keyboard is taken to the pull's card.
    await expect(progress).toBeFocused();
    await expect(progress.getByRole('list', { name: 'Now:' })).toContainText('Blue Sky/reel.mp4', {
      timeout: 10_000,
    });
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await expect(progress.getByTestId('pull-figures')).toContainText(/of 3 files · .* received · .*\/s/);
    await expect(page.getByTestId('pull-announcement')).toContainText(`Pulling “${EVENT}”`);
    await shoot(page, 'pull-view-during');
    await progress.getByRole('button', { name: 'Cancel the pull' }).click();
    await expect(progress.getByText(/^Cancelled after \d of 3 files\./)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('pull-announcement')).toContainText('was cancelled');
    await expect(progress).toBeFocused();
    expect(existsSync(join(out, 'Blue Sky', 'reel.mp4'))).toBe(false);
    expect(existsSync(join(out, 'Blue Sky', 'reel.mp4.part'))).toBe(true);
    expect(existsSync(join(out, 'manifest.csv'))).toBe(false);

    // Again without a limit: it goes on where it stopped and ends with the summary.
    await limit.fill('0');
    await limit.press('Tab');
    await form.getByRole('button', { name: 'Start the pull' }).click();
    await expect(progress.getByText(new RegExp(`^Pulled 3 files of “${EVENT}”: \\d fetched`))).toBeVisible({
      timeout: 30_000,
    });
    await expect(bar).toHaveAttribute('aria-valuenow', '100');
    await expect(progress.getByText(`The manifest is at ${join(out, 'manifest.csv')}`)).toBeVisible();
    await expect(page.getByTestId('pull-announcement')).toContainText('Pulled 3 files');
    const files: [string, Buffer][] = [
      [join(out, 'Acme AV', 'spot.mov'), spot],
      [join(out, 'Acme AV', 'logo.png'), logo],
      [join(out, 'Blue Sky', 'reel.mp4'), reel],
    ];
    for (const [file, bytes] of files) expect(sha(readFileSync(file)), file).toBe(sha(bytes));
    expect(readFileSync(join(out, 'manifest.csv'), 'utf8').split('\r\n')[0]).toBe(
      'company,client,file,size,sha-256,facts,review state,received',
    );
    await shoot(page, 'pull-view');
    expect(problems).toEqual([]);
  } finally {
    await bridge.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

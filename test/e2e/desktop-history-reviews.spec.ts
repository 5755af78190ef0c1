import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  apiCall,
  CLIENT_PASSWORD,
  registerClient,
  signIn,
  signInToken,
  startBridge,
  useRendererBuild,
} from '../support/desktop-window';
import { expect, test } from '../support/fixtures';
import { createStaff, STAFF_PASSWORD } from '../support/staff-account';

/**
 * Review states in the desktop window's History (issue #31), as desktop-renderer.spec.ts drives the
 * renderer: served by the development bridge, which relays to the engine process, against the real API of
 * the global setup. The client sends two files from the window; staff mark one Accepted and one Needs a new
 * version with a reason through the API; "Check review states again" shows each state and the reason.
 */

const PASSWORD = CLIENT_PASSWORD;
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `desktop-reviews.${suffix}@example.com`;
const STAFF_EMAIL = `desktop-reviews-staff.${suffix}@example.com`;
const REASON = 'The spot runs 45 s; the slot is 30 s.';
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/work/notes/shots';

const rendererDir = useRendererBuild();

test('the History shows each sent file’s review state and the staff’s reason', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await registerClient(baseURL!, CLIENT_EMAIL, 'Reviews');
  createStaff(STAFF_EMAIL, 'Reviews');
  const dir = mkdtempSync(join(tmpdir(), 'avp-e2e-desktop-reviews-'));
  const bridge = await startBridge(baseURL!, { rendererDir: rendererDir() });
  try {
    const spot = join(dir, 'spot.mov');
    const logo = join(dir, 'logo.png');
    writeFileSync(spot, randomBytes(20_000));
    writeFileSync(logo, randomBytes(5_000));
    const event = `Reviews Expo ${suffix}`;

    await page.goto(bridge.url);
    await signIn(page, baseURL!, CLIENT_EMAIL, PASSWORD);

    const sections = page.getByRole('navigation', { name: 'Sections' });
    await sections.getByRole('button', { name: 'New upload' }).click();
    const form = page.getByRole('form', { name: 'New upload' });
    await form.getByText('Sponsor Commercial', { exact: true }).click();
    await expect(form.getByRole('radio', { name: 'Sponsor Commercial' })).toBeChecked();
    const eventName = form.getByRole('combobox', { name: /^Event name/ });
    await eventName.fill(event);
    // The open events' suggestions (a popover that hides the rest of the page from the tree) closed.
    await eventName.press('Escape');
    await form.getByRole('textbox', { name: /^Sponsor company/ }).fill('Acme AV');
    const panel = page.getByRole('complementary', { name: 'Development bridge' });
    await panel.getByText('Development bridge').click();
    await panel.getByRole('textbox', { name: 'Paths to drop (one per line)' }).fill(`${spot}\n${logo}`);
    await panel.getByRole('button', { name: 'Drop paths' }).click();
    await panel.getByText('Development bridge').click();
    await expect(form.getByRole('list', { name: 'Chosen files' }).getByRole('listitem')).toHaveCount(2);
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('No uploads in the queue. Start one from New upload.')).toBeVisible({
      timeout: 20_000,
    });

    await sections.getByRole('button', { name: 'History' }).click();
    const entry = page.getByRole('article', { name: `Sponsor Commercial: ${event} · Acme AV` });
    const row = (name: string) => entry.getByRole('row', { name: new RegExp(name.replace('.', '\\.')) });
    await expect(entry.getByRole('columnheader', { name: 'Review' })).toBeVisible();
    await expect(row('spot.mov')).toContainText('New');
    await expect(row('logo.png')).toContainText('New');

    const client = await signInToken(baseURL!, CLIENT_EMAIL, PASSWORD);
    const mine = await apiCall<{
      submissions: { fields: Record<string, string>; files: { id: string; name: string }[] }[];
    }>(baseURL!, '/api/uploads/mine', { token: client });
    const files = mine.submissions.find((s) => s.fields.event_name === event)!.files;
    const idOf = (name: string) => files.find((f) => f.name === name)!.id;
    const staff = await signInToken(baseURL!, STAFF_EMAIL, STAFF_PASSWORD);
    await apiCall(baseURL!, `/api/uploads/inbox/files/${idOf('spot.mov')}/review`, {
      token: staff,
      method: 'PUT',
      body: { state: 'needs_new_version', message: REASON },
    });
    await apiCall(baseURL!, `/api/uploads/inbox/files/${idOf('logo.png')}/review`, {
      token: staff,
      method: 'PUT',
      body: { state: 'accepted' },
    });

    await page.getByRole('button', { name: 'Check review states again' }).click();
    await expect(row('spot.mov').getByRole('cell', { name: `Needs a new version: ${REASON}` })).toBeVisible();
    await expect(row('logo.png').getByRole('cell', { name: 'Accepted', exact: true })).toBeVisible();

    mkdirSync(SHOTS, { recursive: true });
    for (const [width, height] of [
      [1280, 800],
      [375, 812],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: join(SHOTS, `desktop-review-history-${width}.png`), fullPage: true });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(0);
    }
    expect(problems).toEqual([]);
  } finally {
    await bridge.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

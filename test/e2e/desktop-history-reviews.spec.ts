import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { run, withBuildLock } from '../support/desktop-build';
import { expect, test } from '../support/fixtures';
import { createStaff, STAFF_PASSWORD } from '../support/staff-account';

/**
 * Review states in the desktop window's History (issue #31), as desktop-renderer.spec.ts drives the
 * renderer: served by the development bridge, which relays to the engine process, against the real API of
 * the global setup. The client sends two files from the window; staff mark one Accepted and one Needs a new
 * version with a reason through the API; "Check review states again" shows each state and the reason.
 */

const root = resolve(import.meta.dirname, '..', '..');
const PASSWORD = 'Difference Engine 1843';
const suffix = `${Date.now().toString(36)}.${process.pid}`;
const CLIENT_EMAIL = `desktop-reviews.${suffix}@example.com`;
const STAFF_EMAIL = `desktop-reviews-staff.${suffix}@example.com`;
const REASON = 'The spot runs 45 s; the slot is 30 s.';
const SHOTS = process.env.E2E_SHOTS_DIR ?? '/work/notes/shots';

let rendererDir: string | undefined;

test.beforeAll(() => {
  test.setTimeout(180_000);
  if (process.env.E2E_SKIP_BUILD) return;
  withBuildLock(() =>
    run([
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-b',
      'desktop/tsconfig.json',
      'desktop/tsconfig.bridge-client.json',
    ]),
  );
  rendererDir = mkdtempSync(join(tmpdir(), 'avp-e2e-renderer-'));
  run([
    join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    '--config',
    'desktop/vite.config.ts',
    '--outDir',
    rendererDir,
    '--emptyOutDir',
    '--logLevel',
    'warn',
  ]);
});

test.afterAll(() => {
  if (rendererDir) rmSync(rendererDir, { recursive: true, force: true });
});

/** `node desktop/dist/bridge/main.js --port 0`, as `npm run desktop:bridge` runs it after the build. */
async function startBridge(server: string) {
  const child = spawn(
    process.execPath,
    [
      join(root, 'desktop', 'dist', 'bridge', 'main.js'),
      '--server',
      server,
      '--port',
      '0',
      ...(rendererDir ? ['--renderer', rendererDir] : []),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`The bridge did not start within 15 s: ${out}`)), 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (found) {
        clearTimeout(timer);
        ok(found[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`The bridge exited with code ${code}: ${out}`));
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function apiCall<T>(
  baseURL: string,
  route: string,
  init: { token?: string; method?: string; body?: unknown },
) {
  const res = await fetch(`${baseURL}${route}`, {
    method: init.method ?? 'GET',
    headers: {
      'content-type': 'application/json',
      origin: baseURL,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const signInToken = async (baseURL: string, email: string, password: string) =>
  (
    await apiCall<{ token: string }>(baseURL, '/api/auth/login', {
      method: 'POST',
      body: { email, password, token: true },
    })
  ).token;

const textbox = (scope: Page | Locator, name: string) => scope.getByRole('textbox', { name, exact: true });

test('the History shows each sent file’s review state and the staff’s reason', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await apiCall(baseURL!, '/api/auth/register', {
    method: 'POST',
    body: {
      email: CLIENT_EMAIL,
      firstname: 'Ada',
      lastname: 'Reviews',
      company: 'Analytical Engines',
      phone: '(555) 123-4567',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    },
  });
  createStaff(STAFF_EMAIL, 'Reviews');
  const dir = mkdtempSync(join(tmpdir(), 'avp-e2e-desktop-reviews-'));
  const bridge = await startBridge(baseURL!);
  try {
    const spot = join(dir, 'spot.mov');
    const logo = join(dir, 'logo.png');
    writeFileSync(spot, randomBytes(20_000));
    writeFileSync(logo, randomBytes(5_000));
    const event = `Reviews Expo ${suffix}`;

    await page.goto(bridge.url);
    const signIn = page.getByRole('form', { name: 'Sign in' });
    await textbox(signIn, 'Server').fill(baseURL!);
    await textbox(signIn, 'Email').fill(CLIENT_EMAIL);
    await textbox(signIn, 'Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText(`Signed in as ${CLIENT_EMAIL}`)).toBeVisible();

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

/**
 * What the desktop window's browser specs share: the renderer built once per run into a folder of its own,
 * the development bridge (desktop/src/bridge) that serves it and relays to the engine process, the
 * window's sign-in and sections, and the few API calls the specs make to set the stage (accounts, tokens).
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { root, run, withBuildLock } from './desktop-build';
import { expect, test } from './fixtures';

export const CLIENT_PASSWORD = 'Difference Engine 1843';

/** The mark a finished renderer build leaves in E2E_RENDERER_DIR. */
const BUILT = '.built';

/**
 * Compiles the desktop (tsc -b, under the lock shared with desktop-electron.spec.ts) and builds the
 * renderer, once per run, into the folder the global setup made for it (E2E_RENDERER_DIR): the first
 * beforeAll to take the lock builds, the others find the build done. Nothing rebuilds that folder during the
 * run, so no build ever replaces files a running page is loading; the global teardown deletes it. (Each spec
 * file, and under fullyParallel each test, used to build a folder of its own: four to nine Vite builds of
 * the same renderer per run.) A run that reuses an earlier build (E2E_SKIP_BUILD, as in the global setup)
 * serves desktop/dist as it is. Returns the folder, once beforeAll has run.
 */
export function useRendererBuild(): () => string | undefined {
  let rendererDir: string | undefined;
  test.beforeAll(() => {
    test.setTimeout(180_000);
    if (process.env.E2E_SKIP_BUILD) return;
    const dir = process.env.E2E_RENDERER_DIR;
    if (!dir) throw new Error('E2E_RENDERER_DIR is not set: the Playwright global setup did not run.');
    withBuildLock(() => {
      if (existsSync(join(dir, BUILT))) return;
      run([
        join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-b',
        'desktop/tsconfig.json',
        'desktop/tsconfig.bridge-client.json',
      ]);
      run([
        join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--config',
        'desktop/vite.config.ts',
        '--outDir',
        dir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ]);
      // Written last: a build that failed half-way is not taken for done by the next beforeAll.
      writeFileSync(join(dir, BUILT), '');
    });
    rendererDir = dir;
  });
  return () => rendererDir;
}

export interface Bridge {
  url: string;
  stop(): Promise<void>;
}

/** `node desktop/dist/bridge/main.js --port 0`, as `npm run desktop:bridge` runs it after the build. */
export async function startBridge(
  server: string,
  options: { rendererDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Bridge> {
  const child = spawn(
    process.execPath,
    [
      join(root, 'desktop', 'dist', 'bridge', 'main.js'),
      '--server',
      server,
      '--port',
      '0',
      ...(options.rendererDir ? ['--renderer', options.rendererDir] : []),
    ],
    { cwd: root, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'inherit'] },
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

/** One API call that must succeed (its JSON answer, or null for an empty one); raw sends bytes. */
export async function apiCall<T>(
  baseURL: string,
  route: string,
  init: { token?: string; method?: string; body?: unknown; raw?: Buffer },
): Promise<T> {
  const res = await fetch(`${baseURL}${route}`, {
    method: init.method ?? 'GET',
    headers: {
      'content-type': init.raw ? 'application/octet-stream' : 'application/json',
      origin: baseURL,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.raw
      ? new Uint8Array(init.raw)
      : init.body === undefined
        ? undefined
        : JSON.stringify(init.body),
  });
  if (!res.ok) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
  return (await res.json().catch(() => null)) as T;
}

export const signInToken = async (baseURL: string, email: string, password: string) =>
  (
    await apiCall<{ token: string }>(baseURL, '/api/auth/login', {
      method: 'POST',
      body: { email, password, token: true },
    })
  ).token;

/** A client account through the API (registration has its own spec), with CLIENT_PASSWORD. */
export async function registerClient(baseURL: string, email: string, lastname: string): Promise<void> {
  await apiCall(baseURL, '/api/auth/register', {
    method: 'POST',
    body: {
      email,
      firstname: 'Ada',
      lastname,
      company: 'Analytical Engines',
      phone: '(555) 123-4567',
      password: CLIENT_PASSWORD,
      confirmPassword: CLIENT_PASSWORD,
    },
  });
}

export const textbox = (scope: Page | Locator, name: string) =>
  scope.getByRole('textbox', { name, exact: true });

/** CSP refusals and uncaught errors of the page: the renderer must run under the app's strict CSP. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content[- ]Security[- ]Policy/i.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** The window's sign-in form, until the sections have settled (the server has said whether it may pull). */
export async function signIn(page: Page, server: string, email: string, password: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Sign in' });
  await textbox(form, 'Server').fill(server);
  await textbox(form, 'Email').fill(email);
  await textbox(form, 'Password').fill(password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Sections' })).not.toHaveAttribute('aria-busy');
}

export type Section = 'New upload' | 'Queue' | 'Watch folders' | 'History' | 'Settings';

/** A section from the window's navigation; its heading takes the focus. */
export async function openSection(page: Page, name: Section): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeFocused();
}

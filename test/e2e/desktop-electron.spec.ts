import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron } from '@playwright/test';
import { run, withBuildLock } from '../support/desktop-build';
import { expect, test } from '../support/fixtures';

/**
 * The desktop uploader launched as the real Electron app: its window is titled 'AV Uploader',
 * the page has the preload's window.avUpload and no Node (no require). It needs Electron's binary, which
 * `npm install` could not download on machines without internet (this repository's CI) or that set
 * ELECTRON_SKIP_BINARY_DOWNLOAD=1: there the test says so and is skipped. The renderer itself is covered in Chromium by desktop-renderer.spec.ts.
 */

const root = resolve(import.meta.dirname, '..', '..');

/** The Electron binary's path, or null when the package was installed without it. */
function electronBinary(): string | null {
  try {
    // The electron package's main answers the binary's path, and throws when it was never downloaded.
    const binary = createRequire(join(root, 'desktop', 'package.json'))('electron') as unknown;
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();

test('opens the uploader window with the preload API and without Node', async ({ baseURL }) => {
  if (!binary) {
    console.log(
      'desktop-electron.spec.ts: SKIPPED, the Electron binary is not installed; ' +
        '`npm run desktop:electron` downloads it for the Electron launch test.',
    );
  }
  test.skip(!binary, 'The Electron binary is not installed (npm run desktop:electron downloads it).');
  test.setTimeout(180_000);

  if (!process.env.E2E_SKIP_BUILD) {
    withBuildLock(() => {
      run([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'desktop/tsconfig.json']);
      run([
        join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--config',
        'desktop/vite.config.ts',
        '--logLevel',
        'warn',
      ]);
    });
  }

  // A profile of its own (electron-store's file, the single-instance lock), not the developer's app data.
  const profile = mkdtempSync(join(tmpdir(), 'avp-e2e-electron-'));
  const app = await electron.launch({
    executablePath: binary!,
    args: [join(root, 'desktop', 'dist', 'main', 'index.js'), `--user-data-dir=${profile}`],
    cwd: root,
    env: { ...process.env, AV_UPLOAD_SERVER: baseURL!, ELECTRON_ENABLE_LOGGING: '1' },
  });
  try {
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    await expect(page).toHaveTitle('AV Uploader');
    await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
    // What the page can reach: the preload's API, and neither require nor process.
    const reach = await page.evaluate(() => {
      const scope = globalThis as { avUpload?: unknown; require?: unknown; process?: unknown };
      return {
        avUpload: typeof scope.avUpload,
        require: typeof scope.require,
        process: typeof scope.process,
      };
    });
    expect(reach).toEqual({ avUpload: 'object', require: 'undefined', process: 'undefined' });
  } finally {
    await app.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

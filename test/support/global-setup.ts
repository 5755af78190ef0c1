import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, startServerProcess, webDist } from './server-process';

function run(args: string[], cwd = root, env: Record<string, string> = {}): void {
  const result = spawnSync(process.execPath, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`Build step failed: ${args.join(' ')}`);
}

/**
 * Builds once, then starts the real server on a free port with a fresh data folder (SQLite, local
 * storage, mail written to files). Tests reach it through E2E_BASE_URL and E2E_DATA_DIR.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!process.env.E2E_SKIP_BUILD) {
    run([
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-b',
      'shared/tsconfig.json',
      'api/tsconfig.json',
    ]);
    // A bundle of its own, with the widget showcase at /ui that production bundles leave out.
    run(
      [
        join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--logLevel',
        'warn',
        '--outDir',
        webDist,
        '--emptyOutDir',
      ],
      join(root, 'web'),
      { VITE_UI_SHOWCASE: 'true' },
    );
    // The public pages as complete HTML, as `npm run build` makes them (build/scripts/prerender.mjs), with a
    // quicker Brotli: quality 11 took 40 s on a loaded 2-core machine (quality 5: 1.5 s) before any test could
    // start, for files 10% smaller.
    run([join(root, 'build', 'scripts', 'prerender.mjs'), '--dist', webDist], root, {
      VITE_UI_SHOWCASE: 'true',
      PRERENDER_BROTLI_QUALITY: '5',
    });
  }

  // The desktop renderer's folder for this run: built there once by the first spec that needs it
  // (desktop-window.ts), since the bundle above is the web app's, and the desktop specs may never run.
  const rendererDir = mkdtempSync(join(tmpdir(), 'avp-e2e-renderer-'));
  process.env.E2E_RENDERER_DIR = rendererDir;

  const server = await startServerProcess();
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => {
    await server.stop();
    rmSync(rendererDir, { recursive: true, force: true });
  };
}

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject()));
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode} during start-up.`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The server at ${url} did not become healthy within ${deadlineMs} ms.`);
}

function run(args: string[], cwd = root, env: Record<string, string> = {}): void {
  const result = spawnSync(process.execPath, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`Build step failed: ${args.join(' ')}`);
}

/**
 * Builds once, then starts the real server on a free port with a fresh data folder (SQLite, local
 * storage, mail written to files). Tests reach it through E2E_BASE_URL and E2E_DATA_DIR.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // E2E_WEB_DIST lets two runs on one machine build side by side without emptying each other's bundle.
  const webDist = process.env.E2E_WEB_DIST ? resolve(process.env.E2E_WEB_DIST) : join(root, 'test', '.tmp', 'web-dist');
  if (!process.env.E2E_SKIP_BUILD) {
    run([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'shared/tsconfig.json', 'api/tsconfig.json']);
    // A bundle of its own, with the widget showcase at /ui that production bundles leave out.
    run([join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', '--outDir', webDist,
      '--emptyOutDir'], join(root, 'web'), { VITE_UI_SHOWCASE: 'true' });
    // The public pages as complete HTML, as `npm run build` makes them (build/scripts/prerender.mjs).
    run([join(root, 'build', 'scripts', 'prerender.mjs'), '--dist', webDist], root, { VITE_UI_SHOWCASE: 'true' });
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'avp-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(root, 'api', 'dist', 'server.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WEB_DIST_DIR: webDist,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForHealth(url, server, 60_000);

  process.env.E2E_BASE_URL = url;
  process.env.E2E_DATA_DIR = dataDir;

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

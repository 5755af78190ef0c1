import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * A second real server for a spec that needs settings the shared one (global-setup.ts) must not have,
 * such as a short SESSION_MAX_SECONDS. Same build, same way of starting; its own port and data folder.
 */
const root = resolve(import.meta.dirname, '..', '..');

export interface ExtraServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

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

export async function startExtraServer(env: Record<string, string>): Promise<ExtraServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'avp-e2e-extra-'));
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
      // The bundle global-setup.ts built (E2E_WEB_DIST when two runs share the machine).
      WEB_DIST_DIR: process.env.E2E_WEB_DIST
        ? resolve(process.env.E2E_WEB_DIST)
        : join(root, 'test', '.tmp', 'web-dist'),
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const until = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`The extra server exited with code ${server.exitCode} during start-up.`);
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await stop();
      throw new Error(`The extra server at ${url} did not become healthy within 60 s.`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, dataDir, stop };
}

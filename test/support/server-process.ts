import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..', '..');

/** The node flags the server runs with in production (README 'Deploying'). */
const serverNodeFlags = JSON.parse(readFileSync(join(root, 'api', 'node-flags.json'), 'utf8')) as string[];

/** The bundle the global setup builds; E2E_WEB_DIST lets two runs on one machine build side by side. */
export const webDist = process.env.E2E_WEB_DIST
  ? resolve(process.env.E2E_WEB_DIST)
  : join(root, 'test', '.tmp', 'web-dist');

export interface ServerProcess {
  url: string;
  dataDir: string;
  /** Stops the server and deletes its data folder; safe to call twice. */
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

/**
 * The real server (api/dist/server.js) on a free port with a fresh data folder: SQLite, local storage,
 * mail written to files. `env` overrides the defaults, e.g. a short SESSION_MAX_SECONDS.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'avp-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [...serverNodeFlags, join(root, 'api', 'dist', 'server.js')], {
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
      // Every browser test registers from 127.0.0.1: the hourly limit per address would refuse the eleventh.
      REGISTRATIONS_PER_HOUR_PER_ADDRESS: '10000',
      SIGN_INS_PER_15_MINUTES_PER_ADDRESS: '10000',
      REVIEW_MAIL_DELAY_SECONDS: '1', // a review round's client mail goes out a second after the last change
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const until = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`The server exited with code ${server.exitCode} during start-up.`);
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, dataDir, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await stop();
      throw new Error(`The server at ${url} did not become healthy within 60 s.`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

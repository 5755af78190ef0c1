// The real server for a benchmark: compiled API on a free port, a throwaway data folder, production mode.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, SERVER_NODE_FLAGS } from '../../build/scripts/lib.mjs';

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts api/dist/server.js and waits for /api/health. `env` adds to or overrides the defaults;
 * `stdout` is 'inherit' or 'ignore'; node runs with the server's own flags (api/node-flags.json) and
 * `nodeArgs` after them (to profile it, say). `port` and `dataDir` are chosen when not given; a data folder
 * given by the caller (several processes sharing one) is the caller's to delete.
 * Resolves to { url, child, stop }; stop() ends it and deletes the data folder it made.
 */
export async function startBenchServer({
  name,
  env = {},
  stdout = 'inherit',
  nodeArgs = [],
  port: given,
  dataDir: sharedDataDir,
}) {
  const dataDir = sharedDataDir ?? mkdtempSync(join(tmpdir(), `avp-bench-${name}-`));
  const port = given ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, ...nodeArgs, join(root, 'api', 'dist', 'server.js')],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
        ...env,
      },
      stdio: ['ignore', stdout, 'inherit'],
    },
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    if (sharedDataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
  };
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the ${name} server exited with code ${child.exitCode}`);
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await stop();
      throw new Error(`the ${name} server did not become healthy within 60 s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Registers a client account and signs it in for a bearer token (the desktop app's way in). */
export async function clientToken(url, email = 'bench@example.com', password = 'Bench passphrase 2026!') {
  const json = { 'content-type': 'application/json' };
  const registered = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      email,
      firstname: 'Bench',
      lastname: 'Mark',
      company: 'Loopback',
      phone: '(555) 123-4567',
      password,
      confirmPassword: password,
    }),
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password, token: true }),
  });
  const { token } = await login.json();
  if (!token) throw new Error(`login answered ${login.status} without a token`);
  return { token, email, password };
}

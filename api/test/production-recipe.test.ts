import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, TEST_SECRET, writeWebDist } from './helpers/env.js';

/**
 * The production recipe (README 'Run in production', issue 35 item 4): the Docker image where this machine
 * can build one, and everywhere `npm run start:production`, the same steps without Docker.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
// How long a started server may take to answer ready (it builds what is stale, then migrates first).
const READY_TIMEOUT_MS = Number(process.env.PRODUCTION_RECIPE_READY_SECONDS ?? 180) * 1000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** Settings a real deployment would have: every secret freshly generated, nothing from the demo. */
function productionEnv(port: number, dataDir: string, webDist: string): Record<string, string> {
  const random = (n: number) => randomBytes(n).toString('base64url');
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: webDist,
    PUBLIC_URL: 'https://avp.example.test',
    TRUST_PROXY: 'loopback',
    SESSION_SECRET: random(48),
    STRIPE_SECRET_KEY: `sk_test_${random(24).replace(/-/g, '_')}`,
    STRIPE_PUBLISHABLE_KEY: `pk_test_${random(24).replace(/-/g, '_')}`,
    STRIPE_WEBHOOK_SECRET: `whsec_${random(24).replace(/-/g, '_')}`,
    // Nothing listens there: no mail is sent during the test, and readiness only needs mail configured.
    SMTP_URL: `smtp://127.0.0.1:${port + 1}`,
    MAIL_FROM: 'Northbeam <no-reply@avp.example.test>',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
  };
}

/** Polls /api/ready until it answers 200 or the deadline passes; resolves with the last answer. */
async function waitReady(url: string, exited: () => boolean): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last: { status: number; body: unknown } = { status: 0, body: undefined };
  while (Date.now() < deadline && !exited()) {
    try {
      const res = await fetch(`${url}/api/ready`, { signal: AbortSignal.timeout(5_000) });
      last = { status: res.status, body: await res.json() };
      if (res.status === 200) return last;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return last;
}

function collect(child: ChildProcess) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => (out.stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (out.stderr += chunk.toString('utf8')));
  const exit = new Promise<number>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))),
  );
  return { out, exit };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

/** Whether this machine's docker can build: the client alone (no daemon) cannot. */
async function dockerCanBuild(): Promise<string | true> {
  try {
    await run('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 15_000 });
    return true;
  } catch (error) {
    const failed = error as { code?: string; stderr?: string; message?: string };
    if (failed.code === 'ENOENT') return 'no docker command on PATH';
    const line =
      (failed.stderr ?? failed.message ?? '').trim().split('\n').find(Boolean) ?? 'docker info failed';
    return `docker info failed: ${line}`;
  }
}

const docker = await dockerCanBuild();
if (docker !== true) {
  console.warn(
    `Skipped the Docker image test: this machine cannot build images (${docker}). ` +
      'npm run start:production, the same steps without Docker, is tested instead.',
  );
}

describe('production recipe', () => {
  it(
    'start:production (build/scripts/start-production.mjs, what npm runs) builds, migrates and serves with production settings: /api/ready answers 200',
    async () => {
      const data = await tempDir('ops-backup-prod-');
      cleanups.push(() => data.remove());
      const webDist = await writeWebDist(path.join(data.dir, 'web-dist'));
      const port = await freePort();
      const child = spawn(process.execPath, [path.join('build', 'scripts', 'start-production.mjs')], {
        cwd: ROOT,
        env: productionEnv(port, path.join(data.dir, 'data'), webDist),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const { out, exit } = collect(child);
      let exited = false;
      void exit.then(() => (exited = true));
      cleanups.push(async () => {
        if (!exited) child.kill('SIGKILL');
        await exit;
      });

      const ready = await waitReady(`http://127.0.0.1:${port}`, () => exited);
      expect(ready, out.stderr).toMatchObject({ status: 200, body: { status: 'ready' } });
      // NODE_ENV=production: an unknown API path answers without a stack trace.
      const missing = await fetch(`http://127.0.0.1:${port}/api/no-such-route`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).not.toMatch(/at .*\.(js|ts):\d+/);

      // SIGTERM, as systemd or docker stop sends it to the launcher: passed on, and a clean stop.
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    },
    READY_TIMEOUT_MS + 30_000,
  );

  it('refuses demo secrets and settings before building anything', async () => {
    const data = await tempDir('ops-backup-prod-');
    cleanups.push(() => data.remove());
    const env = productionEnv(await freePort(), path.join(data.dir, 'data'), data.dir);
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET', 'SMTP_URL']) {
      delete env[name];
    }
    const child = spawn(process.execPath, [path.join('build', 'scripts', 'start-production.mjs')], {
      cwd: ROOT,
      env: {
        ...env,
        SESSION_SECRET: TEST_SECRET,
        PUBLIC_URL: 'http://127.0.0.1:3000',
        METRICS_TOKEN: 'CHANGE-ME-metrics-token',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { out, exit } = collect(child);
    expect(await exit).toBe(1);
    const lines = out.stderr.trim().split('\n');
    expect(lines).toEqual([
      'Refusing to start in production: SESSION_SECRET is a demo or placeholder value: set the real one.',
      'Refusing to start in production: METRICS_TOKEN is a demo or placeholder value: set the real one.',
      'Refusing to start in production: STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are not set: the built-in test gateway would take the test cards (4242 4242 4242 4242) as payment.',
      'Refusing to start in production: PUBLIC_URL must be the https:// address clients reach (behind nginx or Caddy, which hold the certificate).',
      'Refusing to start in production: SMTP_URL is not set: e-mail would be written to files under DATA_DIR/mail instead of sent.',
      "See README 'Run in production' for every setting.",
    ]);

    // A secret left unset (the demo generates one into DATA_DIR) is refused too.
    const unset = spawn(process.execPath, [path.join('build', 'scripts', 'start-production.mjs')], {
      cwd: ROOT,
      env: { ...productionEnv(await freePort(), path.join(data.dir, 'data'), data.dir), SESSION_SECRET: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const second = collect(unset);
    expect(await second.exit).toBe(1);
    expect(second.out.stderr).toContain('Refusing to start in production: SESSION_SECRET is not set');
  });

  it.runIf(docker === true)(
    'the Docker image builds, runs as a non-root user and answers ready',
    async () => {
      const tag = `avp-recipe-test:${randomBytes(4).toString('hex')}`;
      await run('docker', ['build', '--tag', tag, '.'], {
        cwd: ROOT,
        timeout: 30 * 60_000,
        maxBuffer: 64 << 20,
      });
      cleanups.push(() => run('docker', ['rmi', '--force', tag]));
      const port = await freePort();
      const env = productionEnv(port, '/var/lib/avp', '/app/web/dist');
      const settings = Object.entries(env)
        .filter(([name]) => !['PATH', 'HOME', 'PORT', 'HOST', 'DATA_DIR', 'WEB_DIST_DIR'].includes(name))
        .flatMap(([name, value]) => ['--env', `${name}=${value}`]);
      const { stdout } = await run('docker', [
        'run',
        '--detach',
        '--publish',
        `127.0.0.1:${port}:3000`,
        ...settings,
        tag,
      ]);
      const id = stdout.trim();
      cleanups.push(() => run('docker', ['rm', '--force', id]));
      const ready = await waitReady(`http://127.0.0.1:${port}`, () => false);
      expect(ready).toMatchObject({ status: 200, body: { status: 'ready' } });
      const user = await run('docker', ['exec', id, 'id', '-u']);
      expect(user.stdout.trim()).not.toBe('0');
    },
    40 * 60_000,
  );
});

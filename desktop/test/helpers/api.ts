/**
 * The real API as a child process (node on api/dist, compiled from api's sources by this project's global
 * setup, as the e2e server runs), in a fresh DATA_DIR with its own SQLite database: it can be killed and
 * started again on the same port and data, which an in-process server cannot do. (Through tsx on the
 * sources a start took 3.4 s of CPU, compiled 1.8 s, and these files start or restart it about 30 times.)
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DESKTOP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const API_DIR = path.resolve(DESKTOP_DIR, '..', 'api');
export const TEST_SECRET = 'desktop-test-session-secret-long-enough-0123456789';
export const PASSWORD = 'Difference Engine 1843';

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function tempDir(prefix = 'avp-desktop-'): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface ApiProcess {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and data. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

function spawnServer(
  dataDir: string,
  port: number,
  extraEnv: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join('dist', 'server.js')], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_DIST_DIR: path.join(dataDir, 'no-web-dist'),
      SESSION_SECRET: TEST_SECRET,
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onExit = (code: number | null) => reject(new Error(`the API exited with ${code} before listening`));
    child.once('exit', onExit);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      if (buffered.includes('"listening on')) {
        child.off('exit', onExit);
        buffered = '';
        child.stdout!.resume();
        resolve(child);
      }
    });
  });
}

function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** extraEnv: more server settings (the cloud providers' base URLs aimed at stand-ins, say). */
export async function startApi(extraEnv: Record<string, string> = {}): Promise<ApiProcess> {
  const data = await tempDir('avp-desktop-api-');
  const port = await freePort();
  const api: ApiProcess = {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir: data.dir,
    child: await spawnServer(data.dir, port, extraEnv),
    kill: () => killChild(api.child),
    async restart() {
      await killChild(api.child);
      api.child = await spawnServer(data.dir, port, extraEnv);
    },
    async close() {
      await killChild(api.child);
      await data.remove();
    },
  };
  return api;
}

/** Registers a client account (a fresh e-mail each call) and returns its e-mail. */
export async function registerClient(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email,
      firstname: 'Ada',
      lastname: 'Lovelace',
      company: 'Analytical Engines Ltd',
      phone: '(555) 123-4567',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    }),
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
  return email;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** What the server stored for a file: DATA_DIR/uploads/submissions/<submission>/<file> (local driver). */
export function storedPath(dataDir: string, submissionId: string, fileId: string): string {
  return path.join(dataDir, 'uploads', 'submissions', submissionId, fileId);
}

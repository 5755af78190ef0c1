/**
 * Review states in `av-upload status` (issue #31), through the compiled CLI against the real API: a client
 * sends two files, staff (the owner account admin create makes) mark one Accepted and one Needs a new
 * version with a message, and status shows each file's state in words; with the server gone, status still
 * prints the history and exits 0, with one line saying the review states could not be fetched.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MineResponse } from '@avp/shared';
import { API_DIR, DESKTOP_DIR, PASSWORD, registerClient, startApi, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';

const BIN = path.join(DESKTOP_DIR, 'bin', 'av-upload.js');
const TSC = path.join(DESKTOP_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');
const STAFF = 'review-staff@example.com';
const CLIENT = 'review-client@example.com';
const WHY = 'The spot runs 45 s; the slot is 30 s.';

let api: ApiProcess;
let dir: string;
let home: string;
const cleanups: (() => Promise<void>)[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], input = ''): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: api.url },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** `av-upload status` on a pseudo-terminal, as a person reads it: the screen's lines and the exit code. */
function statusOnTerminal(): Promise<{ code: number | null; lines: string[] }> {
  const command = [process.execPath, BIN, 'status'].map((w) => `'${w}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', TERM: 'dumb', AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: api.url },
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  let screen = '';
  child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (screen += chunk.toString('utf8')));
  child.stdin.end();
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, lines: screen.split(/\r?\n/).filter((l) => l !== '') })),
  );
}

async function login(email: string): Promise<string> {
  const res = await fetch(`${api.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, token: true }),
  });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error(`sign-in of ${email} answered ${res.status}`);
  return body.token;
}

async function call<T>(token: string, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${api.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

async function createStaff(): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      // api/dist, built by the global setup: through tsx a start costs about twice the CPU.
      path.join('dist', 'cli', 'admin.js'),
      'create',
      '--email',
      STAFF,
      '--first',
      'Eve',
      '--last',
      'Staff',
    ],
    {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: api.dataDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stdin.end(PASSWORD);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`admin create failed (${code}): ${output}`);
}

const fileLine = (lines: string[], name: string) =>
  lines.find((line) => line.startsWith(`  ${name}  `)) ?? `(no line for ${name})`;

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [TSC, '-b', path.join(DESKTOP_DIR, 'tsconfig.json')]);
  api = await startApi();
  cleanups.push(() => api.close());
  const work = await tempDir('status-reviews-');
  cleanups.push(work.remove);
  dir = work.dir;
  home = path.join(dir, 'home');
  await registerClient(api.url, CLIENT);
  await createStaff();
  await writeFile(path.join(dir, 'spot.mov'), randomBytes(4000));
  await writeFile(path.join(dir, 'logo.png'), randomBytes(3000));
  await writeFile(path.join(dir, 'intro.mov'), randomBytes(2000));
  const signIn = await run(['login', '--email', CLIENT, '--password-stdin', '--json'], `${PASSWORD}\n`);
  if (signIn.code !== 0) throw new Error(`login failed: ${signIn.stdout}${signIn.stderr}`);
  const sent = await run([
    'upload',
    '--json',
    '--form',
    'sponsor',
    '--event-name',
    'Expo 2027',
    '--sponsor-company',
    'Acme AV',
    'spot.mov',
    'logo.png',
    'intro.mov',
  ]);
  if (sent.code !== 0) throw new Error(`upload failed: ${sent.stdout}${sent.stderr}`);
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('av-upload status with review states', () => {
  it("shows each sent file's review state and the staff message once staff mark the files", async () => {
    const before = await statusOnTerminal();
    expect(before.code).toBe(0);
    expect(fileLine(before.lines, 'spot.mov')).toMatch(/ {2}New$/);

    const { submissions } = await call<MineResponse>(await login(CLIENT), 'GET', '/api/uploads/mine');
    const files = Object.fromEntries(submissions[0]!.files.map((f) => [f.name, f.id]));
    const staff = await login(STAFF);
    await call(staff, 'PUT', `/api/uploads/inbox/files/${files['spot.mov']}/review`, {
      state: 'needs_new_version',
      message: WHY,
    });
    await call(staff, 'PUT', `/api/uploads/inbox/files/${files['logo.png']}/review`, { state: 'accepted' });

    const after = await statusOnTerminal();
    expect(after.code).toBe(0);
    expect(fileLine(after.lines, 'spot.mov')).toMatch(
      /^ {2}spot\.mov {2}\S+ \S+ {2}sha-256 [0-9a-f]{64} {2}Needs a new version: The spot runs 45 s; the slot is 30 s\.$/,
    );
    expect(fileLine(after.lines, 'logo.png')).toMatch(/ {2}Accepted$/);
    expect(fileLine(after.lines, 'intro.mov')).toMatch(/ {2}New$/);
    expect(after.lines.join('\n')).not.toContain('could not be fetched');

    const json = await run(['status', '--json']);
    const status = JSON.parse(json.stdout.split('\n')[0]!) as {
      history: {
        files: { name: string; review?: { state: string; message: string | null; words: string } }[];
      }[];
    };
    expect(status.history[0]!.files.find((f) => f.name === 'spot.mov')!.review).toMatchObject({
      state: 'needs_new_version',
      message: WHY,
      words: `Needs a new version: ${WHY}`,
    });
  });

  it('prints the history as before, plus one line, when the server does not answer (exit 0)', async () => {
    const online = await statusOnTerminal();
    await api.kill();
    try {
      const offline = await statusOnTerminal();
      expect(offline.code).toBe(0);
      expect(offline.lines.filter((l) => l.includes('could not be fetched'))).toEqual([
        `Review states could not be fetched: Nothing answers at ${api.url} (the connection was refused).`,
      ]);
      const strip = (lines: string[]) =>
        lines
          .filter((l) => !l.startsWith('Review states could not be fetched'))
          .map((l) => l.replace(/ {2}(New|Accepted|Needs a new version: .*)$/, ''));
      expect(strip(offline.lines)).toEqual(strip(online.lines));
      expect(fileLine(offline.lines, 'spot.mov')).toMatch(/sha-256 [0-9a-f]{64}$/);
    } finally {
      await api.restart();
    }
  });
});

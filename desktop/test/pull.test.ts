/**
 * av-upload pull (issue #31) through the compiled CLI against the real API: a staff pull of an event's
 * files into DIR/<company>/<file> (names made safe and unique), each verified, with manifest.csv; a pull
 * killed mid-file and resumed from the bytes already on disk; a corrupted local file fetched again; a
 * file the server's bytes no longer match reported (exit 4); --accepted-only; a client refused (exit 4).
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP_DIR,
  PASSWORD,
  registerClient,
  sha256File,
  startApi,
  storedPath,
  tempDir,
} from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';
import * as show from './helpers/pull-show.js';

const BIN = path.join(DESKTOP_DIR, 'bin', 'av-upload.js');
const TSC = path.join(DESKTOP_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');
const STAFF = 'events@example.com';
const CLIENT = 'pull-client@example.com';

let api: ApiProcess;
let dir: string;
let staffHome: string;
let clientHome: string;
let staffToken: string;
const cleanups: (() => Promise<void>)[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: Record<string, unknown>[];
}

const parseLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function spawnCli(home: string, args: string[], input = ''): ChildProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: api.url },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin!.end(input);
  return child;
}

function finish(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr, lines: parseLines(stdout) }));
  });
}

const run = (home: string, args: string[], input = '') => finish(spawnCli(home, args, input));

// The API calls of the show's tests (helpers/pull-show.ts), bound to this file's server.
const login = (email: string) => show.login(api, email);
const call = <T>(token: string, method: string, route: string, body?: unknown) =>
  show.call<T>(api, token, method, route, body);
const send = (token: string, company: string, files: { name: string; bytes: Buffer }[]) =>
  show.send(api, token, 'Expo 2027', company, files);
const createStaff = () => show.createStaff(api, STAFF);

const big = randomBytes(1024 * 1024);
const spot = randomBytes(40_000);
const logo = randomBytes(5_000);
const spot2 = randomBytes(7_000);
const odd = randomBytes(3_000);
const { sha } = show;
let bigStored: { submissionId: string; id: string };

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [TSC, '-b', path.join(DESKTOP_DIR, 'tsconfig.json')]);
  api = await startApi();
  cleanups.push(() => api.close());
  const work = await tempDir('pull-test-');
  cleanups.push(work.remove);
  dir = work.dir;
  staffHome = path.join(dir, 'staff-home');
  clientHome = path.join(dir, 'client-home');
  await registerClient(api.url, CLIENT);
  await createStaff();
  staffToken = await login(STAFF);
  const clientToken = await login(CLIENT);
  const first = await send(clientToken, 'Acme AV', [
    { name: 'spot.mov', bytes: spot },
    { name: 'logo.png', bytes: logo },
    { name: 'CON.mov', bytes: odd },
  ]);
  // The same name twice under one company: the second is kept beside the first, not over it.
  await send(clientToken, 'Acme AV', [{ name: 'Spot.mov', bytes: spot2 }]);
  const other = await send(clientToken, 'Blue: Sky / Media', [{ name: 'reel?.mp4', bytes: big }]);
  bigStored = { submissionId: other.submissionId, id: other.ids[0]! };
  await call(staffToken, 'PUT', `/api/uploads/inbox/files/${first.ids[1]}/review`, { state: 'accepted' });
  for (const [home, email] of [
    [staffHome, STAFF],
    [clientHome, CLIENT],
  ] as const) {
    const res = await run(home, ['login', '--email', email, '--password-stdin', '--json'], `${PASSWORD}\n`);
    if (res.code !== 0) throw new Error(`login failed: ${res.stderr}`);
  }
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('av-upload pull', () => {
  it('refuses a client account in words (exit 4) and a pull without an event (exit 2)', async () => {
    const refused = await run(clientHome, ['pull', '--event', 'Expo 2027', '--json', path.join(dir, 'c')]);
    expect(refused.code).toBe(4);
    expect(refused.lines).toEqual([
      expect.objectContaining({
        event: 'error',
        exitCode: 4,
        message: expect.stringContaining(
          'Pulling an event is for staff accounts; this account is a client account.',
        ),
      }),
    ]);
    expect(existsSync(path.join(dir, 'c'))).toBe(false);
    const bare = await run(staffHome, ['pull', path.join(dir, 'c')]);
    expect(bare.code).toBe(2);
    expect(bare.lines).toEqual([
      expect.objectContaining({
        exitCode: 2,
        message: 'Name the event: av-upload pull --event "Expo 2027" DIR',
      }),
    ]);
  });

  it('pulls every file of the event, verified, into safe unique names with a manifest', async () => {
    const out = path.join(dir, 'show');
    const res = await run(staffHome, ['pull', '--event', 'expo 2027', '--json', out]);
    expect(res.stderr).toBe('');
    expect(res.code, res.stdout).toBe(0);
    const want: [string, Buffer][] = [
      ['Acme AV/spot.mov', spot],
      ['Acme AV/Spot (2).mov', spot2],
      ['Acme AV/logo.png', logo],
      ['Acme AV/_CON.mov', odd],
      ['Blue_ Sky _ Media/reel_.mp4', big],
    ];
    for (const [rel, bytes] of want) {
      expect(await sha256File(path.join(out, ...rel.split('/'))), rel).toBe(sha(bytes));
    }
    expect(res.lines.filter((l) => l.event === 'pulled').map((l) => l.result)).toEqual(
      Array(5).fill('fetched'),
    );
    expect(res.lines.at(-1)).toMatchObject({ event: 'pull', files: 5, fetched: 5, skipped: 0, failed: [] });
    const manifest = (await readFile(path.join(out, 'manifest.csv'), 'utf8')).split('\r\n');
    expect(manifest[0]).toBe('company,client,file,size,sha-256,facts,review state,received');
    expect(manifest).toContainEqual(
      expect.stringMatching(
        new RegExp(`^Acme AV,Ada Lovelace,logo\\.png,5000,${sha(logo)},[^,]*,Accepted,\\d{4}-`),
      ),
    );
    expect(manifest.filter((l) => l !== '')).toHaveLength(6);

    // Again: everything present and verified is skipped.
    const again = await run(staffHome, ['pull', '--event', 'Expo 2027', '--json', out]);
    expect(again.code).toBe(0);
    expect(again.lines.at(-1)).toMatchObject({ fetched: 0, skipped: 5, bytes: 0 });

    // A local file changed since (same size): fetched again, the others still skipped.
    const local = path.join(out, 'Acme AV', 'spot.mov');
    const bytes = await readFile(local);
    bytes[100] = bytes[100]! ^ 0xff;
    await writeFile(local, bytes);
    const repaired = await run(staffHome, ['pull', '--event', 'Expo 2027', '--json', out]);
    expect(repaired.code).toBe(0);
    expect(repaired.lines.at(-1)).toMatchObject({ fetched: 1, skipped: 4, bytes: spot.length });
    expect(await sha256File(local)).toBe(sha(spot));
  });

  it('takes only accepted files with --accepted-only', async () => {
    const out = path.join(dir, 'accepted');
    const res = await run(staffHome, ['pull', '--event', 'Expo 2027', '--accepted-only', '--json', out]);
    expect(res.code).toBe(0);
    expect(res.lines.filter((l) => l.event === 'pulled').map((l) => l.file)).toEqual(['Acme AV/logo.png']);
    expect(existsSync(path.join(out, 'Acme AV', 'spot.mov'))).toBe(false);
  });

  it('resumes a pull killed mid-file from the bytes on disk, without fetching them again', async () => {
    const out = path.join(dir, 'killed');
    const part = path.join(out, 'Blue_ Sky _ Media', 'reel_.mp4.part');
    const child = spawnCli(staffHome, [
      'pull',
      '--event',
      'Expo 2027',
      '--bandwidth',
      '256k',
      '--parallel',
      '1',
      '--json',
      out,
    ]);
    const done = finish(child);
    // Wait (bounded) until part of the big file is on disk, then kill it as a crash would.
    for (let i = 0; i < 400; i += 1) {
      const size = existsSync(part) ? (await stat(part)).size : 0;
      if (size > 100_000) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    await done;
    const kept = (await stat(part)).size;
    expect(kept).toBeGreaterThan(100_000);
    expect(kept).toBeLessThan(big.length);

    const res = await run(staffHome, ['pull', '--event', 'Expo 2027', '--json', out]);
    expect(res.code).toBe(0);
    const reel = res.lines.find((l) => l.file === 'Blue_ Sky _ Media/reel_.mp4')!;
    expect(reel.resumedFrom).toBeGreaterThanOrEqual(kept);
    expect(reel.attempts).toBe(1);
    expect(await sha256File(path.join(out, 'Blue_ Sky _ Media', 'reel_.mp4'))).toBe(sha(big));
    expect(existsSync(part)).toBe(false);
  });

  it('fetches a file whose bytes do not match the server’s sha-256 once more, then reports it (exit 4)', async () => {
    const stored = storedPath(api.dataDir, bigStored.submissionId, bigStored.id);
    const original = await readFile(stored);
    const broken = Buffer.from(original);
    broken[10] = broken[10]! ^ 0xff;
    await writeFile(stored, broken);
    try {
      const out = path.join(dir, 'mismatch');
      const res = await run(staffHome, ['pull', '--event', 'Expo 2027', '--json', out]);
      expect(res.code, res.stdout).toBe(4);
      const reel = res.lines.find((l) => l.file === 'Blue_ Sky _ Media/reel_.mp4')!;
      expect(reel).toMatchObject({ result: 'mismatch', attempts: 2 });
      expect(res.lines.at(-1)).toMatchObject({
        event: 'error',
        exitCode: 4,
        message: expect.stringContaining(
          "Did not match the server's sha-256 after a second download: Blue_ Sky _ Media/reel_.mp4",
        ),
      });
      expect(existsSync(path.join(out, 'Blue_ Sky _ Media', 'reel_.mp4'))).toBe(false);
    } finally {
      await writeFile(stored, original);
    }
  });
});

/**
 * av-upload through a child process (the bin shim running the compiled CLI) against the real API:
 * validation with the spec's messages, sign-in, upload with JSON lines, an interrupted upload resumed,
 * a file changed while stopped, status, and sign-out revoking the token on the server.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_DIR, PASSWORD, registerClient, sha256File, startApi, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';

const BIN = path.join(DESKTOP_DIR, 'bin', 'av-upload.js');
const TSC = path.join(DESKTOP_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');
let api: ApiProcess;
let dir: string;
let home: string;
const cleanups: (() => Promise<void>)[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: Record<string, unknown>[];
}

function run(
  args: string[],
  options: { input?: string; until?: (line: Record<string, unknown>) => boolean } = {},
): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: api.url },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let signalled = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (options.until && !signalled) {
      const lines = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      if (lines.some(options.until)) {
        signalled = true;
        child.kill('SIGINT');
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const lines = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ code, stdout, stderr, lines });
    });
  });
}

async function makeFile(name: string, size: number): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, randomBytes(size));
  return file;
}

beforeAll(async () => {
  // The bin runs the compiled output: build it (incremental, quick when up to date).
  await promisify(execFile)(process.execPath, [TSC, '-b', path.join(DESKTOP_DIR, 'tsconfig.json')]);
  api = await startApi();
  cleanups.push(() => api.close());
  const work = await tempDir();
  cleanups.push(work.remove);
  dir = work.dir;
  home = path.join(dir, 'home');
  await registerClient(api.url, 'cli@example.com');
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('av-upload', () => {
  it('runs as a command through its #! line (env -S node with the young generation capped)', async () => {
    const { stdout } = await promisify(execFile)(BIN, ['--help'], {
      env: { PATH: process.env.PATH ?? '', AV_UPLOAD_HOME: home },
    });
    expect(stdout).toMatch(/^Usage: av-upload <command>/);
    expect((await readFile(BIN, 'utf8')).split('\n')[0]).toBe(
      '#!/usr/bin/env -S node --max-semi-space-size=4',
    );
  });

  it('checks the form with the shared messages before anything else (exit 2)', async () => {
    const file = await makeFile('a.mov', 10);
    const res = await run(['upload', '--form', 'sponsor', '--event-name', 'Expo', 'a.mov']);
    expect(res.code).toBe(2);
    expect(res.lines).toEqual([
      { event: 'invalid', errors: { sponsor_company: 'Please enter a sponsor company.' } },
    ]);
    const noFile = await run(['upload', '--form', 'creative', '--project-name', 'Reel']);
    expect(noFile.code).toBe(2);
    expect(noFile.lines[0]).toEqual({ event: 'invalid', errors: { files: 'Please Add a File.' } });
    const event = await run([
      'upload',
      '--form',
      'event',
      '--event-name',
      'Expo',
      '--date',
      '2027-03-01',
      '--hour',
      '13',
      '--minute',
      '7',
      file,
    ]);
    expect(event.code).toBe(2);
    expect(event.lines[0]!.errors).toEqual({
      hour: 'Please choose an hour.',
      minute: 'Please choose the minutes.',
      ampm: 'Please choose AM or PM.',
      speaker_name: 'Please enter a speaker name.',
    });
  });

  it('needs a sign-in (exit 3) and refuses a wrong password with the spec text', async () => {
    await makeFile('b.mov', 10);
    const res = await run(['upload', '--form', 'creative', '--project-name', 'Reel', 'b.mov']);
    expect(res.code).toBe(3);
    expect(res.lines[0]).toMatchObject({ event: 'error', exitCode: 3 });
    const wrong = await run(['login', '--email', 'cli@example.com', '--password-stdin'], {
      input: 'not it\n',
    });
    expect(wrong.code).toBe(3);
    expect(wrong.lines[0]!.message).toBe(
      'Your email or your password did not match our records, please re-enter your login credentials.',
    );
  });

  it('signs in, uploads a folder and a file with JSON lines, reports status, signs out and revokes the token', async () => {
    const login = await run(['login', '--email', 'cli@example.com', '--password-stdin'], {
      input: `${PASSWORD}\n`,
    });
    expect(login.code).toBe(0);
    expect(login.lines[0]).toMatchObject({ event: 'login', email: 'cli@example.com' });
    const { token } = JSON.parse(await readFile(path.join(home, 'credentials.json'), 'utf8')) as {
      token: string;
    };

    await makeFile(path.join('..', path.basename(dir), 'reel.mov'), 7 * 1024 * 1024);
    const folder = path.join(dir, 'stills');
    await import('node:fs/promises').then((fs) => fs.mkdir(folder));
    const still = await makeFile(path.join('stills', 'still.png'), 3000);
    const res = await run([
      'upload',
      '--form',
      'sponsor',
      '--event-name',
      'Expo 2027',
      '--sponsor-company',
      'Acme AV',
      'reel.mov',
      'stills',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.lines[0]).toMatchObject({
      event: 'queued',
      files: [{ name: 'reel.mov' }, { name: 'still.png' }],
    });
    const submitted = res.lines.find((l) => l.event === 'submitted') as {
      files: { name: string; sha256: string }[];
    };
    expect(submitted.files).toEqual([
      expect.objectContaining({ name: 'reel.mov', sha256: await sha256File(path.join(dir, 'reel.mov')) }),
      expect.objectContaining({ name: 'still.png', sha256: await sha256File(still) }),
    ]);
    expect(res.lines.some((l) => l.event === 'progress')).toBe(true);

    const status = await run(['status', '--json']);
    expect(status.code).toBe(0);
    expect(status.lines[0]).toMatchObject({
      signedIn: { email: 'cli@example.com' },
      jobs: [],
      history: [{ formType: 'sponsor' }],
    });

    const logout = await run(['logout']);
    expect(logout.code).toBe(0);
    expect(existsSync(path.join(home, 'credentials.json'))).toBe(false);
    const session = (await (
      await fetch(`${api.url}/api/session`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { user: unknown };
    expect(session.user).toBeNull();
  });

  it('saves the queue on Ctrl-C (exit 130), resumes it, and stops a file changed meanwhile (exit 5)', async () => {
    expect((await run(['login', '--email', 'cli@example.com'], { input: `${PASSWORD}\n` })).code).toBe(0);
    const file = await makeFile('long.mov', 4 * 1024 * 1024);
    const stopped = await run(
      ['upload', '--bandwidth', '1M', '--form', 'creative', '--project-name', 'Reel', 'long.mov'],
      {
        until: (l) => l.event === 'queued',
      },
    );
    expect(stopped.code).toBe(130);
    const saved = await run(['status', '--json']);
    expect((saved.lines[0]!.jobs as unknown[]).length).toBe(1);

    const resumed = await run(['resume', '--bandwidth', '0']);
    expect(resumed.code).toBe(0);
    const submitted = resumed.lines.find((l) => l.event === 'submitted') as { files: { sha256: string }[] };
    expect(submitted.files[0]!.sha256).toBe(await sha256File(file));

    const other = await makeFile('edited.mov', 4 * 1024 * 1024);
    const again = await run(
      ['upload', '--bandwidth', '1M', '--form', 'creative', '--project-name', 'Reel 2', 'edited.mov'],
      {
        until: (l) => l.event === 'queued',
      },
    );
    expect(again.code).toBe(130);
    await new Promise((r) => setTimeout(r, 20));
    await appendFile(other, 'changed');
    const changed = await run(['resume', '--bandwidth', '0']);
    expect(changed.code).toBe(5);
    expect(changed.lines.find((l) => l.event === 'failed')).toMatchObject({
      file: 'edited.mov',
      code: 'file_changed',
      message: expect.stringMatching(/changed on disk after it was queued/),
    });
  });

  it('watch folders: add (form checked), list, and run until Ctrl-C, sending a dropped file once it stops growing', async () => {
    const login = await run(['login', '--email', 'cli@example.com', '--password-stdin'], { input: PASSWORD });
    expect(login.code).toBe(0);
    const folder = path.join(dir, 'drop');
    await mkdir(folder);
    const bad = await run(['watch', 'add', folder, '--form', 'sponsor', '--event-name', 'Expo']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sponsor-company: Please enter a sponsor company.');
    const args = ['--form', 'sponsor', '--event-name', 'Watch Expo', '--sponsor-company', 'Acme AV'];
    // A schedule belongs to a run or to the saved defaults, not to a folder: refused, not ignored.
    const scheduled = await run(['watch', 'add', folder, ...args, '--schedule', 'Mon-Fri 09:00-18:00 2MB']);
    expect(scheduled.code).toBe(2);
    expect(scheduled.lines[0]).toMatchObject({
      event: 'error',
      exitCode: 2,
      message: expect.stringMatching(
        /^watch add does not take --schedule\. To change the default of every run/,
      ),
    });
    expect((await run(['settings', '--schedule', 'Mon-Fri 09:00-18:00 2MB'])).code).toBe(0);
    const added = await run(['watch', 'add', folder, ...args, '--json']);
    expect(added.code).toBe(0);
    expect(added.lines[0]).toMatchObject({
      event: 'watching',
      folder,
      form: 'sponsor',
      existingFiles: 0,
      sendsExisting: true,
    });
    expect((await run(['watch', 'add', folder, ...args])).code).toBe(2);
    const listed = await run(['watch', 'list', '--json']);
    expect(listed.lines[0]).toMatchObject({
      event: 'watches',
      watches: [expect.objectContaining({ folder })],
    });
    const status = await run(['status', '--json']);
    expect(status.lines[0]).toMatchObject({
      settings: { schedule: [expect.objectContaining({ from: '09:00' })] },
    });

    const file = path.join(folder, 'drop.mov');
    await writeFile(file, randomBytes(4096));
    const ran = await run(['watch', '--json'], { until: (line) => line.event === 'submitted' });
    expect(ran.code).toBe(130);
    expect(ran.lines.find((line) => line.event === 'submitted')).toMatchObject({
      files: [expect.objectContaining({ name: 'drop.mov', sha256: await sha256File(file) })],
    });
    const removed = await run([
      'watch',
      'remove',
      String((listed.lines[0]!.watches as { id: string }[])[0]!.id),
    ]);
    expect(removed.code).toBe(0);
    expect((await run(['watch', '--json'])).code).toBe(2);
  }, 90_000);

  it('watch add --only-new leaves the files already in the folder alone and sends only new ones', async () => {
    expect(
      (await run(['login', '--email', 'cli@example.com', '--password-stdin'], { input: PASSWORD })).code,
    ).toBe(0);
    const folder = path.join(dir, 'only-new');
    await mkdir(folder);
    await writeFile(path.join(folder, 'old.mov'), randomBytes(2048));
    const args = ['--form', 'sponsor', '--event-name', 'Watch Expo', '--sponsor-company', 'Acme AV'];
    const added = await run(['watch', 'add', folder, ...args, '--only-new']);
    expect(added.code).toBe(0);
    expect(added.lines[0]).toMatchObject({ event: 'watching', existingFiles: 1, sendsExisting: false });
    const fresh = path.join(folder, 'new.mov');
    await writeFile(fresh, randomBytes(4096));
    const ran = await run(['watch', '--json'], { until: (line) => line.event === 'submitted' });
    expect(ran.code).toBe(130);
    const sent = ran.lines.filter((line) => line.event === 'submitted') as { files: { name: string }[] }[];
    expect(sent.flatMap((s) => s.files.map((f) => f.name))).toEqual(['new.mov']);
    expect(sent[0]).toMatchObject({ files: [expect.objectContaining({ sha256: await sha256File(fresh) })] });
    const id = (added.lines[0] as { id: string }).id;
    expect((await run(['watch', 'remove', id])).code).toBe(0);
  }, 90_000);

  it('goes on PATH with `npm link -w desktop` and runs from any folder', async () => {
    // npm's global folder is a throwaway one here (its global config names the prefix), not the machine's.
    const global = path.join(dir, 'npm-global');
    const npmrc = path.join(dir, 'global-npmrc');
    await writeFile(npmrc, `prefix=${global}\n`);
    await promisify(execFile)(
      'npm',
      ['link', '-w', 'desktop', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      {
        cwd: path.join(DESKTOP_DIR, '..'),
        env: { ...process.env, NPM_CONFIG_GLOBALCONFIG: npmrc },
        timeout: 120_000,
      },
    );
    const elsewhere = await tempDir('avp-elsewhere-');
    cleanups.push(elsewhere.remove);
    const bin = process.platform === 'win32' ? global : path.join(global, 'bin');
    const { stdout } = await promisify(execFile)('av-upload', ['--help'], {
      cwd: elsewhere.dir,
      env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, AV_UPLOAD_HOME: home },
    });
    expect(stdout).toMatch(/^Usage: av-upload <command>/);
  }, 120_000);
});

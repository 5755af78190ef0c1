/**
 * av-upload and the event's media spec (issue #30), through the compiled CLI against the real API: each
 * file's facts are read before anything is sent; a file a blocking spec refuses stops the command with
 * exit 2, naming it, with nothing queued on the server; a warning spec sends the file with its facts and
 * the server records the warning; a free-text event name carries no check.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaSpec } from '@avp/shared';
import { API_DIR, DESKTOP_DIR, PASSWORD, registerClient, startApi, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';

const BIN = path.join(DESKTOP_DIR, 'bin', 'av-upload.js');
const TSC = path.join(DESKTOP_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');
const FIXTURES = fileURLToPath(new URL('../../test/fixtures/media/', import.meta.url));
const WRONG = 'h264-1280x720-25-aac.mp4';
const RIGHT = 'h264-1920x1080-29.97-aac-faststart.mp4';
const WRONG_SENTENCE = 'The screens need 1920×1080; this file is 1280×720.';

let api: ApiProcess;
let dir: string;
let home: string;
let staffToken: string;
const cleanups: (() => Promise<void>)[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: Record<string, unknown>[];
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

/** A staff account made with the API's own admin command, signed in for a bearer token. */
async function staffSession(): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      // api/dist, built by the global setup: through tsx a start costs about twice the CPU.
      path.join('dist', 'cli', 'admin.js'),
      'create',
      '--email',
      'events@example.com',
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
  const res = await fetch(`${api.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'events@example.com', password: PASSWORD, token: true }),
  });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error(`staff sign-in answered ${res.status}`);
  return body.token;
}

async function createEvent(name: string, sponsor: Partial<MediaSpec>): Promise<void> {
  const res = await fetch(`${api.url}/api/staff/upload-events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${staffToken}` },
    body: JSON.stringify({
      name,
      startsOn: '2030-03-01',
      endsOn: '2030-03-03',
      timeZone: 'America/Chicago',
      deadline: '2030-02-25T17:00',
      specs: { creative: null, event: null, sponsor },
    }),
  });
  if (res.status !== 201) throw new Error(`creating ${name} answered ${res.status}: ${await res.text()}`);
}

const screens1080 = (onMismatch: 'block' | 'warn'): Partial<MediaSpec> => ({
  containers: ['MP4', 'MOV'],
  videoCodecs: ['H.264'],
  resolutions: [{ width: 1920, height: 1080 }],
  onMismatch,
});

function sponsorUpload(event: string, ...files: string[]): Promise<Run> {
  return run([
    'upload',
    '--form',
    'sponsor',
    '--event-name',
    event,
    '--sponsor-company',
    'Acme AV',
    ...files,
  ]);
}

async function staffInbox(): Promise<{ files: { name: string; check?: unknown }[] }[]> {
  const res = await fetch(`${api.url}/api/uploads/inbox`, {
    headers: { authorization: `Bearer ${staffToken}` },
  });
  if (res.status !== 200) throw new Error(`the inbox answered ${res.status}`);
  const body = (await res.json()) as { submissions: { files: { name: string; check?: unknown }[] }[] };
  return body.submissions;
}

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [TSC, '-b', path.join(DESKTOP_DIR, 'tsconfig.json')]);
  api = await startApi();
  cleanups.push(() => api.close());
  const work = await tempDir('avp-media-cli-');
  cleanups.push(work.remove);
  dir = work.dir;
  home = path.join(dir, 'home');
  for (const name of [WRONG, RIGHT]) await copyFile(path.join(FIXTURES, name), path.join(dir, name));
  staffToken = await staffSession();
  await createEvent('Expo 2030', screens1080('block'));
  await createEvent('Warn Fest 2030', screens1080('warn'));
  await registerClient(api.url, 'media-cli@example.com');
  const login = await run(['login', '--email', 'media-cli@example.com', '--password-stdin'], `${PASSWORD}\n`);
  if (login.code !== 0) throw new Error(`login: ${login.stdout} ${login.stderr}`);
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('av-upload and the event media spec', () => {
  it('stops with exit 2 on a file a blocking spec refuses, naming it and its mismatch; nothing is queued', async () => {
    // The form's event name matches the event whatever its case and spaces.
    const res = await sponsorUpload('  expo 2030 ', RIGHT, WRONG);
    expect(res.code).toBe(2);
    const blocked = res.lines.find((l) => l.event === 'blocked') as {
      files: { name: string; factsText: string; check: { verdict: string; issues: string[] } }[];
      message: string;
    };
    expect(blocked.message).toBe(
      `Not sent: ${WRONG} does not meet the media spec of Expo 2030, which blocks such files. Nothing was queued.`,
    );
    expect(blocked.files).toEqual([
      expect.objectContaining({
        name: RIGHT,
        factsText: '1920×1080 · H.264 · 29.97 fps · 0:02 · AAC 48 kHz stereo',
        check: { verdict: 'ok', issues: [] },
      }),
      expect.objectContaining({
        name: WRONG,
        factsText: '1280×720 · H.264 · 25 fps · 0:02 · AAC 48 kHz stereo',
        check: { verdict: 'block', issues: [WRONG_SENTENCE] },
      }),
    ]);
    expect(res.lines.some((l) => l.event === 'queued')).toBe(false);
    const status = await run(['status', '--json']);
    expect(status.lines[0]).toMatchObject({ jobs: [] });
    expect(await staffInbox()).toEqual([]);
  });

  it('sends a file a warning spec flags, its facts on the queued line, and the server records the warning', async () => {
    const res = await sponsorUpload('Warn Fest 2030', WRONG);
    expect(res.code).toBe(0);
    const queued = res.lines.find((l) => l.event === 'queued') as { files: Record<string, unknown>[] };
    expect(queued.files).toEqual([
      expect.objectContaining({
        name: WRONG,
        factsText: '1280×720 · H.264 · 25 fps · 0:02 · AAC 48 kHz stereo',
        facts: expect.objectContaining({ width: 1280, height: 720, videoCodec: 'H.264', container: 'MP4' }),
        check: { verdict: 'warn', issues: [WRONG_SENTENCE] },
      }),
    ]);
    expect(res.lines.some((l) => l.event === 'submitted')).toBe(true);
    const [submission] = await staffInbox();
    expect(submission!.files).toEqual([
      expect.objectContaining({
        name: WRONG,
        check: expect.objectContaining({ verdict: 'warn', issues: [WRONG_SENTENCE] }),
      }),
    ]);
  });

  it('checks nothing for an event name that is no open event (free text)', async () => {
    const res = await sponsorUpload('Some Other Show', WRONG);
    expect(res.code).toBe(0);
    const queued = res.lines.find((l) => l.event === 'queued') as { files: Record<string, unknown>[] };
    expect(queued.files[0]).toMatchObject({ name: WRONG, check: { verdict: 'ok', issues: [] } });
  });

  it('sends a file it cannot read as "Could not read this file\'s details", even for a blocking spec', async () => {
    await copyFile(path.join(FIXTURES, 'not-a-video.mp4'), path.join(dir, 'notes.mp4'));
    const res = await sponsorUpload('Expo 2030', 'notes.mp4');
    expect(res.code).toBe(0);
    const queued = res.lines.find((l) => l.event === 'queued') as { files: Record<string, unknown>[] };
    expect(queued.files[0]).toMatchObject({
      name: 'notes.mp4',
      facts: null,
      factsText: "Could not read this file's details",
      check: { verdict: 'unreadable', issues: [] },
    });
    expect((await readFile(path.join(dir, 'notes.mp4'), 'utf8')).length).toBeGreaterThan(0);
  });
});

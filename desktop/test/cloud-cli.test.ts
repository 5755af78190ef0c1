/**
 * av-upload's cloud side through the command (a child process) against the real API and the stand-ins:
 * `accounts connect|list|disconnect` for each provider (the test opens the printed sign-in address as the
 * system browser would), a denied consent, `upload --from` with a Dropbox path and a Drive id beside a
 * local file, and `resume` after the command was interrupted while the server imported.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_DIR, PASSWORD, registerClient, sha256File, startApi, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';
import { startAuthStandIn, visit } from './helpers/cloud-auth.js';
import type { AuthStandIn } from './helpers/cloud-auth.js';
import { sha256, startImportStandIns } from './helpers/import-standins.js';
import type { DriveStandIn, ProvidersStandIn } from './helpers/import-standins.js';

const BIN = path.join(DESKTOP_DIR, 'bin', 'av-upload.js');
const TSC = path.join(DESKTOP_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');
const MIB = 1024 * 1024;
let api: ApiProcess;
let auth: AuthStandIn;
let drive: DriveStandIn;
let providers: ProvidersStandIn;
let dir: string;
let home: string;
let caFile: string;
const cleanups: (() => Promise<void>)[] = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: Record<string, unknown>[];
}

const parse = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Runs av-upload; a sign-in address it prints is visited as the system browser would. */
function run(
  args: string[],
  options: { input?: string; until?: (line: Record<string, unknown>) => boolean } = {},
): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      AV_UPLOAD_HOME: home,
      AV_UPLOAD_SERVER: api.url,
      AV_UPLOAD_BROWSER: 'none',
      // The Microsoft authority stand-in's certificate, made for this run.
      NODE_EXTRA_CA_CERTS: caFile,
      ...auth.env(),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let visited = 0;
  let signalled = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    const lines = parse(stdout);
    for (const line of lines.filter((l) => l.event === 'authorize').slice(visited)) {
      visited++;
      void visit(String(line.url));
    }
    if (options.until && !signalled && lines.some(options.until)) {
      signalled = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr, lines: parse(stdout) })),
  );
}

async function imports(): Promise<{ name: string; import: { status: string } }[]> {
  const login = await fetch(`${api.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'cloud-cli@example.com', password: PASSWORD, token: true }),
  });
  const { token } = (await login.json()) as { token: string };
  const res = await fetch(`${api.url}/api/uploads/imports`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { imports: { name: string; import: { status: string } }[] }).imports;
}

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [TSC, '-b', path.join(DESKTOP_DIR, 'tsconfig.json')]);
  auth = await startAuthStandIn();
  cleanups.push(() => auth.close());
  const standIns = await startImportStandIns(auth);
  cleanups.push(standIns.close);
  ({ drive, providers } = standIns);
  api = await startApi(standIns.apiEnv);
  cleanups.push(() => api.close());
  const work = await tempDir('avp-cloud-cli-');
  cleanups.push(work.remove);
  dir = work.dir;
  home = path.join(dir, 'home');
  caFile = path.join(dir, 'stand-in-ca.pem');
  await writeFile(caFile, auth.ca);
  await registerClient(api.url, 'cloud-cli@example.com');
  const tree = (provider: 'google-drive' | 'box' | 'onedrive', id: string) =>
    auth.items[provider].push({ id, name: 'reel.mov', parent: null, folder: false, size: 10 });
  tree('google-drive', 'greel');
  tree('box', '31');
  tree('onedrive', 'oreel');
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('av-upload accounts and imports', () => {
  it('accounts: list, connect each provider in the browser, disconnect (revoked where the provider allows)', async () => {
    const before = await run(['accounts', 'list', '--json']);
    expect(before.code).toBe(0);
    expect(before.lines[0]).toMatchObject({
      event: 'accounts',
      providers: expect.arrayContaining([
        expect.objectContaining({ provider: 'dropbox', configured: true, account: null }),
      ]),
    });
    for (const [name, email] of [
      ['dropbox', 'ada@dropbox.example'],
      ['drive', 'ada@gmail.example'],
      ['box', 'ada@box.example'],
      ['onedrive', 'ada@outlook.example'],
    ] as const) {
      const connected = await run(['accounts', 'connect', name]);
      expect(connected.stderr).toBe('');
      expect(connected.code).toBe(0);
      expect(connected.lines[0]).toMatchObject({
        event: 'authorize',
        url: expect.stringContaining('code_challenge_method=S256'),
      });
      expect(connected.lines[1]).toMatchObject({ event: 'connected', email });
    }
    const listed = await run(['accounts', 'list', '--json']);
    expect((listed.lines[0]!.providers as { account: unknown }[]).every((p) => p.account !== null)).toBe(
      true,
    );
    const file = path.join(home, 'accounts.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(home, 'accounts.key'))).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).not.toMatch(/-(access|refresh)-\d/);

    const box = await run(['accounts', 'disconnect', 'box']);
    expect(box.lines[0]).toMatchObject({ event: 'disconnected', provider: 'box', revoked: true });
    const onedrive = await run(['accounts', 'disconnect', 'onedrive']);
    expect(onedrive.lines[0]).toMatchObject({
      revoked: false,
      message: expect.stringMatching(/no way to revoke/),
    });
    const after = await run(['accounts', 'list', '--json']);
    const connected = (after.lines[0]!.providers as { provider: string; account: unknown }[]).filter(
      (p) => p.account,
    );
    expect(connected.map((p) => p.provider).sort()).toEqual(['dropbox', 'google-drive']);
    expect(
      (await run(['upload', '--form', 'creative', '--project-name', 'R', '--from', 'box:31'])).code,
    ).toBe(3);
  });

  it('a denied consent exits 3 with a clear message and connects nothing', async () => {
    auth.deny = true;
    const denied = await run(['accounts', 'connect', 'box']);
    expect(denied.code).toBe(3);
    expect(denied.lines.at(-1)).toMatchObject({
      event: 'error',
      message: 'Box access was not granted, so nothing was connected.',
    });
  });

  it('upload --from a Dropbox path and a Drive id beside a local file: one submission, the cloud files copied by the server intact', async () => {
    expect(
      (await run(['login', '--email', 'cloud-cli@example.com', '--password-stdin'], { input: PASSWORD }))
        .code,
    ).toBe(0);
    const keynote = randomBytes(7 * MIB);
    providers.files.set('id:keynote', { id: 'id:keynote', name: 'keynote.mov', data: keynote });
    auth.items.dropbox.push(
      { id: 'id:events', name: 'Events', parent: null, folder: true },
      { id: 'id:keynote', name: 'keynote.mov', parent: 'id:events', folder: false, size: keynote.length },
    );
    const clip = randomBytes(5 * MIB);
    drive.files.set('gclip', { name: 'clip.mov', mimeType: 'video/quicktime', data: clip });
    auth.items['google-drive'].push({
      id: 'gclip',
      name: 'clip.mov',
      parent: null,
      folder: false,
      size: clip.length,
    });
    const local = path.join(dir, 'local.mov');
    await writeFile(local, randomBytes(MIB));
    const missing = await run([
      'upload',
      '--form',
      'creative',
      '--project-name',
      'R',
      '--from',
      'dropbox:/Events/nope.mov',
    ]);
    expect(missing.code).toBe(2);

    const res = await run([
      'upload',
      '--form',
      'sponsor',
      '--event-name',
      'Expo 2027',
      '--sponsor-company',
      'Acme AV',
      '--from',
      'dropbox:/Events/keynote.mov',
      '--from',
      'drive:gclip',
      'local.mov',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.lines.find((l) => l.event === 'queued')).toMatchObject({
      files: [
        { name: 'local.mov' },
        { name: 'keynote.mov', from: 'dropbox:/Events/keynote.mov' },
        { name: 'clip.mov', from: 'drive:gclip' },
      ],
    });
    const submitted = res.lines.find((l) => l.event === 'submitted') as {
      files: { name: string; sha256: string }[];
    };
    expect(submitted.files.map((f) => [f.name, f.sha256])).toEqual([
      ['local.mov', await sha256File(local)],
      ['keynote.mov', sha256(keynote)],
      ['clip.mov', sha256(clip)],
    ]);
  });

  it('resume continues imports after the command was interrupted, without starting one twice', async () => {
    const big = randomBytes(13 * MIB);
    drive.files.set('gbig', { name: 'big.mov', mimeType: 'video/quicktime', data: big });
    auth.items['google-drive'].push({
      id: 'gbig',
      name: 'big.mov',
      parent: null,
      folder: false,
      size: big.length,
    });
    drive.delayMs = 1_500;
    const stopped = await run(
      ['upload', '--form', 'creative', '--project-name', 'Big', '--from', 'drive:gbig'],
      {
        until: (l) =>
          l.event === 'progress' &&
          (l.files as { cloud?: { status: string } }[])[0]?.cloud?.status === 'running',
      },
    );
    expect(stopped.code).toBe(130);
    const status = await run(['status', '--json']);
    expect(status.lines[0]).toMatchObject({
      jobs: [
        {
          files: [
            expect.objectContaining({
              name: 'big.mov',
              from: 'drive:gbig',
              cloud: expect.objectContaining({ provider: 'google-drive' }),
            }),
          ],
        },
      ],
    });
    drive.delayMs = 0;
    const resumed = await run(['resume']);
    expect(resumed.code).toBe(0);
    const submitted = resumed.lines.find((l) => l.event === 'submitted') as { files: { sha256: string }[] };
    expect(submitted.files[0]!.sha256).toBe(sha256(big));
    expect((await imports()).filter((i) => i.name === 'big.mov')).toHaveLength(1);
  });
});

/**
 * av-upload when things go wrong, as a child process (the bin shim running the compiled CLI) against the
 * real API: each exit code with the words it ends with, the retries said as they happen (JSON lines, and
 * lines on a real terminal through util-linux `script`), a server killed before and during an upload with
 * the job kept and finished by `resume`, the server's own refusal and failure named, options for one run
 * never saved and `settings` saving them.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_DIR, PASSWORD, registerClient, sha256File, startApi, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';

const BIN = path.join(DESKTOP_DIR, 'bin', 'av-upload.js');
const TSC = path.join(DESKTOP_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');
const MIB = 1024 * 1024;
/** The server refuses files above this (UPLOAD_MAX_BYTES), so a larger sparse file meets its own refusal. */
const MAX_BYTES = 64 * MIB;
const EMAIL = 'faults@example.com';

let api: ApiProcess;
let dir: string;
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

/** av-upload with stdout a pipe (so JSON lines), in `home`, talking to `server`. */
function run(args: string[], home: string, options: { input?: string; server?: string } = {}): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      AV_UPLOAD_HOME: home,
      AV_UPLOAD_SERVER: options.server ?? api.url,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr, lines: parse(stdout) })),
  );
}

/**
 * av-upload on a pseudo-terminal, as a person runs it: what the terminal showed (stdout and stderr
 * together) and the exit code. `onScreen` sees the screen as it grows (to kill the server at a moment).
 */
function runOnTerminal(
  args: string[],
  home: string,
  onScreen: (screen: string) => void = () => undefined,
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', TERM: 'dumb', AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: api.url },
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  let screen = '';
  const seen = (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    onScreen(screen);
  };
  child.stdout.on('data', seen);
  child.stderr.on('data', seen);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, screen })));
}

async function makeFile(name: string, size: number): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, randomBytes(size));
  return file;
}

async function newHome(name: string): Promise<string> {
  const home = path.join(dir, name);
  await mkdir(home, { recursive: true });
  return home;
}

async function login(home: string, server = api.url): Promise<void> {
  const res = await run(['login', '--email', EMAIL, '--password-stdin'], home, { input: PASSWORD, server });
  expect(res.code).toBe(0);
}

/**
 * A reverse proxy in front of the API that can answer every request itself with a 503 and the server's
 * usual error body, as a server in maintenance does.
 */
async function startFailingProxy(
  target: string,
): Promise<{ url: string; failing: boolean; close(): Promise<void> }> {
  const upstream = new URL(target);
  const state = { failing: false };
  const server: Server = createServer((req, res) => {
    if (state.failing) {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(
        JSON.stringify({ error: { code: 'unavailable', message: 'Down for maintenance until 23:00.' } }),
      );
      return;
    }
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [TSC, '-b', path.join(DESKTOP_DIR, 'tsconfig.json')]);
  api = await startApi({ UPLOAD_MAX_BYTES: String(MAX_BYTES) });
  cleanups.push(() => api.close());
  const work = await tempDir('avp-cli-faults-');
  cleanups.push(work.remove);
  dir = work.dir;
  await registerClient(api.url, EMAIL);
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const creative = ['upload', '--form', 'creative', '--project-name', 'Faults'];

describe('av-upload exit codes and their words', () => {
  it('2: a form that does not exist, an option the command does not take, a path that cannot be read', async () => {
    const home = await newHome('usage');
    await makeFile('usage.mov', 100);
    const form = await run(['upload', '--form', 'xyz', 'usage.mov'], home);
    expect(form.code).toBe(2);
    expect(form.lines).toEqual([
      {
        event: 'invalid',
        errors: { form_type: 'There is no form "xyz": choose creative, event or sponsor.' },
      },
    ]);
    const onTerminal = await runOnTerminal(['upload', '--form', 'xyz', 'usage.mov'], home);
    expect(onTerminal.code).toBe(2);
    expect(onTerminal.screen).toContain('--form: There is no form "xyz": choose creative, event or sponsor.');
    expect(onTerminal.screen).not.toContain('discriminator');

    const status = await run(['status', '--bandwidth', '0'], home);
    expect(status.code).toBe(2);
    expect(status.lines).toEqual([
      {
        event: 'error',
        exitCode: 2,
        message:
          'status does not take --bandwidth. To change the default of every run: av-upload settings --bandwidth …; for one run: av-upload upload|resume --bandwidth ….',
      },
    ]);

    const missing = await runOnTerminal([...creative, 'usage.mov', 'nope.mov'], home);
    expect(missing.code).toBe(2);
    expect(missing.screen).toContain('nope.mov: does not exist.');
    expect(missing.screen).toContain('Nothing was queued.');
    expect(missing.screen).not.toContain('ENOENT');
  });

  it('1: an unexpected error (the home folder is a file) in words, without a stack', async () => {
    const notAFolder = path.join(dir, 'home-is-a-file');
    await writeFile(notAFolder, 'not a folder');
    const res = await run(['login', '--email', EMAIL, '--password-stdin'], notAFolder, { input: PASSWORD });
    expect(res.code).toBe(1);
    expect(res.lines.at(-1)).toEqual({
      event: 'error',
      exitCode: 1,
      message: `av-upload stopped on an unexpected error: could not create the folder ${notAFolder}: a file of that name is in the way. (AV_UPLOAD_DEBUG=1 shows where.)`,
    });
    expect(res.stdout + res.stderr).not.toMatch(/EEXIST|\n\s+at /);
  });

  it('3: a token the server no longer accepts ends the run with the sign-in named', async () => {
    const home = await newHome('revoked');
    await login(home);
    const kept = await newHome('revoked-copy');
    await copyFile(path.join(home, 'credentials.json'), path.join(kept, 'credentials.json'));
    expect((await run(['logout'], home)).code).toBe(0);
    await makeFile('revoked.mov', 1000);
    const res = await run([...creative, 'revoked.mov'], kept);
    expect(res.code).toBe(3);
    expect(res.lines.at(-1)).toMatchObject({
      event: 'error',
      exitCode: 3,
      message: expect.stringMatching(
        /^The server refused the sign-in: .+ Run `av-upload login`, then `av-upload resume`\.$/,
      ),
    });
  });

  it("4: the server's own refusal, with its message", async () => {
    const home = await newHome('refused');
    await login(home);
    const big = path.join(dir, 'too-big.mov');
    // Sparse: the server refuses it by its declared size, before a byte is sent.
    const handle = await open(big, 'w');
    await handle.truncate(MAX_BYTES + MIB);
    await handle.close();
    const res = await run([...creative, 'too-big.mov'], home);
    expect(res.code).toBe(4);
    expect(res.lines.find((l) => l.event === 'failed')).toMatchObject({
      file: 'too-big.mov',
      message: 'Files may be at most 64 MB.',
    });
    expect(res.lines.at(-1)).toEqual({
      event: 'error',
      exitCode: 4,
      message:
        'The server refused the upload: Files may be at most 64 MB. Run `av-upload resume` to try again once it is fixed.',
    });
    expect(res.stdout).not.toContain('Internal Error Occured');
  });

  it('4: a server that keeps answering 503 is retried, each retry said, then named with its message', async () => {
    const proxy = await startFailingProxy(api.url);
    cleanups.push(() => proxy.close());
    const home = await newHome('failing');
    await login(home, proxy.url);
    await makeFile('failing.mov', 1000);
    proxy.failing = true;
    const signIn = await run(['login', '--email', EMAIL, '--password-stdin'], home, {
      input: PASSWORD,
      server: proxy.url,
    });
    expect(signIn.code).toBe(4);
    expect(signIn.lines.at(-1)).toEqual({
      event: 'error',
      exitCode: 4,
      message: `The server at ${proxy.url} could not sign you in: Down for maintenance until 23:00.`,
    });
    const res = await run([...creative, '--give-up-after', '3s', 'failing.mov'], home, { server: proxy.url });
    expect(res.code).toBe(4);
    const retries = res.lines.filter((l) => l.event === 'retry');
    expect(retries.length).toBeGreaterThan(0);
    expect(retries[0]).toMatchObject({
      server: proxy.url,
      reason: 'server-error',
      message: expect.stringContaining('Down for maintenance until 23:00.'),
      attempt: 2,
      delayMs: expect.any(Number),
    });
    expect(res.lines.at(-1)).toMatchObject({
      event: 'error',
      exitCode: 4,
      message: expect.stringMatching(
        /^The server kept failing for \d+ s: .*Down for maintenance until 23:00\. The job is saved: run `av-upload resume` later\.$/,
      ),
    });
    // Once the server is back, the saved job goes.
    proxy.failing = false;
    const resumed = await run(['resume'], home, { server: proxy.url });
    expect(resumed.code).toBe(0);
    const submitted = resumed.lines.find((l) => l.event === 'submitted') as { files: { sha256: string }[] };
    expect(submitted.files[0]!.sha256).toBe(await sha256File(path.join(dir, 'failing.mov')));
  });

  it('6: upload with the server down is saved, each retry said, exit 6 with what to do; resume sends it once the server is back', async () => {
    const home = await newHome('down');
    await login(home);
    const file = await makeFile('down.mov', 3 * MIB);
    await api.kill();
    try {
      const res = await run([...creative, '--give-up-after', '3s', 'down.mov'], home);
      expect(res.code).toBe(6);
      expect(res.lines[0]).toMatchObject({ event: 'queued', files: [{ name: 'down.mov' }] });
      expect(res.lines.find((l) => l.event === 'retry')).toMatchObject({
        server: api.url,
        reason: 'unreachable',
        message: expect.stringContaining(api.url),
        attempt: 2,
      });
      expect(res.lines.at(-1)).toMatchObject({
        event: 'error',
        exitCode: 6,
        message: expect.stringMatching(
          new RegExp(
            `^Server unreachable at ${api.url.replace(/\./g, '\\.')}: no answer for \\d+ s\\. .+ The job is saved: run \`av-upload resume\` when the server answers\\.$`,
          ),
        ),
      });
      expect(res.stdout).not.toMatch(/ECONNREFUSED|Internal Error Occured/);
      // Signing in needs the server: said in words, exit 6.
      const signIn = await run(['login', '--email', EMAIL, '--password-stdin'], await newHome('down-login'), {
        input: PASSWORD,
      });
      expect(signIn.code).toBe(6);
      expect(signIn.lines.at(-1)).toEqual({
        event: 'error',
        exitCode: 6,
        message: `Server unreachable at ${api.url}: Nothing answers at ${api.url} (the connection was refused).`,
      });

      const status = await run(['status'], home);
      expect(status.lines[0]).toMatchObject({
        queuedFiles: 1,
        connection: { state: 'waiting', reason: 'unreachable', running: false },
        message: expect.stringMatching(/^Waiting for the server — 1 file queued, nothing is trying now/),
      });
    } finally {
      await api.restart();
    }
    const resumed = await run(['resume'], home);
    expect(resumed.code).toBe(0);
    const submitted = resumed.lines.find((l) => l.event === 'submitted') as {
      files: { name: string; sha256: string }[];
    };
    expect(submitted.files).toEqual([
      expect.objectContaining({ name: 'down.mov', sha256: await sha256File(file) }),
    ]);
    const after = await run(['status'], home);
    expect(after.lines[0]).toMatchObject({ jobs: [], queuedFiles: 0 });
  }, 90_000);

  it('status while an upload waits for the server: "Waiting for the server — 1 file queued, next try in N s"', async () => {
    const home = await newHome('waiting');
    await login(home);
    await makeFile('waiting.mov', 1000);
    await api.kill();
    try {
      const child = spawn(process.execPath, [BIN, ...creative, '--give-up-after', '5m', 'waiting.mov'], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: api.url },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
      });
      const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
      let out = '';
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          if (parse(out).some((l) => l.event === 'retry')) resolve();
        }),
      );
      const status = await run(['status'], home);
      expect(status.lines[0]).toMatchObject({
        queuedFiles: 1,
        connection: { state: 'waiting', reason: 'unreachable', running: true, command: 'upload' },
        message: expect.stringMatching(
          /^Waiting for the server — 1 file queued, next try in \d+ s \(`av-upload upload`, process \d+\)\.\n {2}Nothing answers at /,
        ),
      });
      const onTerminal = await runOnTerminal(['status'], home);
      expect(onTerminal.screen).toMatch(/Waiting for the server — 1 file queued, next try in \d+ s/);
      // A second process on the same queue would write over this one's jobs: refused, saying who holds it.
      const second = await run([...creative, 'waiting.mov'], home);
      expect(second.code).toBe(2);
      expect(second.lines.at(-1)).toMatchObject({
        event: 'error',
        exitCode: 2,
        message: expect.stringMatching(
          new RegExp(
            `^Another av-upload \\(\`av-upload upload\`, process ${child.pid}\\) is using the queue in `,
          ),
        ),
      });
      expect((await run(['settings', '--bandwidth', '1M'], home)).code).toBe(2);
      child.kill('SIGINT');
      expect(await ended).toBe(130);
    } finally {
      await api.restart();
    }
    // A lock left by a process that is gone (killed) is taken over.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.on('close', resolve));
    await writeFile(path.join(home, 'queue.lock'), JSON.stringify({ pid: gone.pid, command: 'upload' }));
    const resumed = await run(['resume'], home);
    expect(resumed.code).toBe(0);
    expect(resumed.lines.find((l) => l.event === 'submitted')).toMatchObject({
      files: [
        expect.objectContaining({
          name: 'waiting.mov',
          sha256: await sha256File(path.join(dir, 'waiting.mov')),
        }),
      ],
    });
  }, 90_000);

  it('watch keeps a dropped file while the server is down, says each retry, and sends it when the server is back', async () => {
    const home = await newHome('watch-down');
    await login(home);
    const folder = path.join(dir, 'watched-while-down');
    await mkdir(folder);
    const args = ['--form', 'sponsor', '--event-name', 'Expo', '--sponsor-company', 'Acme AV'];
    expect((await run(['watch', 'add', folder, ...args], home)).code).toBe(0);
    await api.kill();
    let restarted: Promise<void> | null = null;
    try {
      const child = spawn(process.execPath, [BIN, 'watch', '--json'], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: api.url },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
      });
      const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
      const file = path.join(folder, 'dropped.mov');
      await writeFile(file, randomBytes(5000));
      let out = '';
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const lines = parse(out);
          // The server comes back once the watch has said it is retrying.
          if (!restarted && lines.some((l) => l.event === 'retry')) restarted = api.restart();
          if (lines.some((l) => l.event === 'submitted')) resolve();
        }),
      );
      child.kill('SIGINT');
      expect(await ended).toBe(130);
      const lines = parse(out);
      expect(lines.find((l) => l.event === 'retry')).toMatchObject({
        server: api.url,
        reason: 'unreachable',
      });
      expect(lines.find((l) => l.event === 'connection' && l.state === 'online')).toBeDefined();
      expect(lines.find((l) => l.event === 'submitted')).toMatchObject({
        files: [expect.objectContaining({ name: 'dropped.mov', sha256: await sha256File(file) })],
      });
    } finally {
      if (restarted) await restarted;
      else await api.restart();
    }
  }, 90_000);

  it('6: the server killed mid-upload, on a terminal: the run holds to --give-up-after (one sequence of retries, the waits within the bound), the end says why; resume finishes with the same bytes', async () => {
    const home = await newHome('mid');
    await login(home);
    const file = await makeFile('mid.mov', 8 * MIB);
    const GIVE_UP_S = 4;
    let killed: Promise<void> | null = null;
    let killedAt = 0;
    let screenAtKill = 0;
    const res = await runOnTerminal(
      [...creative, '--bandwidth', '2M', '--give-up-after', `${GIVE_UP_S}s`, 'mid.mov'],
      home,
      (screen) => {
        // Some bytes are on the server: now it goes away.
        if (!killed && /\s[1-9]\d?%\s+\d/.test(screen)) {
          killedAt = Date.now();
          screenAtKill = screen.length;
          killed = api.kill();
        }
      },
    );
    const endedAfterMs = Date.now() - killedAt;
    try {
      expect(killed).not.toBeNull();
      expect(res.code).toBe(6);
      const server = api.url.replace(/\./g, '\\.');
      const retries = [
        ...res.screen
          .slice(screenAtKill)
          .matchAll(
            new RegExp(`Server unreachable at ${server}: retrying in (\\d+) s \\(attempt (\\d+)\\)`, 'g'),
          ),
      ].map((m) => ({ waitS: Number(m[1]), attempt: Number(m[2]) }));
      // A fact of this run, for the record (not asserted: the machine's load decides it).
      console.log(
        `server killed mid-upload, --give-up-after ${GIVE_UP_S}s: exit ${res.code} ${(endedAfterMs / 1000).toFixed(1)} s after the kill; retries said: ${JSON.stringify(retries)}`,
      );
      expect(retries.length).toBeGreaterThan(0);
      // One sequence, the connection monitor's: the parts in flight did not each run the client's own
      // retries first (those took 45–55 s before the bound began to count).
      expect(retries.map((r) => r.attempt)).toEqual(retries.map((_, i) => i + 2));
      // The waits it announced fit in the bound (each said in whole seconds, at least 1).
      expect(retries.reduce((sum, r) => sum + r.waitS, 0)).toBeLessThanOrEqual(GIVE_UP_S + retries.length);
      expect(res.screen).toMatch(
        new RegExp(
          `Server unreachable at ${server}: no answer for \\d+ s\\. .+ The job is saved: run \`av-upload resume\` when the server answers\\.`,
          's',
        ),
      );
      expect(res.screen).not.toMatch(/ECONNREFUSED|ECONNRESET|Internal Error Occured/);
    } finally {
      await killed;
      await api.restart();
    }
    const resumed = await runOnTerminal(['resume'], home);
    expect(resumed.code).toBe(0);
    expect(resumed.screen).toContain(`mid.mov  8 MB  sha-256 ${await sha256File(file)}`);
  }, 60_000);
});

describe('av-upload settings', () => {
  it('--bandwidth on one upload is not saved; `settings --bandwidth 20M` is, and status shows it', async () => {
    const home = await newHome('settings');
    await login(home);
    await makeFile('one-run.mov', 2000);
    expect(
      (await run([...creative, '--bandwidth', '20M', '--parallel', '2', 'one-run.mov'], home)).code,
    ).toBe(0);
    const plain = await run(['status'], home);
    expect(plain.lines[0]).toMatchObject({ settings: { bandwidthBytesPerSecond: 0, partConcurrency: 4 } });
    const plainText = await runOnTerminal(['status'], home);
    expect(plainText.screen).toContain('Bandwidth: unlimited');

    const saved = await run(['settings', '--bandwidth', '20M'], home);
    expect(saved.code).toBe(0);
    expect(saved.lines[0]).toMatchObject({
      event: 'settings',
      saved: true,
      settings: { bandwidthBytesPerSecond: 20 * MIB },
    });
    expect((await run([...creative, '--bandwidth', '0', 'one-run.mov'], home)).code).toBe(0);
    const status = await runOnTerminal(['status'], home);
    expect(status.screen).toContain('Bandwidth: 20 MB/s');
    expect(status.screen).toContain('Parts at once: 4');
  });

  it('a finished upload on a terminal ends with the sent files, no empty progress line after them', async () => {
    const home = await newHome('stray');
    await login(home);
    await makeFile('stray.mov', 5000);
    const res = await runOnTerminal([...creative, 'stray.mov'], home);
    expect(res.code).toBe(0);
    const after = res.screen.slice(res.screen.indexOf('Sent submission'));
    expect(after).toMatch(/stray\.mov {2}4\.9 KB {2}sha-256 [0-9a-f]{64}/);
    expect(res.screen).not.toContain('0 B / 0 B');
  });
});

import { execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/start.js';
import type { RunningServer } from '../src/start.js';
import { createLogger } from '../src/logger.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { waitFor } from './helpers/smtp.js';
import { dropSchema, DIALECTS, tempDir, testEnv, writeWebDist } from './helpers/env.js';

const API_DIR = fileURLToPath(new URL('..', import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(DIALECTS)('startServer on %s', (dialect) => {
  it('migrates, seeds an empty database, serves the API and the web app, and stops', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const webDist = await writeWebDist(path.join(data.dir, 'web-dist'));
    const config = loadConfig(testEnv(path.join(data.dir, 'var'), dialect, { WEB_DIST_DIR: webDist }));
    if (config.DB_SCHEMA) cleanups.push(() => dropSchema(config.DB_SCHEMA!));
    const logger = createLogger({ LOG_LEVEL: 'silent' });

    const running: RunningServer = await startServer(config, { port: 0, logger });
    cleanups.push(() => running.close());
    expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
    expect(running.port).toBeGreaterThan(0);

    const health = await fetch(`${running.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', db: dialect });
    expect((await fetch(`${running.url}/exhibitor_order/demo-expo`)).status).toBe(200);
    expect((await fetch(`${running.url}/no-such-page`)).status).toBe(404);
    expect(await running.db.models.Store.count()).toBe(4);

    await running.close();
    await running.close();
    await expect(fetch(`${running.url}/api/health`)).rejects.toThrow();

    // A restart finds the schema current and the stores present: nothing is re-seeded.
    const again = await startServer(config, { port: 0, logger });
    cleanups.push(() => again.close());
    const { Store } = again.db.models;
    await Store.destroy({ where: { slug: 'demo-late' } });
    await again.close();
    const third = await startServer(config, { port: 0, logger });
    cleanups.push(() => third.close());
    expect(await third.db.models.Store.count()).toBe(3);
  });
});

describe('startServer shutdown', () => {
  it('lets the work a handler does after its answer finish before the database closes', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const config = loadConfig(testEnv(data.dir, 'sqlite'));
    const logger = createLogger({ LOG_LEVEL: 'silent' });
    const running = await startServer(config, { port: 0, logger });
    cleanups.push(() => running.close());
    const browser = new TestBrowser(running.url);
    expect((await browser.post('/api/auth/register', registration())).status).toBe(201);

    // The reset answers first and writes its link afterwards; stop the server right after the answer.
    const res = await browser.post('/api/auth/forgot-password', { email: 'ada@example.com' });
    expect(res.status).toBe(200);
    await running.close();

    const again = await startServer(config, { port: 0, logger });
    cleanups.push(() => again.close());
    expect(await again.db.models.PasswordReset.count()).toBe(1);
    expect(await again.db.models.MailOutbox.count({ where: { toAddress: 'ada@example.com' } })).toBe(1);
  });
});

describe('startServer failures', () => {
  it('rejects when the port is taken, and releases the database', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const config = loadConfig(testEnv(data.dir, 'sqlite'));
    const logger = createLogger({ LOG_LEVEL: 'silent' });
    const first = await startServer(config, { port: 0, logger });
    cleanups.push(() => first.close());
    await expect(startServer(config, { port: first.port, logger })).rejects.toThrow(/EADDRINUSE/);
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
  });
});

describe('the server entry point', () => {
  it('prints one line per bad variable and exits 1 without a stack', async () => {
    const outcome = await promisify(execFile)(process.execPath, [path.join('dist', 'server.js')], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', PORT: 'abc', TZ_STORE: 'Nowhere/Land' },
      timeout: 60_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(
      'Configuration error: PORT: must be an integer between 1 and 65535 (got "abc")\n' +
        'Configuration error: TZ_STORE: must be an IANA time zone such as America/New_York (got "Nowhere/Land")\n',
    );
  });
});

/** A port that was free a moment ago: the entry point takes PORT from the environment, not 0. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the server process', () => {
  it('starts from the environment and stops cleanly on SIGTERM', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const port = await freePort();
    const child = spawn(process.execPath, [path.join('dist', 'server.js')], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: data.dir, PORT: String(port), WEB_DIST_DIR: data.dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const lines: Array<Record<string, unknown>> = [];
    let buffered = '';
    const listening = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const complete = buffered.split('\n');
        buffered = complete.pop() ?? '';
        for (const line of complete) {
          const entry = JSON.parse(line) as Record<string, unknown>;
          lines.push(entry);
          if (typeof entry.msg === 'string' && entry.msg.startsWith('listening on')) resolve();
        }
      });
    });
    await listening;
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    expect(lines.find((line) => line.msg === 'empty database: demo content seeded')).toBeTruthy();

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
  });
});

describe('the server process under npm run dev at a terminal', () => {
  it('prints readable lines, one per request, instead of JSON', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const port = await freePort();
    // concurrently pipes the server's output and sets FORCE_COLOR when its own output is a terminal.
    const child = spawn(process.execPath, [path.join('dist', 'server.js')], {
      cwd: API_DIR,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: data.dir,
        PORT: String(port),
        WEB_DIST_DIR: data.dir,
        FORCE_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes(`listening on http://127.0.0.1:${port}`)) resolve();
      });
    });
    const answered = await fetch(`http://127.0.0.1:${port}/api/session`);
    expect(answered.status).toBe(200);
    child.kill('SIGTERM');
    await once(child, 'exit');

    expectReadableLines(output);
  });
});

/** Readable log lines, one per request, and no JSON line. */
function expectReadableLines(output: string): void {
  // The colours a terminal shows: ESC [ … m; a terminal also ends its lines with CR LF.
  const colour = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
  const lines = output.replace(colour, '').trim().split(/\r?\n/);
  expect(lines.some((line) => line.startsWith('{'))).toBe(false);
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: listening on http:\/\/127\.0\.0\.1:\d+/),
      expect.stringMatching(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/session 200 \d+ ms request completed$/,
      ),
      expect.stringMatching(/INFO: stopped$/),
    ]),
  );
}

/** util-linux script(1), which runs a command on a pseudo-terminal of its own (Debian has it, so does CI). */
const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!HAS_SCRIPT)('the server process under npm start at a terminal', () => {
  it('prints readable lines, one per request, instead of JSON', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const port = await freePort();
    // npm start's launcher (build/scripts/start.mjs) hands its terminal to the server (stdio 'inherit'),
    // and nothing sets FORCE_COLOR: the server itself sees a TTY. `exec` makes the server, not a shell
    // around it, the terminal's foreground process, which Ctrl-C reaches.
    const server = [process.execPath, path.join('dist', 'server.js')];
    const command = `exec ${server.map((arg) => `'${arg}'`).join(' ')}`;
    const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: data.dir, PORT: String(port), WEB_DIST_DIR: data.dir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes(`listening on http://127.0.0.1:${port}`)) resolve();
      });
    });
    const answered = await fetch(`http://127.0.0.1:${port}/api/session`);
    expect(answered.status).toBe(200);
    // The request's line is written once the answer is out; the terminal's echo of Ctrl-C must not land
    // in front of it.
    await waitFor(() => output.includes('request completed'), 10_000, 'the request line');
    // Ctrl-C at the terminal: SIGINT to the server, which stops as it does on SIGTERM.
    child.stdin.write('\x03');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);

    expectReadableLines(output);
  });

  it("npm start's launcher: Ctrl-C stops the server gracefully, once, and its exit is the launcher's", async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const port = await freePort();
    const child = spawn(
      'script',
      ['--quiet', '--flush', '--return', '--command', `exec ${launcherCommand()}`, '/dev/null'],
      {
        cwd: API_DIR,
        env: { PATH: process.env.PATH ?? '', DATA_DIR: data.dir, PORT: String(port), WEB_DIST_DIR: data.dir },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await waitFor(() => output.includes(`listening on http://127.0.0.1:${port}`), 20_000, 'the server');
    // Ctrl-C at the terminal: SIGINT to the foreground process group, the launcher and the server both.
    child.stdin.write('\x03');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    const plain = output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
    expect(plain.match(/INFO: shutting down/g)).toHaveLength(1);
    expect(plain).toMatch(/INFO: stopped/);
    expect(plain).not.toContain('second signal');
  });
});

/** The launcher npm start runs (build/scripts/run-server.mjs), here starting the compiled server (api/dist). */
function launcherCommand(): string {
  const runServer = pathToFileURL(path.join(API_DIR, '..', 'build', 'scripts', 'run-server.mjs')).href;
  const args = JSON.stringify([path.join('dist', 'server.js')]);
  const script = `import { runServer } from '${runServer}'; runServer(${args});`;
  return `'${process.execPath}' --input-type=module -e "${script.replace(/"/g, '\\"')}"`;
}

describe('the launcher npm start runs, under a process manager', () => {
  it('passes SIGTERM, sent to the launcher alone, on to the server once, and exits with it', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const port = await freePort();
    const child = spawn('sh', ['-c', `exec ${launcherCommand()}`], {
      cwd: API_DIR,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: data.dir,
        PORT: String(port),
        WEB_DIST_DIR: data.dir,
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await waitFor(() => output.includes('listening on'), 20_000, 'the server');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    const messages = output
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages.filter((m) => m === 'shutting down')).toHaveLength(1);
    expect(messages).toContain('stopped');
    expect(messages).not.toContain('second signal: exiting without waiting');
  });
});

import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/index.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';
import { createLogger } from '../src/logger.js';
import { verifyPassword } from '../src/modules/accounts/passwords.js';
import { tempDir } from './helpers/env.js';

const API_DIR = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a CLI entry point's build (api/dist, made by the global setup), as `npm run admin` does, in a child process. */
async function cli(script: string, args: string[], env: Record<string, string>): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join('dist', 'cli', script.replace(/\.ts$/, '.js')), ...args],
      { cwd: API_DIR, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The same, with `input` on its standard input (a pipe, as in a script), closed after it. */
function cliWithInput(
  script: string,
  args: string[],
  env: Record<string, string>,
  input: string,
): Promise<Outcome> {
  const child = spawn(process.execPath, [path.join('dist', 'cli', script.replace(/\.ts$/, '.js')), ...args], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 60_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

/**
 * The same on a pseudo-terminal (util-linux `script`), as a person at a terminal runs it: each answer is
 * typed once the prompt asking for it has appeared. Resolves with everything the terminal showed.
 */
function cliOnTerminal(
  script: string,
  args: string[],
  env: Record<string, string>,
  answers: { prompt: string; type: string }[],
): Promise<{ code: number; screen: string }> {
  const command = [process.execPath, path.join('dist', 'cli', script.replace(/\.ts$/, '.js')), ...args]
    .map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? '', TERM: 'dumb', ...env },
    timeout: 60_000,
  });
  let screen = '';
  let seen = 0;
  const pending = [...answers];
  const onOutput = (chunk: Buffer) => {
    screen += chunk.toString('utf8');
    const next = pending[0];
    const at = next ? screen.indexOf(next.prompt, seen) : -1;
    if (next && at >= 0) {
      seen = at + next.prompt.length;
      pending.shift();
      child.stdin.write(`${next.type}\r`);
    }
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      child.stdin.destroy();
      resolve({ code: code ?? -1, screen });
    }),
  );
}

describe('the command-line tools', () => {
  let data: { dir: string; remove(): Promise<void> };
  let env: Record<string, string>;
  beforeAll(async () => {
    data = await tempDir();
    env = { DATA_DIR: data.dir };
  });
  afterAll(async () => {
    await data?.remove();
  });

  async function readUser(email: string) {
    const config = loadConfig({ DATA_DIR: data.dir });
    const db = await openDatabase(config, createLogger({ LOG_LEVEL: 'silent' }));
    try {
      return await db.models.User.findOne({ where: { email } });
    } finally {
      await db.close();
    }
  }

  it('admin create makes a staff account with an argon2id hash, migrating first', async () => {
    const result = await cli(
      'admin.ts',
      [
        'create',
        '--email',
        'Boss@Example.com',
        '--password',
        'correct horse',
        '--first',
        'Pat',
        '--last',
        'Lee',
      ],
      env,
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Created staff account boss@example\.com \(id \d+\)\.\n$/);

    const user = await readUser('boss@example.com');
    expect(user).toMatchObject({ role: 'staff', firstName: 'Pat', lastName: 'Lee' });
    expect(user!.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(user!.passwordHash, 'correct horse')).toBe(true);
    expect(await verifyPassword(user!.passwordHash, 'wrong horse')).toBe(false);
  });

  it('admin create on an existing e-mail updates it', async () => {
    const result = await cli(
      'admin.ts',
      [
        'create',
        '--email',
        'boss@example.com',
        '--password',
        'new password',
        '--first',
        'Pat',
        '--last',
        'Quinn',
      ],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Updated staff account boss@example\.com/);
    const user = await readUser('boss@example.com');
    expect(user!.lastName).toBe('Quinn');
    expect(await verifyPassword(user!.passwordHash, 'new password')).toBe(true);
  });

  it('admin create reads the password from standard input when it is not given, and never prints it', async () => {
    const args = ['create', '--email', 'piped@example.com', '--first', 'Sam', '--last', 'Rao'];
    const result = await cliWithInput('admin.ts', args, env, 'piped passphrase 42\n');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Created staff account piped@example\.com \(id \d+\)\.\n$/);
    const user = await readUser('piped@example.com');
    // One trailing line end is the pipe's, not the password's.
    expect(await verifyPassword(user!.passwordHash, 'piped passphrase 42')).toBe(true);

    const empty = await cliWithInput('admin.ts', args, env, '');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(
      /^No password: type it when asked \(run the command in a terminal\), or pipe it in/,
    );
    const short = await cliWithInput('admin.ts', args, env, 'short\n');
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/^Password: must be at least 8 characters\n/);
    // The other fields are checked before anything is read.
    const bad = await cliWithInput(
      'admin.ts',
      ['create', '--email', 'nope', '--first', 'A', '--last', 'B'],
      env,
      '',
    );
    expect(bad.stderr).toMatch(/^--email: must be a valid e-mail address\n\nUsage/);
  }, 120_000);

  it.runIf(process.platform === 'linux')(
    'admin create on a terminal asks for the password twice without showing it',
    async () => {
      const args = ['create', '--email', 'typed@example.com', '--first', 'Kim', '--last', 'Ode'];
      const typed = await cliOnTerminal('admin.ts', args, env, [
        { prompt: 'Password for the staff account:', type: 'typed secret 77' },
        { prompt: 'The same password again:', type: 'typed secret 77' },
      ]);
      expect(typed.code).toBe(0);
      expect(typed.screen).toMatch(/Created staff account typed@example\.com \(id \d+\)\./);
      expect(typed.screen).not.toContain('typed secret');
      const user = await readUser('typed@example.com');
      expect(await verifyPassword(user!.passwordHash, 'typed secret 77')).toBe(true);

      const differ = await cliOnTerminal('admin.ts', args, env, [
        { prompt: 'Password for the staff account:', type: 'first try 1234' },
        { prompt: 'The same password again:', type: 'second try 1234' },
      ]);
      expect(differ.code).toBe(2);
      expect(differ.screen).toContain('The two passwords differ: nothing was changed.');
      expect(
        await verifyPassword((await readUser('typed@example.com'))!.passwordHash, 'typed secret 77'),
      ).toBe(true);
    },
    120_000,
  );

  it('admin rejects bad input with clear messages and the usage text', async () => {
    const result = await cli('admin.ts', ['create', '--email', 'not-an-email', '--password', 'short'], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--email: must be a valid e-mail address');
    expect(result.stderr).toContain('--password: must be at least 8 characters');
    expect(result.stderr).toContain('--first: is required');
    expect(result.stderr).toContain('--last: is required');
    expect(result.stderr).toContain('Usage: npm run admin -- create --email E --first F --last L');

    const unknown = await cli('admin.ts', ['remove', '--email', 'a@b.co'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown command: remove\n/);
  });

  it('migrate reports status, reverts and reapplies', async () => {
    const status = await cli('migrate.ts', ['status'], env);
    expect(status).toMatchObject({ code: 0, stdout: 'Up to date.\n' });
    const down = await cli('migrate.ts', ['down'], env);
    const last = MIGRATIONS.at(-1)?.name;
    expect(down).toMatchObject({ code: 0, stdout: `Reverted: ${last}\n` });
    const up = await cli('migrate.ts', [], env);
    expect(up).toMatchObject({ code: 0, stdout: `Applied: ${last}\n` });
    const bad = await cli('migrate.ts', ['sideways'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown command: sideways');
  });

  it('seed:demo seeds, then finds nothing to change', async () => {
    const first = await cli('seed.ts', [], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Demo content: 4 stores, \d+ products, \d+ prices \(\d+ rows created or updated\)\.\n$/,
    );
    const second = await cli('seed.ts', [], env);
    expect(second.stdout).toMatch(/\(already up to date\)\.\n$/);
  });

  it('a bad configuration is one line per variable, without a stack', async () => {
    const result = await cli('seed.ts', [], { ...env, PORT: 'abc' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Configuration error: PORT: must be an integer between 1 and 65535 (got "abc")\n',
    );
  });
});

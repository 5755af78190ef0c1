import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Sequelize } from 'sequelize';
import type { Env } from '../../src/config.js';

export type TestDialect = 'sqlite' | 'postgres';

/** PostgreSQL joins every database suite when TEST_DATABASE_URL is set (CI sets it). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const DIALECTS: TestDialect[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/**
 * Whether a PostgreSQL-only suite runs; when it cannot (TEST_DATABASE_URL unset), says so on stderr, so a
 * green run without PostgreSQL shows what it did not prove: `describe.runIf(onPostgres('…'))(…)`.
 */
export function onPostgres(what: string): boolean {
  if (TEST_DATABASE_URL) return true;
  console.warn(
    `Skipped without PostgreSQL: ${what}. Set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run it.`,
  );
  return false;
}

export const TEST_SECRET = 'test-session-secret-that-is-long-enough-0123456789';

export async function tempDir(prefix = 'avp-api-'): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A schema name no other run uses, so suites can share one PostgreSQL database. */
export function throwawaySchema(): string {
  return `test_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** Drops a throwaway schema over a connection of its own (the suite's database may already be closed). */
export async function dropSchema(schema: string): Promise<void> {
  if (!TEST_DATABASE_URL) return;
  const admin = new Sequelize(TEST_DATABASE_URL, { dialect: 'postgres', logging: false });
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.close();
  }
}

/**
 * The environment for a test instance: its own DATA_DIR, quiet logs, a fixed secret, and for PostgreSQL
 * the test database with a throwaway schema.
 */
export function testEnv(dataDir: string, dialect: TestDialect, extra: Env = {}): Env {
  const env: Env = {
    DATA_DIR: dataDir,
    SESSION_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-dist'),
  };
  if (dialect === 'postgres') {
    if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
    env.DATABASE_URL = TEST_DATABASE_URL;
    env.DB_SCHEMA = throwawaySchema();
  }
  return { ...env, ...extra };
}

/** A built web app stand-in: index.html, a hashed asset and an unhashed file. */
export async function writeWebDist(dir: string): Promise<string> {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-3f9a1c.js"></script></head>' +
      '<body><div id="root"></div></body></html>',
  );
  await writeFile(path.join(dir, 'assets', 'index-3f9a1c.js'), 'console.log("app");\n');
  await writeFile(path.join(dir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  return dir;
}

/** Collects pino's JSON lines so a test can read what was logged. */
export class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() !== '') this.lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    callback();
  }
}

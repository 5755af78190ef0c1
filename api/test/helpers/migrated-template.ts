import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import type { Config } from '../../src/config.js';
import { databaseTarget, migrateUp, openDatabase } from '../../src/db/index.js';
import { createLogger } from '../../src/logger.js';
import { dropSchema, TEST_DATABASE_URL, testEnv, throwawaySchema } from './env.js';

/**
 * Test databases that start migrated without running the migrations again. Running all of them for each
 * of the suite's apps (hundreds, on SQLite and on PostgreSQL) was most of an app's start-up; so the first
 * test database a test file asks for is migrated as a template, and each one after is a copy of it: the
 * SQLite file's bytes, or the template schema's pg_dump replayed into the new schema. migrateUp still
 * runs on the copy and finds nothing to do; migrations.test.ts migrates from scratch and back.
 */

/** Migrates the database `config` names, in a scratch DATA_DIR removed after `keep` has read what it needs. */
async function migratedIn<T>(
  dialect: 'sqlite' | 'postgres',
  env: Record<string, string>,
  keep: (config: Config) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'avp-api-template-'));
  try {
    const config = loadConfig(testEnv(dir, dialect, env));
    const db = await openDatabase(config, createLogger({ LOG_LEVEL: 'silent' }));
    try {
      await migrateUp(db);
    } finally {
      await db.close();
    }
    return await keep(config);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let sqliteTemplate: Promise<Buffer> | undefined;
/** The migrated SQLite file's bytes (a few hundred KiB), kept in memory. */
function sqliteTemplateBytes(): Promise<Buffer> {
  sqliteTemplate ??= migratedIn('sqlite', {}, async (config) => {
    const target = databaseTarget(config);
    if (target.dialect !== 'sqlite') throw new Error('the SQLite template is not on SQLite');
    return readFile(target.storage);
  });
  return sqliteTemplate;
}

let postgresTemplate: Promise<{ schema: string; script: string } | null> | undefined;
/** The migrated template schema as SQL (pg_dump), or null where there is no pg_dump: then each migrates. */
function postgresTemplateScript(): Promise<{ schema: string; script: string } | null> {
  postgresTemplate ??= (async () => {
    const schema = `${throwawaySchema()}_template`;
    try {
      return await migratedIn('postgres', { DB_SCHEMA: schema }, async () => {
        const { stdout } = await promisify(execFile)(
          'pg_dump',
          ['--schema', schema, '--inserts', '--no-owner', '--no-privileges', TEST_DATABASE_URL!],
          { maxBuffer: 64 * 1024 * 1024 },
        );
        // Current pg_dump writes psql commands too (\restrict, \unrestrict): not SQL, so left out.
        const script = stdout
          .split('\n')
          .filter((line) => !line.startsWith('\\'))
          .join('\n');
        return { schema, script };
      });
    } catch {
      return null;
    } finally {
      await dropSchema(schema);
    }
  })();
  return postgresTemplate;
}

/** Makes the database `config` names a migrated one, by copying the template, when one can be had. */
export async function copyMigratedTemplate(config: Config): Promise<void> {
  const target = databaseTarget(config);
  if (target.dialect === 'sqlite') {
    await mkdir(path.dirname(target.storage), { recursive: true });
    await writeFile(target.storage, await sqliteTemplateBytes());
    return;
  }
  // Only the suite's own throwaway schemas on the test server: anything else migrates as it would.
  if (!TEST_DATABASE_URL || target.schema === undefined || !target.schema.startsWith('test_')) return;
  const template = await postgresTemplateScript();
  if (!template) return;
  // The dump sets search_path for its session: a client of its own, ended after.
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(template.script.replaceAll(template.schema, target.schema));
  } finally {
    await client.end();
  }
}

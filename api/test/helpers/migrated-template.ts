import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
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
 * test database of a worker process is migrated as a template, and each one after is a copy of it: a
 * copy of the SQLite file, or the template schema's pg_dump replayed into the new schema. migrateUp still
 * runs on the copy and finds nothing to do; migrations.test.ts migrates from scratch and back.
 */

const quiet = () => createLogger({ LOG_LEVEL: 'silent' });

async function migrated(config: Config): Promise<void> {
  const db = await openDatabase(config, quiet());
  try {
    await migrateUp(db);
  } finally {
    await db.close();
  }
}

function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'avp-api-template-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let sqliteTemplate: Promise<string> | undefined;
function sqliteTemplateFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const config = loadConfig(testEnv(scratchDir(), 'sqlite'));
    await migrated(config);
    const target = databaseTarget(config);
    if (target.dialect !== 'sqlite') throw new Error('the SQLite template is not on SQLite');
    return target.storage;
  })();
  return sqliteTemplate;
}

let postgresTemplate: Promise<{ schema: string; script: string } | null> | undefined;
/** The migrated template schema as SQL (pg_dump), or null where there is no pg_dump: then each migrates. */
function postgresTemplateScript(): Promise<{ schema: string; script: string } | null> {
  postgresTemplate ??= (async () => {
    const schema = `${throwawaySchema()}_template`;
    await migrated(loadConfig(testEnv(scratchDir(), 'postgres', { DB_SCHEMA: schema })));
    try {
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
    await copyFile(await sqliteTemplateFile(), target.storage);
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

import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '@avp/shared';
import { SECRETS_FILE } from '../config.js';
import { databaseTarget } from '../db/index.js';
import { fileAndFlags } from './backup-args.js';
import { backupPostgres, dumpMigrations } from './backup-postgres.js';
import { backupSqlite, sqliteMigrations } from './backup-sqlite.js';
import { runTool } from './tool.js';

const USAGE = `Usage: npm run db:backup -- FILE [--force]

Copies the database into FILE while the server runs: one consistent moment of it.
  SQLite (DATA_DIR/app.db): a database file made by SQLite's VACUUM INTO.
  PostgreSQL (DATABASE_URL): pg_dump --format=custom --no-owner --no-privileges, with --schema when
  DB_SCHEMA is set; pg_dump must be on PATH.
--force replaces FILE if it exists. Restore with: npm run db:restore -- FILE
Upload storage is not in FILE: copy DATA_DIR/uploads (or rely on S3 versioning), and check the two agree
with npm run uploads:check (README 'Run in production').`;

await runTool(USAGE, async (config) => {
  const { file, flags } = fileAndFlags(process.argv.slice(2), ['force'] as const);
  if (!existsSync(path.dirname(file))) throw new Error(`The folder ${path.dirname(file)} does not exist.`);
  if (existsSync(file) && !flags.force) {
    throw new Error(`${file} already exists: choose another name, or add --force to replace it.`);
  }
  const target = databaseTarget(config);
  const started = performance.now();
  let migrations: string[];
  if (target.dialect === 'sqlite') {
    await backupSqlite(target.storage, file);
    migrations = await sqliteMigrations(file);
  } else {
    await backupPostgres(target, file);
    migrations = await dumpMigrations(file);
  }
  const seconds = (performance.now() - started) / 1000;
  const { size } = await stat(file);
  const what =
    target.dialect === 'sqlite'
      ? `SQLite database ${target.storage}`
      : `PostgreSQL ${target.schema === undefined ? 'database' : `schema ${target.schema}`}`;
  process.stdout.write(
    `Backed up the ${what} to ${file}: ${formatBytes(size)} (${size} bytes) in ${seconds.toFixed(2)} s; ` +
      `schema at migration ${migrations.at(-1) ?? '(none)'}.\n`,
  );
  const secrets = path.join(config.DATA_DIR, SECRETS_FILE);
  if (!process.env.SESSION_SECRET?.trim() && existsSync(secrets)) {
    process.stdout.write(
      `SESSION_SECRET comes from ${secrets}: keep a copy of that file with the backups ` +
        '(the Stripe keys staff entered and cloud import tokens are sealed with it).\n',
    );
  }
});

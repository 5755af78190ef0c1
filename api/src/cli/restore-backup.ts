import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { databaseTarget } from '../db/index.js';
import { backupKind, compareSchema } from './backup-files.js';
import { dumpMigrations, dumpSchemas, restorePostgres, targetTables } from './backup-postgres.js';
import { claimIdleSqlite, restoreSqlite, sqliteMigrations } from './backup-sqlite.js';

/**
 * `npm run db:restore` (restore.ts) without its command line: checks the backup against the code and the
 * target, puts it in place, and returns the lines to print. Refusals are errors whose message says why.
 */
export async function restoreBackup(
  config: Pick<Config, 'DATA_DIR' | 'DATABASE_URL' | 'DB_SCHEMA'>,
  file: string,
  flags: { force: boolean },
): Promise<string[]> {
  if (!existsSync(file)) throw new Error(`${file} does not exist.`);
  const kind = await backupKind(file);
  if (kind === undefined) {
    throw new Error(
      `${file} is not a backup made by npm run db:backup (neither a SQLite database nor a pg_dump custom-format file).`,
    );
  }
  const target = databaseTarget(config);
  if (kind !== target.dialect) {
    throw new Error(
      kind === 'sqlite'
        ? `${file} is a SQLite backup, but DATABASE_URL names a PostgreSQL server: unset DATABASE_URL to restore it into DATA_DIR.`
        : `${file} is a PostgreSQL backup, but DATABASE_URL is not set: set it (and DB_SCHEMA) to the database to restore into.`,
    );
  }

  let where: string;
  let pending: string[];
  if (target.dialect === 'sqlite') {
    ({ pending } = compareSchema(await sqliteMigrations(file)));
    const { hasData } = await claimIdleSqlite(target.storage);
    if (hasData && !flags.force) {
      throw new Error(
        `${target.storage} already holds data: restore into an empty DATA_DIR, or add --force to replace it ` +
          `(it is kept beside it as ${path.basename(target.storage)}.before-restore-<time>).`,
      );
    }
    const { keptAs } = await restoreSqlite(file, target.storage);
    where = target.storage + (keptAs ? ` (the database it replaced is kept as ${keptAs})` : '');
  } else {
    ({ pending } = compareSchema(await dumpMigrations(file)));
    const schemas = (await dumpSchemas(file)).filter((schema) => schema !== 'public');
    const wanted = target.schema === undefined ? [] : [target.schema];
    if (schemas.join() !== wanted.join()) {
      throw new Error(
        schemas.length === 0
          ? `${file} was made without DB_SCHEMA (the public schema): unset DB_SCHEMA to restore it.`
          : `${file} holds the schema ${schemas.join(', ')}: set DB_SCHEMA=${schemas[0]} (in a database where it is free) to restore it.`,
      );
    }
    const tables = await targetTables(target);
    if (tables.length > 0 && !flags.force) {
      throw new Error(
        `The ${target.schema === undefined ? 'public schema' : `schema ${target.schema}`} already has ` +
          `${tables.length} table(s): restore into an empty database or schema, or add --force to drop them first.`,
      );
    }
    await restorePostgres(target, file, flags.force);
    where = `PostgreSQL ${target.schema === undefined ? 'database' : `schema ${target.schema}`}`;
  }
  const lines = [`Restored ${file} into ${where}.`];
  if (pending.length > 0) {
    lines.push(
      `The backup is from an older version: ${pending.length} migration(s) (${pending.join(', ')}) are applied when the server starts, or by npm run db:migrate.`,
    );
  }
  lines.push(
    'Bring upload storage back to the same moment, then run npm run uploads:check to list files without rows and rows without files.',
  );
  return lines;
}

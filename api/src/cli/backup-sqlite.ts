import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { MIGRATIONS_TABLE } from '../db/index.js';

/**
 * SQLite backups (issue 35 item 3): the copy is SQLite's own `VACUUM INTO`, which reads one consistent
 * snapshot (a read transaction, so in WAL mode the server's writers carry on) and writes a compact,
 * self-contained database file: no -wal beside it, nothing to replay.
 */

type Connection = sqlite3.Database;

function open(file: string, mode: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const db: Connection = new sqlite3.Database(file, mode, (error) => (error ? reject(error) : resolve(db)));
  });
}

function all<T>(db: Connection, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) =>
    db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as T[]))),
  );
}

function close(db: Connection): Promise<void> {
  return new Promise((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));
}

async function withConnection<T>(
  file: string,
  mode: number,
  work: (db: Connection) => Promise<T>,
): Promise<T> {
  const db = await open(file, mode);
  try {
    // A writer of the server may hold the lock for a moment; wait for it like the server's connections do.
    db.configure('busyTimeout', 10_000);
    return await work(db);
  } finally {
    await close(db);
  }
}

/** A name beside `file` for work in progress, renamed into place only once complete. */
export function partialName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.partial-${randomBytes(4).toString('hex')}`);
}

/** Copies the live database `storage` into `file` (which must not exist) while the server runs. */
export async function backupSqlite(storage: string, file: string): Promise<void> {
  if (!existsSync(storage)) throw new Error(`There is no database to back up at ${storage}.`);
  const partial = partialName(file);
  try {
    await withConnection(storage, sqlite3.OPEN_READWRITE, (db) => all(db, 'VACUUM INTO ?', [partial]));
    // A copy that is not a sound database is no backup: check it before it takes the name.
    await checkSqliteFile(partial);
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
}

/** Rejects unless `file` is an intact SQLite database. */
export async function checkSqliteFile(file: string): Promise<void> {
  const rows = await withConnection(file, sqlite3.OPEN_READONLY, (db) =>
    all<{ quick_check: string }>(db, 'PRAGMA quick_check'),
  );
  const problems = rows.map((row) => row.quick_check).filter((line) => line !== 'ok');
  if (problems.length > 0) throw new Error(`${file} is damaged: ${problems.slice(0, 3).join('; ')}`);
}

/** The migration names a SQLite backup records (its meta table); none when it has no such table. */
export async function sqliteMigrations(file: string): Promise<string[]> {
  return withConnection(file, sqlite3.OPEN_READONLY, async (db) => {
    const tables = await all(db, `SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, [
      MIGRATIONS_TABLE,
    ]);
    if (tables.length === 0) return [];
    const rows = await all<{ name: string }>(db, `SELECT name FROM "${MIGRATIONS_TABLE}" ORDER BY name`);
    return rows.map((row) => row.name);
  });
}

/** Rows per table, for a report and for the tests' comparisons. */
export async function sqliteTableCounts(file: string): Promise<Record<string, number>> {
  return withConnection(file, sqlite3.OPEN_READONLY, async (db) => {
    const tables = await all<{ name: string }>(
      db,
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const [row] = await all<{ n: number }>(db, `SELECT COUNT(*) AS n FROM "${name}"`);
      counts[name] = row?.n ?? 0;
    }
    return counts;
  });
}

/** Rows whose foreign keys point nowhere (PRAGMA foreign_key_check), as `table → parent` lines. */
export async function sqliteForeignKeyProblems(file: string): Promise<string[]> {
  const rows = await withConnection(file, sqlite3.OPEN_READONLY, (db) =>
    all<{ table: string; rowid: number; parent: string }>(db, 'PRAGMA foreign_key_check'),
  );
  return rows.map((row) => `${row.table} row ${row.rowid} → ${row.parent}`);
}

export class DatabaseInUseError extends Error {
  constructor(storage: string) {
    super(
      `The database ${storage} is open in another process: stop the server (every process using this ` +
        'DATA_DIR) before restoring.',
    );
    this.name = 'DatabaseInUseError';
  }
}

/**
 * Whether the database at `storage` holds any row of ours, after making sure no process has it open: a
 * connection in WAL mode keeps a shared lock for as long as it is open, so leaving WAL (which folds the
 * -wal file into the database) is refused while the server runs. A database found idle is left
 * self-contained, so it can be moved aside whole.
 */
export async function claimIdleSqlite(storage: string): Promise<{ hasData: boolean }> {
  if (!existsSync(storage)) return { hasData: false };
  return withConnection(storage, sqlite3.OPEN_READWRITE, async (db) => {
    db.configure('busyTimeout', 1_000);
    try {
      await all(db, 'PRAGMA journal_mode=DELETE');
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DatabaseInUseError(storage);
      throw error;
    }
    const tables = await all<{ name: string }>(
      db,
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> ?`,
      [MIGRATIONS_TABLE],
    );
    for (const { name } of tables) {
      if ((await all(db, `SELECT 1 FROM "${name}" LIMIT 1`)).length > 0) return { hasData: true };
    }
    return { hasData: false };
  });
}

/**
 * Puts the backup `file` in place of the database at `storage` (the server stopped: claimIdleSqlite
 * first). The database it replaces, if any, is kept beside it as `<name>.before-restore-<time>`; the
 * -wal and -shm files of the old one go, or SQLite would replay the old journal onto the new file.
 */
export async function restoreSqlite(file: string, storage: string): Promise<{ keptAs?: string }> {
  await mkdir(path.dirname(storage), { recursive: true });
  const partial = partialName(storage);
  try {
    // The backup itself is never modified: a copy through SQLite, which also checks it reads whole.
    await withConnection(file, sqlite3.OPEN_READONLY, (db) => all(db, 'VACUUM INTO ?', [partial]));
    await checkSqliteFile(partial);
    let keptAs: string | undefined;
    if (existsSync(storage) && (await stat(storage)).size > 0) {
      keptAs = `${storage}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(storage, keptAs);
    }
    await rm(`${storage}-wal`, { force: true });
    await rm(`${storage}-shm`, { force: true });
    await rename(partial, storage);
    return keptAs === undefined ? {} : { keptAs };
  } finally {
    await rm(partial, { force: true });
  }
}

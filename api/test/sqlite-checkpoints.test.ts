import { statSync } from 'node:fs';
import path from 'node:path';
import type { Sequelize, Transaction } from 'sequelize';
import { QueryTypes } from 'sequelize';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/index.js';
import {
  BACKGROUND_CHECKPOINT_PRAGMAS,
  checkpointInBackground,
  JOURNAL_SIZE_LIMIT,
} from '../src/db/sqlite-checkpoints.js';
import type { BackgroundCheckpoints, CheckpointPolicy } from '../src/db/sqlite-checkpoints.js';
import { prepareEachSqliteConnection, SQLITE_BUSY_TIMEOUT_MS } from '../src/db/sqlite-connections.js';
import { createLogger } from '../src/logger.js';
import { bareSqlite } from './helpers/bare-sqlite.js';
import { LogCapture, tempDir } from './helpers/env.js';

/**
 * SQLite's WAL checkpoints run by a connection of their own (sqlite-checkpoints.ts), never by a request's
 * commit: what the database file and its WAL hold shows which connection copied what, and when.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const silent = createLogger({ LOG_LEVEL: 'silent' });
const MIB = 1024 * 1024;
/** A write of this many bytes passes SQLite's automatic checkpoint (1,000 pages of 4 KiB) twice over. */
const PAST_AUTOMATIC = 8 * MIB;
/** The timer never fires during the test, which runs the checkpoints itself. */
const BY_HAND: CheckpointPolicy = { intervalMs: 3_600_000, walBytes: Infinity, maxMs: Infinity };

async function sqliteFile(): Promise<string> {
  const data = await tempDir('avp-checkpoints-');
  cleanups.push(data.remove);
  return path.join(data.dir, 'test.db');
}

const sizeOf = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/** Sequelize on SQLite as connection.ts prepares it, checkpoints left to `checkpoints`. */
async function requestConnections(storage: string, extraPragmas: string[]): Promise<Sequelize> {
  const sequelize = bareSqlite(storage);
  cleanups.push(() => sequelize.close());
  prepareEachSqliteConnection(sequelize, SQLITE_BUSY_TIMEOUT_MS, extraPragmas);
  await sequelize.query('PRAGMA journal_mode=WAL');
  await sequelize.query('CREATE TABLE blobs (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)');
  return sequelize;
}

/** The writes the checkpoints are told of (connection.ts: this process's write turns). */
let writes = 0;

/** `bytes` of rows in commits of 256 KiB, every other one in a transaction (a connection of its own). */
async function write(sequelize: Sequelize, bytes: number): Promise<void> {
  const row = 64 * 1024;
  for (let commit = 0; commit * 4 * row < bytes; commit++) {
    writes++;
    const insert = (transaction?: Transaction) =>
      sequelize.query(
        `INSERT INTO blobs (bytes) VALUES ${Array.from({ length: 4 }, () => '(randomblob(:row))').join(', ')}`,
        { replacements: { row }, transaction },
      );
    if (commit % 2 === 0) await insert();
    else await sequelize.transaction((t) => insert(t));
  }
}

function background(storage: string, policy = BY_HAND, logger = silent): BackgroundCheckpoints {
  const checkpoints = checkpointInBackground(storage, logger, () => writes, policy);
  cleanups.push(() => checkpoints.stop());
  return checkpoints;
}

describe('background checkpoints', () => {
  it('leaves the database file alone while requests commit past the WAL’s automatic size, then copies it all in one checkpoint', async () => {
    const storage = await sqliteFile();
    const sequelize = await requestConnections(storage, BACKGROUND_CHECKPOINT_PRAGMAS);
    const checkpoints = background(storage);
    const fileBefore = sizeOf(storage);

    await write(sequelize, PAST_AUTOMATIC);
    // Every byte is in the WAL; no commit, the transactions' own connections included, copied any of it.
    expect(sizeOf(storage)).toBe(fileBefore);
    expect(sizeOf(`${storage}-wal`)).toBeGreaterThan(PAST_AUTOMATIC);

    const result = await checkpoints.run();
    expect(result.busy).toBe(0);
    expect(result.log).toBeGreaterThan(PAST_AUTOMATIC / 4096);
    expect(result.checkpointed).toBe(result.log);
    expect(sizeOf(storage)).toBeGreaterThan(PAST_AUTOMATIC);
    const [counted] = await sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM blobs', {
      type: QueryTypes.SELECT,
    });
    expect(counted?.n).toBe(PAST_AUTOMATIC / (64 * 1024));
  });

  it('keeps the WAL from growing: after a checkpoint the next writes start it again from its beginning', async () => {
    const storage = await sqliteFile();
    const sequelize = await requestConnections(storage, BACKGROUND_CHECKPOINT_PRAGMAS);
    const checkpoints = background(storage);

    await write(sequelize, PAST_AUTOMATIC);
    await checkpoints.run();
    const walAfterOne = sizeOf(`${storage}-wal`);
    for (let round = 0; round < 3; round++) {
      await write(sequelize, PAST_AUTOMATIC);
      await checkpoints.run();
    }
    // Four times the bytes went through the WAL; it holds one round's.
    expect(sizeOf(`${storage}-wal`)).toBeLessThan(walAfterOne * 1.25);
    // And once it starts again it is cut back, so its size says how much it holds.
    await sequelize.query('INSERT INTO blobs (bytes) VALUES (randomblob(10))');
    expect(sizeOf(`${storage}-wal`)).toBeLessThanOrEqual(JOURNAL_SIZE_LIMIT);
  });

  it('waits for the writes to pause, then copies them, and stops for good', async () => {
    const storage = await sqliteFile();
    const sequelize = await requestConnections(storage, BACKGROUND_CHECKPOINT_PRAGMAS);
    const checkpoints = background(storage, { intervalMs: 50, walBytes: Infinity, maxMs: Infinity });
    const fileBefore = sizeOf(storage);

    // Writes for a second, many intervals long, one at least every interval: no checkpoint meanwhile.
    const until = Date.now() + 1_000;
    while (Date.now() < until) {
      await write(sequelize, 256 * 1024);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(sizeOf(storage)).toBe(fileBefore);
    await vi.waitFor(() => expect(sizeOf(storage)).toBeGreaterThan(fileBefore), { timeout: 5_000 });

    await checkpoints.stop();
    await checkpoints.stop();
    const fileStopped = sizeOf(storage);
    await write(sequelize, PAST_AUTOMATIC);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sizeOf(storage)).toBe(fileStopped);
  });

  it('copies the WAL while writes go on, once it has grown past its size or waited its longest', async () => {
    for (const policy of [
      { intervalMs: 50, walBytes: 2 * MIB, maxMs: Infinity },
      { intervalMs: 50, walBytes: Infinity, maxMs: 300 },
    ]) {
      const storage = await sqliteFile();
      const sequelize = await requestConnections(storage, BACKGROUND_CHECKPOINT_PRAGMAS);
      background(storage, policy);
      const fileBefore = sizeOf(storage);

      const until = Date.now() + 5_000;
      while (sizeOf(storage) === fileBefore && Date.now() < until) {
        await write(sequelize, 256 * 1024);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(sizeOf(storage), JSON.stringify(policy)).toBeGreaterThan(fileBefore);
    }
  });

  it('copies the WAL though its connection opened the file before the file was switched to WAL', async () => {
    const storage = await sqliteFile();
    const sequelize = bareSqlite(storage);
    cleanups.push(() => sequelize.close());
    prepareEachSqliteConnection(sequelize, SQLITE_BUSY_TIMEOUT_MS, BACKGROUND_CHECKPOINT_PRAGMAS);
    await sequelize.query('CREATE TABLE early (id INTEGER PRIMARY KEY)');
    const checkpoints = background(storage);
    await checkpoints.run();

    await sequelize.query('PRAGMA journal_mode=WAL');
    await sequelize.query('CREATE TABLE blobs (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)');
    await write(sequelize, PAST_AUTOMATIC);
    const result = await checkpoints.run();
    expect(result.checkpointed).toBeGreaterThan(PAST_AUTOMATIC / 4096);
    expect(sizeOf(storage)).toBeGreaterThan(PAST_AUTOMATIC);
  });

  it('logs a failing checkpoint once, not every second, and carries on once the file is back', async () => {
    const storage = await sqliteFile();
    const capture = new LogCapture();
    const checkpoints = background(
      storage,
      { intervalMs: 20, walBytes: Infinity, maxMs: Infinity },
      createLogger({ LOG_LEVEL: 'debug' }, capture),
    );
    writes++;

    // No database at the path yet: the connection cannot be opened (OPEN_READWRITE does not create it).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const failures = capture.lines.filter((l) => l.msg === 'sqlite checkpoint failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 40, file: storage });
    await expect(checkpoints.run()).rejects.toThrow(/SQLITE_CANTOPEN/);

    const sequelize = await requestConnections(storage, BACKGROUND_CHECKPOINT_PRAGMAS);
    await write(sequelize, PAST_AUTOMATIC);
    await vi.waitFor(
      () => {
        expect(sizeOf(storage)).toBeGreaterThan(PAST_AUTOMATIC);
        expect(capture.lines.filter((l) => l.msg === 'sqlite checkpoint').at(-1)).toMatchObject({ busy: 0 });
      },
      { timeout: 5_000 },
    );
    expect(capture.lines.filter((l) => l.msg === 'sqlite checkpoint failed')).toHaveLength(1);
  });
});

describe('openDatabase on SQLite', () => {
  it('gives every connection, a transaction’s own included, no automatic checkpoint, and copies the WAL into the file within seconds', async () => {
    const data = await tempDir('avp-checkpoints-');
    cleanups.push(data.remove);
    const db = await openDatabase(loadConfig({ DATA_DIR: data.dir }), silent);
    cleanups.push(() => db.close());
    const storage = path.join(data.dir, 'app.db');
    const pragma = async (name: string, transaction?: Transaction) =>
      (await db.sequelize.query(`PRAGMA ${name}`, { type: QueryTypes.SELECT, transaction }))[0];

    expect(await pragma('wal_autocheckpoint')).toEqual({ wal_autocheckpoint: 0 });
    expect(await db.sequelize.transaction((t) => pragma('wal_autocheckpoint', t))).toEqual({
      wal_autocheckpoint: 0,
    });
    await db.sequelize.query('CREATE TABLE blobs (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)');
    await write(db.sequelize, PAST_AUTOMATIC);
    await vi.waitFor(() => expect(sizeOf(storage)).toBeGreaterThan(PAST_AUTOMATIC), { timeout: 5_000 });
  });
});

import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Transaction } from 'sequelize';
import { QueryTypes, Sequelize } from 'sequelize';
import { afterEach, describe, expect, it } from 'vitest';
import { readInt8AsNumber } from '../src/db/postgres-int8.js';
import { prepareEachSqliteConnection, SQLITE_BUSY_TIMEOUT_MS } from '../src/db/sqlite-connections.js';
import { transactionsTakeTurns, WriteTurns, writesTakeTurns } from '../src/db/sqlite-write-turns.js';
import { bareSqlite as openBare } from './helpers/bare-sqlite.js';
import { onPostgres, tempDir, TEST_DATABASE_URL } from './helpers/env.js';

/**
 * What connection.ts adds to Sequelize, one wrapper at a time, on a bare Sequelize instance. Each test
 * fails with its wrapper left out, but for the foreign keys: Sequelize sends that pragma itself, without
 * waiting for it, and in practice it still runs first.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A short busy timeout: a starved writer then fails in 1 s instead of 10. */
const BUSY_MS = 1_000;

async function sqliteFile(): Promise<string> {
  const data = await tempDir('avp-db-');
  cleanups.push(data.remove);
  return path.join(data.dir, 'test.db');
}

/** Sequelize on SQLite as connection.ts opens it, before any of the wrappers under test. */
async function bareSqlite(storage: string): Promise<Sequelize> {
  const sequelize = openBare(storage);
  cleanups.push(() => sequelize.close());
  return sequelize;
}

async function createTables(sequelize: Sequelize): Promise<void> {
  await sequelize.query('PRAGMA journal_mode=WAL');
  await sequelize.query('CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  await sequelize.query(
    'CREATE TABLE IF NOT EXISTS children (id INTEGER PRIMARY KEY, item_id INTEGER NOT NULL REFERENCES items (id))',
  );
}

async function itemCount(sequelize: Sequelize): Promise<number> {
  const [rows] = await sequelize.query('SELECT COUNT(*) AS n FROM items');
  return Number((rows as Array<{ n: number }>)[0]?.n);
}

const insert = (sequelize: Sequelize, name: string, transaction?: Transaction) =>
  sequelize.query('INSERT INTO items (name) VALUES (?)', { replacements: [name], transaction });

/** Settles to 'done' or the error's message, so a test can wait for several without an unhandled rejection. */
const outcome = (work: Promise<unknown>): Promise<string> =>
  work.then(
    () => 'done',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

describe('prepareEachSqliteConnection', () => {
  it("gives every connection, a transaction's own included, a 10 s busy timeout instead of node-sqlite3's 1 s", async () => {
    const sequelize = await bareSqlite(await sqliteFile());
    prepareEachSqliteConnection(sequelize);
    await createTables(sequelize);
    const busyTimeout = async (transaction?: Transaction) =>
      (await sequelize.query('PRAGMA busy_timeout', { type: QueryTypes.SELECT, transaction }))[0];

    expect(await busyTimeout()).toEqual({ timeout: SQLITE_BUSY_TIMEOUT_MS });
    expect(await sequelize.transaction((t) => busyTimeout(t))).toEqual({ timeout: SQLITE_BUSY_TIMEOUT_MS });
  });

  it("makes every connection, a transaction's own included, commit without a sync (synchronous NORMAL, not FULL)", async () => {
    const sequelize = await bareSqlite(await sqliteFile());
    prepareEachSqliteConnection(sequelize);
    await createTables(sequelize);
    const synchronous = async (transaction?: Transaction) =>
      (await sequelize.query('PRAGMA synchronous', { type: QueryTypes.SELECT, transaction }))[0];

    expect(await synchronous()).toEqual({ synchronous: 1 });
    expect(await sequelize.transaction((t) => synchronous(t))).toEqual({ synchronous: 1 });
  });

  it("enforces foreign keys on every connection from its first statement, a transaction's own included", async () => {
    const sequelize = await bareSqlite(await sqliteFile());
    prepareEachSqliteConnection(sequelize);
    await createTables(sequelize);
    const orphan = (transaction?: Transaction) =>
      sequelize.query('INSERT INTO children (item_id) VALUES (42)', { transaction });

    // Fresh transaction connections, each refusing the orphan as its very first statement.
    for (let i = 0; i < 10; i++) {
      expect(await outcome(sequelize.transaction((t) => orphan(t)))).toBe(
        'SQLITE_CONSTRAINT: FOREIGN KEY constraint failed',
      );
    }
    expect(await outcome(orphan())).toBe('SQLITE_CONSTRAINT: FOREIGN KEY constraint failed');
  });
});

describe('transactionsTakeTurns', () => {
  it('commits more transactions at once than libuv has threads, none starved by the others', async () => {
    const sequelize = await bareSqlite(await sqliteFile());
    prepareEachSqliteConnection(sequelize, BUSY_MS);
    transactionsTakeTurns(sequelize, new WriteTurns());
    await createTables(sequelize);

    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        outcome(
          sequelize.transaction(async (transaction) => {
            await insert(sequelize, `t${i}`, transaction);
            // Several statements each, so a transaction needs a pool thread again while holding the lock.
            await sequelize.query('SELECT COUNT(*) FROM items', { transaction });
            await sequelize.query('UPDATE items SET name = name WHERE id = 1', { transaction });
          }),
        ),
      ),
    );
    expect(results).toEqual(Array.from({ length: 12 }, () => 'done'));
    expect(await itemCount(sequelize)).toBe(12);
  });

  it('gives up on a turn after the timeout without holding up the writers queued behind it', async () => {
    const sequelize = await bareSqlite(await sqliteFile());
    prepareEachSqliteConnection(sequelize);
    transactionsTakeTurns(sequelize, new WriteTurns(300));
    await createTables(sequelize);

    const holding = await sequelize.transaction();
    await insert(sequelize, 'held', holding);
    const timedOut = outcome(sequelize.transaction((t) => insert(sequelize, 'too late', t)));
    expect(await timedOut).toBe('SQLite: no turn to write within 300 ms');
    const next = outcome(sequelize.transaction((t) => insert(sequelize, 'next', t)));
    await holding.commit();

    expect(await next).toBe('done');
    const [rows] = await sequelize.query('SELECT name FROM items ORDER BY id');
    expect(rows).toEqual([{ name: 'held' }, { name: 'next' }]);
  });
});

describe('writesTakeTurns', () => {
  it('queues a write outside a transaction in memory, so reads on the shared connection are not held up behind it', async () => {
    const sequelize = await bareSqlite(await sqliteFile());
    // Long enough that a read stuck behind a write waiting inside SQLite cannot pass for a prompt one.
    prepareEachSqliteConnection(sequelize, 5_000);
    const turns = new WriteTurns();
    transactionsTakeTurns(sequelize, turns);
    writesTakeTurns(sequelize, turns);
    await createTables(sequelize);

    const holding = await sequelize.transaction();
    await insert(sequelize, 'inside', holding);
    const write = outcome(insert(sequelize, 'outside'));
    await sleep(100);
    // Statements outside transactions share one connection and run one at a time on it.
    const read = itemCount(sequelize);
    const first = await Promise.race([read, sleep(2_500).then(() => 'still waiting')]);
    await holding.commit();

    expect(first).toBe(0);
    expect(await write).toBe('done');
    expect(await itemCount(sequelize)).toBe(2);
  });
});

describe.runIf(onPostgres('readInt8AsNumber (postgres): 64-bit sums and counts read as numbers'))(
  'readInt8AsNumber (postgres)',
  () => {
    it('reads BIGINT and COUNT(*) as numbers, and an int8 past 2^53 as its exact digits', async () => {
      const sequelize = new Sequelize(TEST_DATABASE_URL!, { dialect: 'postgres', logging: false });
      cleanups.push(() => sequelize.close());
      readInt8AsNumber(sequelize);
      const [rows] = await sequelize.query(
        'SELECT COUNT(*) AS n, 5000000000::bigint AS size, 9007199254740993::bigint AS huge',
      );
      expect(rows).toEqual([{ n: 1, size: 5_000_000_000, huge: '9007199254740993' }]);
    });
  },
);

import path from 'node:path';
import { Sequelize, Transaction } from 'sequelize';
import type { Options } from 'sequelize';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { defineModels } from './models/index.js';
import type { Models } from './models/index.js';

export type Dialect = 'sqlite' | 'postgres';

export type DatabaseTarget =
  { dialect: 'sqlite'; storage: string } | { dialect: 'postgres'; url: string; schema: string | undefined };

export type DatabaseConfig = Pick<Config, 'DATA_DIR' | 'DATABASE_URL' | 'DB_SCHEMA'>;

export interface Database {
  sequelize: Sequelize;
  dialect: Dialect;
  /** The PostgreSQL schema the connections use (search_path), when not the default one. */
  schema: string | undefined;
  models: Models;
  /** A round trip to the database, for health checks. */
  ping(): Promise<void>;
  /** Closes every connection; calling it again returns the same promise. */
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
export const SQLITE_FILE = 'app.db';

/**
 * SQLite in DATA_DIR unless DATABASE_URL names a PostgreSQL server. A PostgreSQL schema can be chosen with
 * DB_SCHEMA or `?schema=name` in the URL (the tests isolate themselves in throwaway schemas this way).
 */
export function databaseTarget(config: DatabaseConfig): DatabaseTarget {
  if (config.DATABASE_URL === undefined) {
    return { dialect: 'sqlite', storage: path.join(config.DATA_DIR, SQLITE_FILE) };
  }
  const url = new URL(config.DATABASE_URL);
  const fromUrl = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  const schema = config.DB_SCHEMA ?? fromUrl;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(
      `DATABASE_URL: schema must be a lowercase PostgreSQL schema name (got ${JSON.stringify(schema)})`,
    );
  }
  return { dialect: 'postgres', url: url.toString(), schema };
}

/** int8 (BIGINT, COUNT) as a JS number; a value past 2^53 stays a string rather than lose digits. */
function parseInt8(value: string): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

export async function openDatabase(config: DatabaseConfig, logger: Logger): Promise<Database> {
  const target = databaseTarget(config);
  const log = logger.child({ component: 'db' });
  const common: Options = {
    logging: (sql: string, timing?: number) => log.debug({ sql, ms: timing }, 'sql'),
    benchmark: true,
    define: { underscored: true },
  };

  let sequelize: Sequelize;
  if (target.dialect === 'sqlite') {
    sequelize = new Sequelize({
      ...common,
      dialect: 'sqlite',
      storage: target.storage,
      // BEGIN IMMEDIATE takes the write lock up front and waits for it (busy timeout); a deferred transaction
      // that reads first and writes later can only fail with SQLITE_BUSY when another writer got there first.
      transactionType: Transaction.TYPES.IMMEDIATE,
    });
    prepareSqliteConnections(sequelize);
    serialiseSqliteTransactions(sequelize);
  } else {
    sequelize = new Sequelize(target.url, {
      ...common,
      dialect: 'postgres',
      pool: { max: 10, min: 0, idle: 10_000, acquire: 30_000 },
      ...(target.schema === undefined
        ? {}
        : {
            // Sequelize's own introspection (describeTable...) reads `schema`; every connection's
            // search_path makes the unqualified table names land in it.
            schema: target.schema,
            dialectOptions: { options: `-c search_path=${target.schema}` },
          }),
    });
    readInt8AsNumber(sequelize);
  }

  try {
    await sequelize.authenticate();
    if (target.dialect === 'sqlite') {
      // WAL lets readers carry on while one process writes; it is a property of the file, set once.
      await sequelize.query('PRAGMA journal_mode=WAL');
      await sequelize.query('PRAGMA synchronous=NORMAL');
    } else if (target.schema !== undefined) {
      await createSchema(sequelize, target.schema);
    }
  } catch (error) {
    await sequelize.close().catch(() => undefined);
    throw error;
  }

  const models = defineModels(sequelize);
  let closing: Promise<void> | undefined;
  return {
    sequelize,
    dialect: target.dialect,
    schema: target.dialect === 'postgres' ? target.schema : undefined,
    models,
    async ping() {
      await sequelize.query('SELECT 1');
    },
    // Idempotent: shutdown paths may race, and SQLite refuses a second close.
    close: () => (closing ??= sequelize.close()),
  };
}

const INT8_OID = 20;

/**
 * BIGINT columns (file sizes) read as numbers on PostgreSQL too, as they do on SQLite. The parser belongs to
 * the pg module Sequelize loaded, so it is process-wide; everything in this process that reads int8 wants it.
 */
function readInt8AsNumber(sequelize: Sequelize): void {
  const { lib } = sequelize.connectionManager as unknown as {
    lib: { types: { setTypeParser(oid: number, parse: (value: string) => unknown): void } };
  };
  lib.types.setTypeParser(INT8_OID, parseInt8);
}

async function createSchema(sequelize: Sequelize, schema: string): Promise<void> {
  try {
    await sequelize.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    // Two processes creating the same schema at once: the loser sees a duplicate, which is fine.
    const code = (error as { parent?: { code?: string } }).parent?.code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}

interface SqliteConnection {
  configure(option: 'busyTimeout', value: number): void;
  run(sql: string, callback: (error: Error | null) => void): void;
}

/**
 * Sequelize opens one SQLite connection by default and one more per transaction. Each gets foreign keys
 * switched on (SQLite's default is off) before its first statement, and a busy timeout so that a write
 * waits for another connection's (or process's) write instead of failing with SQLITE_BUSY at once.
 */
function prepareSqliteConnections(sequelize: Sequelize): void {
  const manager = sequelize.connectionManager as unknown as {
    getConnection(options?: object): Promise<SqliteConnection>;
  };
  const getConnection = manager.getConnection.bind(manager);
  const prepared = new WeakSet<SqliteConnection>();
  manager.getConnection = async (options) => {
    const connection = await getConnection(options);
    if (!prepared.has(connection)) {
      prepared.add(connection);
      connection.configure('busyTimeout', 10_000);
      await new Promise<void>((resolve, reject) =>
        connection.run('PRAGMA foreign_keys=ON', (error) => (error ? reject(error) : resolve())),
      );
    }
    return connection;
  };
}

/** How long a transaction waits for its turn before giving up, like the busy timeout does between processes. */
const SQLITE_TURN_TIMEOUT_MS = 30_000;

type TransactionFn = Sequelize['transaction'];

/**
 * SQLite has one writer at a time, and node-sqlite3 runs statements on libuv's small thread pool: with
 * several transactions each waiting for BEGIN IMMEDIATE inside that pool, the transaction holding the lock
 * can find no thread for its next statement and everyone waits out the busy timeout. So transactions of
 * this process take turns here, in memory (and so do writes outside a transaction), and only ever wait for
 * another process inside SQLite.
 * Savepoints (a transaction inside a given parent) run on the parent's turn.
 */
function serialiseSqliteTransactions(sequelize: Sequelize): void {
  const original = sequelize.transaction.bind(sequelize) as (...args: unknown[]) => Promise<unknown>;
  let tail: Promise<void> = Promise.resolve();

  const takeTurn = async (): Promise<() => void> => {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const before = tail;
    tail = before.then(() => mine);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`SQLite: no turn to write within ${SQLITE_TURN_TIMEOUT_MS} ms`)),
        SQLITE_TURN_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([before, timeout]);
    } catch (error) {
      // Give the turn on once it comes, so the queue behind this one is not stuck.
      void before.then(release);
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return release;
  };

  const transaction = async (first?: unknown, second?: unknown): Promise<unknown> => {
    const callback = typeof first === 'function' ? first : second;
    const options = (typeof first === 'function' ? undefined : first) as
      { transaction?: unknown } | undefined;
    if (options?.transaction) return original(first, second);
    const release = await takeTurn();
    if (typeof callback === 'function') {
      try {
        return await original(options ?? {}, callback);
      } finally {
        release();
      }
    }
    let t: Transaction;
    try {
      t = (await original(options)) as Transaction;
    } catch (error) {
      release();
      throw error;
    }
    let released = false;
    const done = () => {
      if (!released) {
        released = true;
        release();
      }
    };
    const commit = t.commit.bind(t);
    const rollback = t.rollback.bind(t);
    t.commit = async () => {
      try {
        await commit();
      } finally {
        done();
      }
    };
    t.rollback = async () => {
      try {
        await rollback();
      } finally {
        done();
      }
    };
    return t;
  };
  sequelize.transaction = transaction as unknown as TransactionFn;

  // A write outside any transaction contends for the same lock from the pool, so it takes a turn too.
  const query = sequelize.query.bind(sequelize) as (...args: unknown[]) => Promise<unknown>;
  const queryInTurn = async (sql: unknown, options?: { transaction?: unknown }): Promise<unknown> => {
    if (options?.transaction || isReadOnly(sql)) return query(sql, options);
    const release = await takeTurn();
    try {
      return await query(sql, options);
    } finally {
      release();
    }
  };
  sequelize.query = queryInTurn as unknown as Sequelize['query'];
}

/** SELECTs and PRAGMAs never wait for the write lock in WAL mode. */
function isReadOnly(sql: unknown): boolean {
  const text = typeof sql === 'string' ? sql : (sql as { query?: unknown } | null)?.query;
  return typeof text === 'string' && /^\s*(SELECT|PRAGMA)\b/i.test(text);
}

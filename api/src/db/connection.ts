import path from 'node:path';
import { Sequelize, Transaction } from 'sequelize';
import type { Options } from 'sequelize';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { defineModels } from './models/index.js';
import type { Models } from './models/index.js';
import { readInt8AsNumber } from './postgres-int8.js';
import { BACKGROUND_CHECKPOINT_PRAGMAS, checkpointInBackground } from './sqlite-checkpoints.js';
import type { BackgroundCheckpoints } from './sqlite-checkpoints.js';
import { prepareEachSqliteConnection, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-connections.js';
import { keepTransactionConnections } from './sqlite-transaction-connections.js';
import {
  SQLITE_TURN_TIMEOUT_MS,
  transactionsTakeTurns,
  WriteTurns,
  writesTakeTurns,
} from './sqlite-write-turns.js';

export type Dialect = 'sqlite' | 'postgres';

export type DatabaseTarget =
  { dialect: 'sqlite'; storage: string } | { dialect: 'postgres'; url: string; schema: string | undefined };

export type DatabaseConfig = Pick<Config, 'DATA_DIR' | 'DATABASE_URL' | 'DB_SCHEMA'> &
  Partial<
    Pick<
      Config,
      | 'DB_CONNECT_TIMEOUT_SECONDS'
      | 'DB_ACQUIRE_TIMEOUT_SECONDS'
      | 'DB_STATEMENT_TIMEOUT_SECONDS'
      | 'SQLITE_TURN_TIMEOUT_SECONDS'
    >
  >;

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

export async function openDatabase(config: DatabaseConfig, logger: Logger): Promise<Database> {
  const target = databaseTarget(config);
  const log = logger.child({ component: 'db' });
  const common: Options = {
    logging: (sql: string, timing?: number) => log.debug({ sql, ms: timing }, 'sql'),
    benchmark: true,
    define: { underscored: true },
  };

  let sequelize: Sequelize;
  let turns: WriteTurns | undefined;
  if (target.dialect === 'sqlite') {
    sequelize = new Sequelize({
      ...common,
      dialect: 'sqlite',
      storage: target.storage,
      // BEGIN IMMEDIATE takes the write lock up front and waits for it (busy timeout); a deferred transaction
      // that reads first and writes later can only fail with SQLITE_BUSY when another writer got there first.
      transactionType: Transaction.TYPES.IMMEDIATE,
    });
    // What Sequelize's SQLite dialect lacks, each in its own module: connections ready before their first
    // statement, a transaction's connection kept for the next one, and this process's writes taking turns
    // (sqlite-write-turns.ts says why).
    prepareEachSqliteConnection(sequelize, SQLITE_BUSY_TIMEOUT_MS, BACKGROUND_CHECKPOINT_PRAGMAS);
    keepTransactionConnections(sequelize);
    turns = new WriteTurns(
      config.SQLITE_TURN_TIMEOUT_SECONDS === undefined
        ? SQLITE_TURN_TIMEOUT_MS
        : config.SQLITE_TURN_TIMEOUT_SECONDS * 1000,
    );
    transactionsTakeTurns(sequelize, turns);
    writesTakeTurns(sequelize, turns);
  } else {
    // No wait on the database without an end (issue 28): opening a connection, getting one from the
    // pool, and each statement, which the server cancels (statement_timeout) and the client gives up
    // on a little later (query_timeout) when the connection itself went silent (a blackholed route).
    // Broken connections are dropped by the pool and new ones opened on demand, so after a restart
    // the next requests simply work; those caught in the gap answer 503 (http/errors.ts).
    const statementMs = (config.DB_STATEMENT_TIMEOUT_SECONDS ?? 30) * 1000;
    sequelize = new Sequelize(target.url, {
      ...common,
      dialect: 'postgres',
      pool: {
        max: 10,
        min: 0,
        idle: 10_000,
        acquire: (config.DB_ACQUIRE_TIMEOUT_SECONDS ?? 10) * 1000,
      },
      dialectOptions: {
        connectionTimeoutMillis: (config.DB_CONNECT_TIMEOUT_SECONDS ?? 10) * 1000,
        statement_timeout: statementMs,
        query_timeout: statementMs + Math.min(statementMs, 5_000),
        keepAlive: true,
        // Sequelize's own introspection (describeTable...) reads `schema`; every connection's
        // search_path makes the unqualified table names land in it.
        ...(target.schema === undefined ? {} : { options: `-c search_path=${target.schema}` }),
      },
      ...(target.schema === undefined ? {} : { schema: target.schema }),
    });
    readInt8AsNumber(sequelize);
  }

  // SQLite's WAL checkpoints, off the connections that serve requests (sqlite-checkpoints.ts).
  let checkpoints: BackgroundCheckpoints | undefined;
  try {
    await sequelize.authenticate();
    if (target.dialect === 'sqlite') {
      // WAL lets readers carry on while one process writes; it is a property of the file, set once.
      await sequelize.query('PRAGMA journal_mode=WAL');
      const writes = turns;
      if (writes) checkpoints = checkpointInBackground(target.storage, log, () => writes.turnsGiven);
    } else if (target.schema !== undefined) {
      await createSchema(sequelize, target.schema);
    }
  } catch (error) {
    await checkpoints?.stop();
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
    close: () =>
      (closing ??= (async () => {
        await checkpoints?.stop();
        await sequelize.close();
      })()),
  };
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

import { SequelizeStorage, Umzug } from 'umzug';
import type { Logger } from '../logger.js';
import type { Database } from './connection.js';
import { MIGRATIONS } from './migrations/index.js';
import type { MigrationContext } from './migrations/index.js';

export const MIGRATIONS_TABLE = 'sequelize_meta';

export function createMigrator(db: Database, logger?: Logger): Umzug<MigrationContext> {
  const log = logger?.child({ component: 'migrations' });
  return new Umzug<MigrationContext>({
    migrations: MIGRATIONS.map(({ name, module }) => ({
      name,
      up: (params) => module.up(params),
      down: (params) => module.down(params),
    })),
    context: { queryInterface: db.sequelize.getQueryInterface(), sequelize: db.sequelize },
    storage: new SequelizeStorage({ sequelize: db.sequelize, tableName: MIGRATIONS_TABLE }),
    logger: log
      ? {
          info: (message) => log.info(message),
          warn: (message) => log.warn(message),
          error: (message) => log.error(message),
          debug: (message) => log.debug(message),
        }
      : undefined,
  });
}

/** Applies every pending migration; returns the names applied. Safe to run from several processes at once. */
export async function migrateUp(db: Database, logger?: Logger): Promise<string[]> {
  return withMigrationLock(db, async () => {
    const applied = await createMigrator(db, logger).up();
    return applied.map((migration) => migration.name);
  });
}

/**
 * Reverts the last migration, or with `to` every migration back to and including that name (0: all of them).
 * Returns the names reverted.
 */
export async function migrateDown(db: Database, to?: string | 0, logger?: Logger): Promise<string[]> {
  return withMigrationLock(db, async () => {
    const migrator = createMigrator(db, logger);
    const reverted = to === undefined ? await migrator.down() : await migrator.down({ to });
    return reverted.map((migration) => migration.name);
  });
}

export async function pendingMigrations(db: Database): Promise<string[]> {
  return (await createMigrator(db).pending()).map((migration) => migration.name);
}

interface PgConnection {
  query(sql: string): Promise<unknown>;
}

/**
 * On PostgreSQL, processes starting together (several API instances behind a load balancer) take turns:
 * a session advisory lock, per schema, held on a connection of its own while migrations run on others.
 * SQLite is one machine's file, and its own write lock already serialises the DDL.
 */
async function withMigrationLock<T>(db: Database, run: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'postgres') return run();
  const manager = db.sequelize.connectionManager;
  const connection = (await manager.getConnection({ type: 'write' })) as PgConnection;
  const key = "hashtext('avp:migrations:' || current_schema())";
  try {
    await connection.query(`SELECT pg_advisory_lock(${key})`);
    try {
      return await run();
    } finally {
      await connection.query(`SELECT pg_advisory_unlock(${key})`);
    }
  } finally {
    await manager.releaseConnection(connection);
  }
}

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
          info: (entry) => log.info(...migrationLine(entry)),
          warn: (entry) => log.warn(...migrationLine(entry)),
          error: (entry) => log.error(...migrationLine(entry)),
          debug: (entry) => log.debug(...migrationLine(entry)),
        }
      : undefined,
  });
}

const EVENTS: Record<string, string> = {
  migrating: 'applying migration',
  migrated: 'applied migration',
  reverting: 'reverting migration',
  reverted: 'reverted migration',
};

/**
 * Umzug logs `{ event, name, durationSeconds }` with no message, and `name` is what a readable log line
 * shows as the logger's name ('INFO (0001-initial-schema):' and nothing after it): each becomes a
 * sentence, the migration under `migration`.
 */
export function migrationLine(entry: Record<string, unknown>): [Record<string, unknown>, string] {
  const { event, name, durationSeconds, ...rest } = entry;
  const what = typeof event === 'string' ? (EVENTS[event] ?? event) : 'migrations';
  const took = typeof durationSeconds === 'number' ? ` in ${durationSeconds.toFixed(3)} s` : '';
  const message = typeof name === 'string' ? `${what} ${name}${took}` : `${what}${took}`;
  return [
    {
      ...rest,
      ...(typeof name === 'string' ? { migration: name } : {}),
      ...(took ? { durationSeconds } : {}),
    },
    message,
  ];
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

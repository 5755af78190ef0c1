export { databaseTarget, openDatabase, SQLITE_FILE } from './connection.js';
export type { Database, DatabaseConfig, DatabaseTarget, Dialect } from './connection.js';
export { createMigrator, migrateDown, migrateUp, MIGRATIONS_TABLE, pendingMigrations } from './migrator.js';
export type { Models } from './models/index.js';

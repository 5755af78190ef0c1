import type { Dialect } from './connection.js';

/**
 * A date as a bind parameter of raw SQL. PostgreSQL takes the Date itself. SQLite keeps DATE columns as the
 * text Sequelize writes ('2024-01-01 10:00:00.000 +00:00') and compares them as text, so the parameter must
 * be that same text: node-sqlite3 would bind a Date as a number, which sorts before any text.
 */
export function dateParam(dialect: Dialect, date: Date): Date | string {
  return dialect === 'sqlite' ? date.toISOString().replace('T', ' ').replace('Z', ' +00:00') : date;
}

import {
  ConnectionAcquireTimeoutError,
  ConnectionRefusedError,
  DatabaseError,
  TimeoutError,
  UniqueConstraintError,
} from 'sequelize';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/db/unavailable.js';
import { toAppError } from '../src/http/errors.js';

/** A Sequelize DatabaseError around a driver error, as node-postgres raises them. */
function pgError(message: string, code?: string): DatabaseError {
  const parent = Object.assign(new Error(message), code ? { code } : {}) as Error & { sql: string };
  parent.sql = 'SELECT 1';
  return new DatabaseError(parent);
}

describe('which database errors answer 503 database_unavailable', () => {
  it.each([
    ['connection refused', new ConnectionRefusedError(new Error('connect ECONNREFUSED 127.0.0.1:5432'))],
    ['no free connection in the pool', new ConnectionAcquireTimeoutError(new Error('Operation timeout'))],
    [
      'SQLite busy',
      new TimeoutError(Object.assign(new Error('SQLITE_BUSY: database is locked'), { sql: '' })),
    ],
    ['a connection cut under a query', pgError('Connection terminated unexpectedly')],
    ['a silent connection', pgError('Query read timeout')],
    ['the server shutting down', pgError('terminating connection due to administrator command', '57P01')],
    ['statement_timeout', pgError('canceling statement due to statement timeout', '57014')],
    ['a connection exception', pgError('connection failure', '08006')],
  ])('%s: yes', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    const answer = toAppError(error);
    expect(answer).toMatchObject({ status: 503, code: 'database_unavailable' });
  });

  it.each([
    ['a syntax error (a bug, not an outage)', pgError('syntax error at or near "SELEC"', '42601')],
    ['a missing table', pgError('relation "nope" does not exist', '42P01')],
    [
      'a unique violation',
      new UniqueConstraintError({ parent: Object.assign(new Error('duplicate key'), { sql: '' }) }),
    ],
    ['any other error', new Error('something else')],
  ])('%s: no', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(toAppError(error)?.status).not.toBe(503);
  });
});

import { ConnectionError, DatabaseError, TimeoutError } from 'sequelize';

/**
 * Whether an error means the database could not be reached or lost the connection (a restart, a failover,
 * a network cut, a full pool), rather than that a statement was wrong. Those are worth a 503 with
 * Retry-After: the pool drops broken connections and opens new ones by itself, so the same request a few
 * seconds later succeeds.
 */

// SQLSTATE: 08… connection exceptions; 57P01–57P03 the server shutting down or starting; 57014 a statement
// cancelled (statement_timeout); 53300 too many connections.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57014', '53300']);
// What node-postgres says when a connection dies under a query (it has no SQLSTATE for these).
const CONNECTION_LOST =
  /Connection terminated|connection (?:is )?(?:closed|ended|lost)|Query read timeout|timeout exceeded when trying to connect|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|Client has encountered a connection error|terminating connection/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  // Refused, unreachable, timed out, or no connection free in the pool in time.
  if (error instanceof ConnectionError) return true;
  // SQLite's busy timeout ran out: another process holds the write lock.
  if (error instanceof TimeoutError) return true;
  if (error instanceof DatabaseError) {
    const parent = error.parent as { code?: unknown; message?: unknown } | undefined;
    const code = typeof parent?.code === 'string' ? parent.code : '';
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return true;
    return CONNECTION_LOST.test(typeof parent?.message === 'string' ? parent.message : error.message);
  }
  return false;
}

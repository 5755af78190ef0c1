import type { Sequelize } from 'sequelize';

/**
 * Sequelize's SQLite dialect opens a new connection for every transaction and closes it at the end: a
 * file open, the busy timeout and foreign keys set (sqlite-connections.ts), and SQLite parsing the whole
 * schema again before the first statement. The transactions of this process take turns
 * (sqlite-write-turns.ts), so that work sat inside the one write turn, ahead of every other writer: under
 * 50 concurrent intent creations it was three of the eleven round trips of each order's write (bench:store,
 * issue #34 part 4). Here a connection whose transaction ended cleanly (COMMIT or ROLLBACK answered) is
 * kept open, outside any transaction, for the next one. One that Sequelize destroys instead (its COMMIT or
 * ROLLBACK failed, so it may still be inside a transaction and hold the write lock) is closed, as before.
 */

/** Connections kept for the next transaction; more are only ever open when turns are not taken. */
export const KEPT_TRANSACTION_CONNECTIONS = 2;

interface SqliteConnection {
  filename?: string;
  uuid?: string;
  close(callback?: (error: Error | null) => void): void;
}

interface SqliteConnectionManager {
  connections: Record<string, SqliteConnection>;
  getConnection(options?: { uuid?: string }): Promise<SqliteConnection>;
  releaseConnection(connection: SqliteConnection, force?: boolean): void;
  destroyConnection(connection: SqliteConnection): Promise<void>;
}

export function keepTransactionConnections(
  sequelize: Sequelize,
  keep: number = KEPT_TRANSACTION_CONNECTIONS,
): void {
  const manager = sequelize.connectionManager as unknown as SqliteConnectionManager;
  const getConnection = manager.getConnection.bind(manager);
  const releaseConnection = manager.releaseConnection.bind(manager);
  const destroyConnection = manager.destroyConnection.bind(manager);
  const idle: SqliteConnection[] = [];
  /** The key each kept connection has in the manager's table, where sequelize.close() finds and closes it. */
  const keys = new Map<SqliteConnection, string>();
  let opened = 0;

  const forget = (connection: SqliteConnection) => {
    const key = keys.get(connection);
    if (key !== undefined) delete manager.connections[key];
    keys.delete(connection);
  };

  manager.getConnection = async (options) => {
    const uuid = options?.uuid;
    if (uuid === undefined || uuid === 'default') return getConnection(options);
    const reused = idle.pop();
    if (reused !== undefined) return reused;
    const connection = await getConnection(options);
    if (connection.filename === ':memory:') return connection;
    // The manager filed it under this transaction's id; it outlives the transaction, so under a key of its own.
    if (manager.connections[uuid] === connection) delete manager.connections[uuid];
    const key = `kept-transaction-connection-${++opened}`;
    manager.connections[key] = connection;
    keys.set(connection, key);
    return connection;
  };

  manager.releaseConnection = (connection, force) => {
    if (!keys.has(connection)) {
      releaseConnection(connection, force);
      return;
    }
    if (idle.length < keep) {
      idle.push(connection);
      return;
    }
    forget(connection);
    connection.close();
  };

  manager.destroyConnection = async (connection) => {
    if (!keys.has(connection)) {
      await destroyConnection(connection);
      return;
    }
    forget(connection);
    await new Promise<void>((resolve) => connection.close(() => resolve()));
  };
}

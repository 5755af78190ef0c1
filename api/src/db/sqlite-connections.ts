import type { Sequelize } from 'sequelize';

/**
 * How long a write waits for another connection's (or process's) write lock before SQLITE_BUSY.
 * node-sqlite3 opens every connection with 1 s, shorter than one busy checkout holds the lock.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

interface SqliteConnection {
  configure(option: 'busyTimeout', value: number): void;
  run(sql: string, callback: (error: Error | null) => void): void;
  serialize(callback?: () => void): void;
}

interface SqliteConnectionManager {
  getConnection(options?: object): Promise<SqliteConnection>;
}

/**
 * What every connection is set to. SQLite keeps these per connection, not in the file: synchronous was
 * set on the first connection only, so each transaction's own connection synced every commit (FULL, the
 * default), which under uploads held the write lock for up to 1.2 s (bench:many, #34).
 */
const CONNECTION_PRAGMAS = [
  'PRAGMA foreign_keys=ON',
  // In WAL mode a commit then waits for no sync; a checkpoint syncs. The file stays sound after a power
  // loss, which may take back the last commits before it.
  'PRAGMA synchronous=NORMAL',
];

/**
 * Wraps Sequelize's SQLite `connectionManager.getConnection` so that each connection it opens (one by
 * default, one more per transaction) gets, before its first statement, the busy timeout above and the
 * pragmas above: foreign keys switched on (SQLite's default is off) and commits that do not sync. Sequelize
 * 6 offers no hook for this: its SQLite manager opens connections without running `afterConnect`, and the
 * `PRAGMA FOREIGN_KEYS=ON` it sends itself is not awaited, so a transaction's BEGIN could run first, and
 * the pragma is a no-op inside a transaction. `extraPragmas` follow (connection.ts: no automatic
 * checkpoints, sqlite-checkpoints.ts).
 */
export function prepareEachSqliteConnection(
  sequelize: Sequelize,
  busyTimeoutMs: number = SQLITE_BUSY_TIMEOUT_MS,
  extraPragmas: string[] = [],
): void {
  const manager = sequelize.connectionManager as unknown as SqliteConnectionManager;
  const getConnection = manager.getConnection.bind(manager);
  const prepared = new WeakSet<SqliteConnection>();
  manager.getConnection = async (options) => {
    const connection = await getConnection(options);
    if (!prepared.has(connection)) {
      prepared.add(connection);
      connection.configure('busyTimeout', busyTimeoutMs);
      withoutStatementStacks(connection);
      for (const pragma of [...CONNECTION_PRAGMAS, ...extraPragmas]) {
        await new Promise<void>((resolve, reject) =>
          connection.run(pragma, (error) => (error ? reject(error) : resolve())),
        );
      }
    }
    return connection;
  };
}

/**
 * Sequelize's SQLite dialect runs each statement inside `serialize(callback)`, whose callback first makes
 * an Error only for its stack and then formats that stack when the statement answers, error or not: 4-5 %
 * of the server's processor time when a thousand small files are uploaded (bench:many, #34). The stack
 * holds Sequelize's and node-sqlite3's own frames, never the caller's (the callback runs from the driver),
 * so it is made empty: the callback's first part runs synchronously inside serialize, and the limit is put
 * back as soon as serialize returns. An SQL error still carries its message, code and SQL.
 */
function withoutStatementStacks(connection: SqliteConnection): void {
  const serialize = connection.serialize.bind(connection);
  connection.serialize = (callback) => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      serialize(callback);
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
}

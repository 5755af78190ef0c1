import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createApp } from '../../src/app.js';
import { afterAnswerWork } from '../../src/http/after-answer.js';
import { loadConfig } from '../../src/config.js';
import type { Config, Env } from '../../src/config.js';
import { migrateUp, openDatabase } from '../../src/db/index.js';
import type { Database } from '../../src/db/index.js';
import { createLogger } from '../../src/logger.js';
import type { Logger } from '../../src/logger.js';
import { dropSchema, tempDir, testEnv } from './env.js';
import type { LogCapture, TestDialect } from './env.js';
import { copyMigratedTemplate } from './migrated-template.js';

export interface TestDatabase {
  config: Config;
  db: Database;
  logger: Logger;
  dataDir: string;
  /** Drops the throwaway schema (PostgreSQL), closes the database and deletes DATA_DIR. */
  cleanup(): Promise<void>;
}

export async function openTestDatabase(
  dialect: TestDialect,
  options: { env?: Env; migrate?: boolean; logs?: LogCapture } = {},
): Promise<TestDatabase> {
  const data = await tempDir();
  const config = loadConfig(testEnv(data.dir, dialect, options.env));
  const logger = options.logs ? createLogger({ LOG_LEVEL: 'debug' }, options.logs) : createLogger(config);
  if (options.migrate !== false) await copyMigratedTemplate(config);
  const db = await openDatabase(config, logger);
  if (options.migrate !== false) await migrateUp(db);
  let cleaned = false;
  return {
    config,
    db,
    logger,
    dataDir: data.dir,
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      await db.close();
      try {
        if (db.schema) await dropSchema(db.schema);
      } finally {
        await data.remove();
      }
    },
  };
}

export interface TestApp extends TestDatabase {
  app: Express;
  url: string;
  /** fetch against this app: `request('/api/health')`. */
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The real app on a real socket (app.listen(0)) against a real database in a fresh DATA_DIR.
 * `configure` may adjust the validated config the app sees (e.g. point DATA_DIR somewhere unwritable).
 */
export async function startTestApp(
  options: {
    dialect?: TestDialect;
    env?: Env;
    logs?: LogCapture;
    configure?: (config: Config) => Config;
  } = {},
): Promise<TestApp> {
  const base = await openTestDatabase(options.dialect ?? 'sqlite', { env: options.env, logs: options.logs });
  const config = options.configure ? options.configure(base.config) : base.config;
  const app = createApp({ config, db: base.db, logger: base.logger });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...base,
    config,
    app,
    url,
    request: (path, init) => fetch(`${url}${path}`, init),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await afterAnswerWork(app).settled();
      await base.cleanup();
    },
  };
}

/**
 * A second API process on the same database and storage as `base`: its own connection pool and its own
 * app (so nothing held in memory is shared), as another machine behind the load balancer would be.
 */
export async function startPeerApp(
  base: Pick<TestDatabase, 'config' | 'logger'>,
): Promise<{ url: string; db: Database; close(): Promise<void> }> {
  const db = await openDatabase(base.config, base.logger);
  const app = createApp({ config: base.config, db, logger: base.logger });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    db,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await afterAnswerWork(app).settled();
      await db.close();
    },
  };
}

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UniqueConstraintError } from 'sequelize';
import type { Express } from 'express';
import { createApp } from './app.js';
import { afterAnswerWork } from './http/after-answer.js';
import type { Config } from './config.js';
import { migrateUp, openDatabase } from './db/index.js';
import type { Database } from './db/index.js';
import { hasNoStores, seedDemo } from './db/seed-demo.js';
import { createLogger } from './logger.js';
import type { Logger } from './logger.js';
import { startMailWorker } from './modules/mail/index.js';
import type { MailWorker } from './modules/mail/index.js';
import { startImportWorker } from './modules/imports/index.js';
import type { ImportWorker } from './modules/imports/index.js';
import { startUploadCleanup } from './modules/uploads/index.js';
import { startStockSweep } from './modules/stock/index.js';
import type { StockSweep } from './modules/stock/index.js';
import { metricsOf, startMetricsServer } from './modules/metrics/index.js';
import type { MetricsServer } from './modules/metrics/index.js';
import type { UploadCleanup } from './modules/uploads/index.js';

export interface StartOptions {
  logger?: Logger;
  /** Overrides config.PORT; 0 lets the system choose a free port (tests). */
  port?: number;
}

export interface RunningServer {
  /** Where this process listens, e.g. http://127.0.0.1:3000. */
  url: string;
  port: number;
  server: Server;
  app: Express;
  db: Database;
  logger: Logger;
  /** Delivers the mail outbox; stopped by close() before the database closes. */
  mailWorker: MailWorker;
  /** Removes unfinished uploads older than UPLOAD_RETENTION_DAYS; stopped by close(). */
  uploadCleanup: UploadCleanup;
  /** Copies cloud imports; stopped by close(), its leases released for another process. */
  importWorker: ImportWorker;
  /** Releases expired stock holds (one process per sweep); stopped by close(). */
  stockSweep: StockSweep;
  /** GET /metrics on 127.0.0.1:METRICS_PORT, when that is set. */
  metricsServer?: MetricsServer;
  /** Stops accepting connections, lets requests in flight finish, then closes the database. */
  close(): Promise<void>;
}

// Longer than the 60 s idle timeout of common load balancers, so they never reuse a socket we just closed.
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
// Requests still running after this long at shutdown are cut off.
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The start-up sequence: open the database, migrate, seed the demo content into an empty database
 * (DESIGN 'Operating contract'), build the app and listen.
 */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config);
  const db = await openDatabase(config, logger);
  let server: Server | undefined;
  let mailWorker: MailWorker | undefined;
  let uploadCleanup: UploadCleanup | undefined;
  let importWorker: ImportWorker | undefined;
  let stockSweep: StockSweep | undefined;
  let metricsServer: MetricsServer | undefined;
  try {
    const applied = await migrateUp(db, logger);
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    await seedIfEmpty(db, config, logger);

    mailWorker = startMailWorker({
      config,
      db,
      logger,
      staleClaimMs: config.MAIL_CLAIM_LEASE_SECONDS * 1000,
    });
    uploadCleanup = startUploadCleanup({ config, db, logger });
    importWorker = startImportWorker({ config, db, logger });
    stockSweep = startStockSweep({ config, db, logger });
    const app = createApp({ config, db, logger, importWorker });
    server = createServer(app);
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    await listen(server, options.port ?? config.PORT, config.HOST);
    if (config.METRICS_PORT !== undefined) {
      metricsServer = await startMetricsServer(config, metricsOf(db), config.METRICS_PORT);
      logger.info({ url: metricsServer.url }, `metrics on ${metricsServer.url}`);
    }

    const port = (server.address() as AddressInfo).port;
    const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
    const url = `http://${host}:${port}`;
    logger.info({ url, publicUrl: config.PUBLIC_URL, db: db.dialect }, `listening on ${url}`);

    let closing: Promise<void> | undefined;
    const listening = server;
    const worker = mailWorker;
    const cleanup = uploadCleanup;
    const imports = importWorker;
    const sweep = stockSweep;
    const metrics = metricsServer;
    return {
      url,
      port,
      server: listening,
      app,
      db,
      logger,
      mailWorker: worker,
      uploadCleanup: cleanup,
      importWorker: imports,
      stockSweep: sweep,
      metricsServer: metrics,
      close: () =>
        (closing ??= shutdown(listening, app, db, [
          worker,
          cleanup,
          imports,
          sweep,
          ...(metrics ? [metrics] : []),
        ])),
    };
  } catch (error) {
    server?.close();
    await metricsServer?.stop().catch(() => undefined);
    await mailWorker?.stop().catch(() => undefined);
    await uploadCleanup?.stop().catch(() => undefined);
    await importWorker?.stop().catch(() => undefined);
    await stockSweep?.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
}

async function seedIfEmpty(db: Database, config: Config, logger: Logger): Promise<void> {
  if (!config.SEED_DEMO || !(await hasNoStores(db))) return;
  try {
    const result = await seedDemo(db, { timeZone: config.TZ_STORE });
    logger.info(result, 'empty database: demo content seeded');
  } catch (error) {
    // Another process starting at the same moment seeded first; its rows are the same demo content.
    if (error instanceof UniqueConstraintError) return;
    throw error;
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function shutdown(
  server: Server,
  app: Express,
  db: Database,
  /** Background jobs, stopped in order after the last request and before the database closes. */
  jobs: { stop(): Promise<void> }[],
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  force.unref();
  await closed;
  clearTimeout(force);
  // Work that handlers go on with after answering; bounded like the requests themselves.
  const settled = afterAnswerWork(app).settled();
  await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
  for (const job of jobs) await job.stop();
  await db.close();
}

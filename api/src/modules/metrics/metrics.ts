import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/index.js';

/**
 * The Prometheus metrics of one API process (issue 35 item 1), in a registry of its own rather than
 * prom-client's global one, so that several apps in one test process each count only their own traffic.
 *
 * Modules reach it through their database handle (`metricsOf(db)`): every module already holds one, an
 * app and the workers started beside it share it, and a second app (a peer in a test) opens its own. So
 * the hooks in uploads, imports, mail and the store are one line each, with no new dependency to pass.
 *
 * Every label takes values from a fixed set (route patterns from the code, statuses, providers, states),
 * never from a request's path, ids or names: the number of series stays bounded whatever clients send.
 */

const PREFIX = 'avp_';
// A scrape must not wait on a database in trouble: its gauges keep their last values instead.
const DB_GAUGE_TIMEOUT_MS = 2_000;
// Part PUTs of 6 MiB on a slow line take tens of seconds; page and API calls take milliseconds.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class ProcessMetrics {
  readonly registry = new Registry();
  private defaultsOn = false;

  readonly httpRequests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, Express route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time from a request arriving to its answer being sent, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  readonly uploadBytes = new Counter({
    name: `${PREFIX}upload_bytes_total`,
    help: 'Bytes of upload parts stored from clients (cloud imports are counted apart)',
    registers: [this.registry],
  });

  readonly uploadParts = new Counter({
    name: `${PREFIX}upload_parts_total`,
    help: 'Upload parts stored from clients',
    registers: [this.registry],
  });

  readonly uploadsActive = new Gauge({
    name: `${PREFIX}uploads_active`,
    help: 'Upload parts this process is receiving now',
    registers: [this.registry],
  });

  readonly claimConflicts = new Counter({
    name: `${PREFIX}upload_claim_conflicts_total`,
    help: 'Write claims refused because another write held them (a part sent twice at once, or a part during completion)',
    labelNames: ['claim'] as const,
    registers: [this.registry],
  });

  readonly importBytes = new Counter({
    name: `${PREFIX}import_bytes_total`,
    help: 'Bytes copied from cloud providers into upload storage by this process',
    registers: [this.registry],
  });

  readonly imports = new Gauge({
    name: `${PREFIX}imports`,
    help: 'Cloud imports in the database, by state and provider',
    labelNames: ['state', 'provider'] as const,
    registers: [this.registry],
    // Read from the database when scraped, as are the outbox's counts.
    collect: () => this.readImports(),
  });

  readonly importBytesDone = new Gauge({
    name: `${PREFIX}import_bytes`,
    help: 'Bytes copied so far of the cloud imports in the database, by state and provider',
    labelNames: ['state', 'provider'] as const,
    registers: [this.registry],
    collect: () => this.readImports(),
  });

  readonly mailOutbox = new Gauge({
    name: `${PREFIX}mail_outbox`,
    help: 'Messages in the mail outbox not yet sent, by status (queued, sending, failed)',
    labelNames: ['status'] as const,
    registers: [this.registry],
    collect: () => this.readOutbox(),
  });

  readonly mailSent = new Counter({
    name: `${PREFIX}mail_sent_total`,
    help: 'Messages handed to the mail transport by this process',
    registers: [this.registry],
  });

  readonly mailFailed = new Counter({
    name: `${PREFIX}mail_failed_total`,
    help: 'Failed mail delivery attempts; final="true" when the message was given up',
    labelNames: ['final'] as const,
    registers: [this.registry],
  });

  readonly storeCache = new Counter({
    name: `${PREFIX}store_cache_lookups_total`,
    help: 'Public store data requests answered from the cache (hit) or rebuilt from the database (miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly dbPool = new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: 'PostgreSQL connection pool: connections in use, idle, and requests waiting for one (none on SQLite)',
    labelNames: ['state'] as const,
    registers: [this.registry],
    collect: () => this.readPool(),
  });

  constructor(private readonly db: Database) {}

  /**
   * Adds Node's own metrics (memory, GC, event-loop delay, handles) to this registry. Only when metrics
   * are served: their event-loop monitor and GC observer run for as long as the process does.
   */
  withProcessDefaults(): this {
    if (!this.defaultsOn) {
      this.defaultsOn = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return this;
  }

  /** A write claim refused: another write holds the part, or a completion holds the file. */
  claimRefused(completion: boolean): void {
    this.claimConflicts.inc({ claim: completion ? 'completion' : 'part' });
  }

  /** A public store request answered from what the cache held (a hit) or after rebuilding it. */
  storeLookup(hit: boolean): void {
    this.storeCache.inc({ result: hit ? 'hit' : 'miss' });
  }

  /** Around the storing of one client part: active while it runs, its bytes counted once stored. */
  async receivingPart<T>(size: number, work: Promise<T>): Promise<T> {
    this.uploadsActive.inc();
    try {
      const result = await work;
      this.uploadParts.inc();
      this.uploadBytes.inc(size);
      return result;
    } finally {
      this.uploadsActive.dec();
    }
  }

  private readPool(): void {
    const counts = poolCounts(this.db);
    if (!counts) return;
    this.dbPool.set({ state: 'in_use' }, counts.using);
    this.dbPool.set({ state: 'idle' }, counts.available);
    this.dbPool.set({ state: 'waiting' }, counts.waiting);
  }

  private importsRead: Promise<void> | undefined;

  /** One query for both import gauges, which a scrape collects at the same time. */
  private readImports(): Promise<void> {
    this.importsRead ??= this.queryImports().finally(() => {
      this.importsRead = undefined;
    });
    return this.importsRead;
  }

  private async queryImports(): Promise<void> {
    const rows = await boundedQuery<{
      status: string;
      provider: string;
      n: number | string;
      bytes: number | string;
    }>(
      this.db,
      'SELECT status, provider, COUNT(*) AS n, COALESCE(SUM(bytes_done), 0) AS bytes FROM file_imports GROUP BY status, provider',
    );
    if (!rows) return;
    this.imports.reset();
    this.importBytesDone.reset();
    for (const row of rows) {
      const labels = { state: row.status, provider: row.provider };
      this.imports.set(labels, Number(row.n));
      this.importBytesDone.set(labels, Number(row.bytes));
    }
  }

  private async readOutbox(): Promise<void> {
    const rows = await boundedQuery<{ status: string; n: number | string }>(
      this.db,
      "SELECT status, COUNT(*) AS n FROM mail_outbox WHERE status <> 'sent' GROUP BY status",
    );
    if (!rows) return;
    for (const status of ['queued', 'sending', 'failed']) this.mailOutbox.set({ status }, 0);
    for (const row of rows) this.mailOutbox.set({ status: row.status }, Number(row.n));
  }
}

/** The rows, or undefined when the database did not answer in time (the gauges then keep their values). */
async function boundedQuery<T extends object>(db: Database, sql: string): Promise<T[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), DB_GAUGE_TIMEOUT_MS);
  });
  try {
    const query = db.sequelize.query<T>(sql, { type: QueryTypes.SELECT });
    query.catch(() => undefined);
    return await Promise.race([query, late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

interface PoolCounts {
  using: number;
  available: number;
  waiting: number;
}

/** Sequelize's PostgreSQL pool (sequelize-pool) counters; undefined for SQLite, which opens no pool. */
function poolCounts(db: Database): PoolCounts | undefined {
  // Sequelize builds a pool for SQLite too but never takes connections from it: its zeros would mislead.
  if (db.dialect !== 'postgres') return undefined;
  const manager = (db.sequelize as unknown as { connectionManager?: { pool?: Partial<PoolCounts> } })
    .connectionManager;
  const pool = manager?.pool;
  if (
    typeof pool?.using !== 'number' ||
    typeof pool.available !== 'number' ||
    typeof pool.waiting !== 'number'
  ) {
    return undefined;
  }
  return { using: pool.using, available: pool.available, waiting: pool.waiting };
}

const byDatabase = new WeakMap<Database, ProcessMetrics>();

/** The metrics of the process (app and workers) that uses this database handle. */
export function metricsOf(db: Database): ProcessMetrics {
  let metrics = byDatabase.get(db);
  if (!metrics) {
    metrics = new ProcessMetrics(db);
    byDatabase.set(db, metrics);
  }
  return metrics;
}

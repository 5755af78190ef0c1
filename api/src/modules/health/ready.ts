import { assertWritable } from '../../adapters/storage/local.js';
import { checkStorage } from '../../adapters/storage/index.js';
import type { UploadStorage } from '../../adapters/storage/index.js';
import { mailFilesDir, mailTransportKind } from '../../adapters/mail/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { pendingMigrations } from '../../db/index.js';
import type { Logger } from '../../logger.js';

/**
 * Readiness (issue 35 item 2): whether this process can serve real traffic now, for a load balancer or an
 * orchestrator to route to it, and for the soak to time recovery after a fault. Unlike /api/health it
 * looks at everything a request may need: the database answers, its migrations are those the code
 * expects, upload storage takes files (local: its folder is writable; S3: the bucket answers HeadBucket),
 * and mail has somewhere to go (SMTP configured, or the mail folder writable).
 */

export const READY_CHECKS = ['database', 'migrations', 'storage', 'mail'] as const;
export type ReadyCheck = (typeof READY_CHECKS)[number];

export interface ReadyReport {
  status: 'ready' | 'unavailable';
  checks: Record<ReadyCheck, 'ok' | 'failed'>;
  /** The checks that failed, in the order above (empty when ready). */
  failing: ReadyCheck[];
  /** Why each failed, for the log only (never sent: it may name hosts, paths and drivers' messages). */
  causes: Partial<Record<ReadyCheck, unknown>>;
}

export interface ReadyDeps {
  config: Config;
  db: Database;
  logger: Logger;
  storage?: UploadStorage;
}

// A probe that hangs is as bad as one that fails.
const CHECK_TIMEOUT_MS = 5_000;

function within<T>(work: Promise<T>, what: ReadyCheck): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} check timed out after ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function migrationsCurrent(db: Database): Promise<void> {
  const pending = await pendingMigrations(db);
  if (pending.length > 0) {
    throw new Error(
      `${pending.length} migration(s) not applied (${pending.join(', ')}): run npm run db:migrate`,
    );
  }
}

async function mailReady(config: Config): Promise<void> {
  // SMTP_URL was validated at start-up; whether the server answers is the outbox's business (it retries).
  if (mailTransportKind(config) === 'files') await assertWritable(mailFilesDir(config));
}

/** Runs every check; the caller logs the outcome (routes.ts: on the request's one line). */
export async function checkReady({ config, db, storage }: ReadyDeps): Promise<ReadyReport> {
  const probes: Record<ReadyCheck, () => Promise<unknown>> = {
    database: () => db.ping(),
    migrations: () => migrationsCurrent(db),
    storage: () => (storage?.check ? storage.check() : checkStorage(config)),
    mail: () => mailReady(config),
  };
  const causes: ReadyReport['causes'] = {};
  const results = await Promise.all(
    READY_CHECKS.map(async (check) => {
      try {
        await within(probes[check](), check);
        return [check, 'ok'] as const;
      } catch (error) {
        causes[check] = error;
        return [check, 'failed'] as const;
      }
    }),
  );
  const checks = Object.fromEntries(results) as ReadyReport['checks'];
  const failing = READY_CHECKS.filter((check) => checks[check] === 'failed');
  return { status: failing.length === 0 ? 'ready' : 'unavailable', checks, failing, causes };
}

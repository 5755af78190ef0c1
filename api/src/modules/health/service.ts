import { checkStorage, storageKind } from '../../adapters/storage/index.js';
import type { StorageKind } from '../../adapters/storage/index.js';
import { mailTransportKind } from '../../adapters/mail/index.js';
import type { MailTransportKind } from '../../adapters/mail/index.js';
import { paymentGatewayKind } from '../../adapters/payments/index.js';
import type { PaymentGatewayKind } from '../../adapters/payments/index.js';
import type { Config } from '../../config.js';
import type { Database, Dialect } from '../../db/index.js';
import type { Logger } from '../../logger.js';

export interface HealthReport {
  status: 'ok' | 'degraded';
  db: Dialect | 'error';
  storage: StorageKind | 'error';
  mail: MailTransportKind;
  payments: PaymentGatewayKind;
}

export interface HealthDeps {
  config: Config;
  db: Database;
  logger: Logger;
}

// A probe that hangs is as bad as one that fails; load balancers give up long before a pool timeout.
const CHECK_TIMEOUT_MS = 5_000;

async function passes(check: () => Promise<void>, what: string, logger: Logger): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} check timed out after ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([check(), timeout]);
    return true;
  } catch (error) {
    logger.error({ err: error, check: what }, `health check failed: ${what}`);
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Real checks: a database round trip and a write to the data folder; mail and payments report their mode. */
export async function checkHealth({ config, db, logger }: HealthDeps): Promise<HealthReport> {
  const [dbOk, storageOk] = await Promise.all([
    passes(() => db.ping(), 'database', logger),
    passes(() => checkStorage(config), 'storage', logger),
  ]);
  return {
    status: dbOk && storageOk ? 'ok' : 'degraded',
    db: dbOk ? db.dialect : 'error',
    storage: storageOk ? storageKind(config) : 'error',
    mail: mailTransportKind(config),
    payments: paymentGatewayKind(config),
  };
}

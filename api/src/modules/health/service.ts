import { storageKind } from '../../adapters/storage/index.js';
import type { StorageKind } from '../../adapters/storage/index.js';
import { mailTransportKind } from '../../adapters/mail/index.js';
import type { MailTransportKind } from '../../adapters/mail/index.js';
import { paymentGatewayKind } from '../../adapters/payments/index.js';
import type { PaymentGatewayKind } from '../../adapters/payments/index.js';
import type { Config } from '../../config.js';
import type { Database, Dialect } from '../../db/index.js';

export interface HealthReport {
  status: 'ok';
  db: Dialect;
  storage: StorageKind;
  mail: MailTransportKind;
  payments: PaymentGatewayKind;
}

/**
 * Liveness: this process answers, and what it is configured with. Deliberately touches neither the
 * database nor storage: a liveness probe that fails while PostgreSQL restarts would have an orchestrator
 * kill healthy processes in a loop. Whether the process can take traffic is /api/ready's question (ready.ts).
 */
export function checkHealth({ config, db }: { config: Config; db: Database }): HealthReport {
  return {
    status: 'ok',
    db: db.dialect,
    storage: storageKind(config),
    mail: mailTransportKind(config),
    payments: paymentGatewayKind(config),
  };
}

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { retryDelayMs } from '@avp/shared';
import type { RetryPolicy } from '@avp/shared';
import { Op } from 'sequelize';
import { createMailTransport } from '../../adapters/mail/transport.js';
import type { MailTransport, MailTransportConfig } from '../../adapters/mail/transport.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { MailOutboxInstance } from '../../db/models/index.js';
import type { Logger } from '../../logger.js';
import { metricsOf } from '../metrics/index.js';
import { onMailQueued } from './outbox.js';

export interface MailWorkerOptions {
  config: MailTransportConfig & Pick<Config, 'MAIL_FROM'>;
  db: Database;
  logger: Logger;
  /** How often the outbox is looked at when nothing wakes the worker (other processes' mail, retries). */
  pollMs?: number;
  /** Rows claimed at a time. */
  batchSize?: number;
  /** First retry delay; each further attempt doubles it, up to retryMaxMs (mailRetryPolicy). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** After this many attempts a message is marked failed and left alone. */
  maxAttempts?: number;
  /**
   * The claim's lease: a worker renews claimed_at of the rows in its hands every third of it, so a row
   * still 'sending' with a claim older than this belongs to a process that died mid-send and is queued
   * again (MAIL_CLAIM_LEASE_SECONDS). Short, so that a killed process's mail goes out within a minute; a
   * message the dead process had already handed to SMTP is then sent twice, which its X-Outbox-Id header
   * lets a receiver recognise: at least once beats lost.
   */
  staleClaimMs?: number;
  /** Names this worker in claimed_by; defaults to host, pid and a random suffix. */
  workerId?: string;
}

export interface MailWorker {
  readonly id: string;
  /** Claims and delivers every due message, batch after batch; resolves with the number handled. */
  runOnce(): Promise<number>;
  /** Asks for a run now (a message was just queued). */
  wake(): void;
  /** Stops polling, waits for the batch in hand to finish, closes the transport. */
  stop(): Promise<void>;
}

type Settings = Required<
  Pick<
    MailWorkerOptions,
    'pollMs' | 'batchSize' | 'retryBaseMs' | 'retryMaxMs' | 'maxAttempts' | 'staleClaimMs'
  >
>;

export const MAIL_WORKER_DEFAULTS: Readonly<Settings> = {
  pollMs: 5_000,
  batchSize: 10,
  retryBaseMs: 30_000,
  retryMaxMs: 3_600_000,
  maxAttempts: 10,
  staleClaimMs: 60_000,
};

/**
 * The worker's settings as shared's backoff policy, the upload client's: after the nth failed attempt a
 * message waits base × 2^(n−1), capped, times a random factor in [0.5, 1) so that processes do not retry
 * in step.
 */
export function mailRetryPolicy(
  settings: Pick<Settings, 'retryBaseMs' | 'retryMaxMs' | 'maxAttempts'>,
): RetryPolicy {
  return { retries: settings.maxAttempts - 1, baseMs: settings.retryBaseMs, maxMs: settings.retryMaxMs };
}

/** An SMTP 5xx answer (unknown mailbox, rejected content) will not change on retry. */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 2000);
}

/**
 * The outbox worker (DESIGN 'Data' and 'Running on more than one machine'). Every process runs one; a
 * message is delivered by whichever claims it first:
 * - PostgreSQL: due rows are selected `FOR UPDATE SKIP LOCKED` and marked 'sending' in one transaction,
 *   so concurrent workers take disjoint rows without waiting for each other;
 * - SQLite: each due row is claimed by `UPDATE … SET status='sending' WHERE id=? AND status='queued'`; the
 *   database serialises writers, so exactly one such UPDATE changes the row.
 * A failed attempt puts the row back in the queue with an exponential delay; after maxAttempts (or an SMTP
 * 5xx) it is marked 'failed' with the last error.
 */
export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const settings: Settings = { ...MAIL_WORKER_DEFAULTS, ...definedOnly(options) };
  const retryPolicy = mailRetryPolicy(settings);
  const { db, config } = options;
  const id = (options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`).slice(
    0,
    128,
  );
  const logger = options.logger.child({ component: 'mail', worker: id });
  const { MailOutbox } = db.models;
  let transport: MailTransport | undefined;

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;

  async function requeueStale(now: Date): Promise<void> {
    const [count] = await MailOutbox.update(
      { status: 'queued', claimedBy: null, claimedAt: null },
      {
        where: { status: 'sending', claimedAt: { [Op.lt]: new Date(now.getTime() - settings.staleClaimMs) } },
      },
    );
    if (count > 0) logger.warn({ count }, 'mail claims abandoned by a stopped process were queued again');
  }

  async function claim(now: Date): Promise<MailOutboxInstance[]> {
    const due = { status: 'queued' as const, nextAttemptAt: { [Op.lte]: now } };
    const order: [string, string][] = [
      ['nextAttemptAt', 'ASC'],
      ['id', 'ASC'],
    ];
    const marks = {
      status: 'sending' as const,
      claimedBy: id,
      claimedAt: now,
      attempts: db.sequelize.literal('attempts + 1'),
    };
    let ids: number[];
    if (db.dialect === 'postgres') {
      ids = await db.sequelize.transaction(async (transaction) => {
        const rows = await MailOutbox.findAll({
          attributes: ['id'],
          where: due,
          order,
          limit: settings.batchSize,
          lock: transaction.LOCK.UPDATE,
          skipLocked: true,
          transaction,
        });
        const found = rows.map((row) => row.id);
        if (found.length > 0) await MailOutbox.update(marks, { where: { id: found }, transaction });
        return found;
      });
    } else {
      const candidates = await MailOutbox.findAll({
        attributes: ['id'],
        where: due,
        order,
        limit: settings.batchSize,
      });
      ids = [];
      for (const candidate of candidates) {
        const [changed] = await MailOutbox.update(marks, { where: { id: candidate.id, status: 'queued' } });
        if (changed === 1) ids.push(candidate.id);
      }
    }
    if (ids.length === 0) return [];
    return MailOutbox.findAll({
      where: { id: ids, claimedBy: id, status: 'sending' },
      order: [['id', 'ASC']],
    });
  }

  /**
   * The row's outcome, written even when the database is briefly away (a restart, a cut connection): the
   * message was sent or refused already, and leaving the row 'sending' would send it again once its
   * claim went stale. Retried with backoff while the claim is ours; on stop, for a few seconds more.
   */
  async function settle(
    row: MailOutboxInstance,
    values: Parameters<typeof MailOutbox.update>[0],
  ): Promise<void> {
    const mine = { id: row.id, claimedBy: id, status: 'sending' as const };
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await MailOutbox.update(values, { where: mine });
        return;
      } catch (error) {
        const waited = Date.now() - started;
        if (waited > settings.staleClaimMs || (stopped && waited > 5_000)) throw error;
        const delay = Math.min(5_000, 250 * 2 ** (attempt - 1));
        logger.warn(
          { mailId: row.id, attempt, retryInMs: delay, err: error },
          "could not record a mail's outcome; trying again",
        );
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /** Keeps this worker's claims fresh while it holds them, so no other worker takes them as stale. */
  function holdClaims(): () => void {
    const every = Math.max(100, Math.floor(settings.staleClaimMs / 3));
    const renew = setInterval(() => {
      MailOutbox.update({ claimedAt: new Date() }, { where: { claimedBy: id, status: 'sending' } }).catch(
        (error: unknown) => logger.warn({ err: error }, 'could not renew mail claims'),
      );
    }, every);
    renew.unref();
    return () => clearInterval(renew);
  }

  async function deliver(row: MailOutboxInstance): Promise<void> {
    transport ??= createMailTransport(config);
    try {
      await transport.send({
        id: row.id,
        from: config.MAIL_FROM,
        to: row.toAddress,
        cc: row.cc,
        bcc: row.bcc,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        attachments: (row.attachments ?? []).map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.content, 'base64'),
        })),
      });
    } catch (error) {
      const lastError = describe(error);
      if (row.attempts >= settings.maxAttempts || isPermanent(error)) {
        await settle(row, { status: 'failed', claimedBy: null, claimedAt: null, lastError });
        metricsOf(db).mailFailed.inc({ final: 'true' });
        logger.error({ mailId: row.id, attempts: row.attempts, err: error }, 'mail delivery failed for good');
      } else {
        const delay = retryDelayMs(row.attempts, retryPolicy);
        const nextAttemptAt = new Date(Date.now() + delay);
        await settle(row, { status: 'queued', claimedBy: null, claimedAt: null, lastError, nextAttemptAt });
        metricsOf(db).mailFailed.inc({ final: 'false' });
        logger.warn(
          { mailId: row.id, attempts: row.attempts, retryInMs: delay, err: error },
          'mail delivery failed; will retry',
        );
      }
      return;
    }
    await settle(row, {
      status: 'sent',
      sentAt: new Date(),
      claimedBy: null,
      claimedAt: null,
      lastError: null,
    });
    metricsOf(db).mailSent.inc();
    logger.info({ mailId: row.id, attempts: row.attempts, transport: transport.kind }, 'mail sent');
  }

  async function drain(): Promise<number> {
    let handled = 0;
    await requeueStale(new Date());
    for (;;) {
      const rows = await claim(new Date());
      if (rows.length === 0) return handled;
      const release = holdClaims();
      try {
        for (const row of rows) {
          await deliver(row);
          handled++;
        }
      } finally {
        release();
      }
      if (stopped) return handled;
    }
  }

  /** When the next queued row falls due, if sooner than the next poll. */
  async function nextDueInMs(): Promise<number> {
    const next = await MailOutbox.min('nextAttemptAt', { where: { status: 'queued' } });
    if (next === null || next === undefined) return settings.pollMs;
    const at = next instanceof Date ? next.getTime() : new Date(next as string).getTime();
    return Math.max(0, Math.min(settings.pollMs, at - Date.now()));
  }

  function schedule(ms: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    // The HTTP server keeps a live process alive; the worker alone must not (tests, CLIs).
    timer.unref();
  }

  function tick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    timer = undefined;
    again = false;
    running = drain();
    running
      .catch((error: unknown) => {
        logger.error({ err: error }, 'mail worker run failed');
        return 0;
      })
      .then(async () => {
        running = undefined;
        if (stopped) return;
        if (again) return schedule(0);
        schedule(await nextDueInMs().catch(() => settings.pollMs));
      })
      .catch(() => schedule(settings.pollMs));
  }

  const unsubscribe = onMailQueued(db, () => tick());
  schedule(0);

  return {
    id,
    runOnce: async () => {
      while (running) await running.catch(() => 0);
      return drain();
    },
    wake: tick,
    async stop() {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      if (running) await running.catch(() => 0);
      transport?.close();
    },
  };
}

function definedOnly(options: MailWorkerOptions): Partial<Settings> {
  const out: Partial<Settings> = {};
  for (const key of Object.keys(MAIL_WORKER_DEFAULTS) as (keyof Settings)[]) {
    const value = options[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

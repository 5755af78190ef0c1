import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { missingParts, partRange, planUpload, SpeedMeter } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import {
  CloudAuthError,
  CloudRefusedError,
  CloudTransientError,
  createCloudSources,
} from '../../adapters/cloud/index.js';
import type { CloudFileRef, CloudSources } from '../../adapters/cloud/index.js';
import { createUploadStorage, isStorageFull, StorageUnavailableError } from '../../adapters/storage/index.js';
import type { UploadStorage } from '../../adapters/storage/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { asBulkWriter } from '../../db/sqlite-write-turns.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import type { SubmissionFileInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import {
  claimOrGone,
  COMPLETION,
  liveClaims,
  nowMs,
  probesSettled,
  receivedParts,
  RunningHashes,
  sendPendingNotice,
  touch,
  verifyAndComplete,
  writeClaimedPart,
} from '../uploads/index.js';
import type { UploadsDeps } from '../uploads/index.js';
import { IdleWatch } from './idle-watch.js';
import { metricsOf } from '../metrics/index.js';
import { WHEN_STORAGE_IS_READY } from './service.js';
import { TokenBox } from './token-box.js';

/**
 * The import worker: every API process runs one. It leases queued imports from the database (a row
 * claim that, on PostgreSQL, skips rows another process is claiming at the same moment, so two processes
 * never copy the same file), and copies each file from its provider part by part, PARTS_IN_FLIGHT at a
 * time, through the same path as browser parts: a write claim per part, the storage driver, the running
 * hash and a file_parts row. So whatever stops a copy (a dropped connection, a provider 5xx, an expired
 * token, a restart, a kill -9) costs at most the parts in flight: the next attempt starts from the first
 * part not recorded.
 *
 * The lease (IMPORT_LEASE_SECONDS) is held while the copy runs and renewed every quarter of it; a process
 * that died leaves a lease that runs out that long after its last renewal, and the import passes to the
 * next worker that looks. Three renewals can fail or come late (a database gap, a busy loop) before
 * another worker may take a copy that is still running.
 */
/**
 * Range requests in flight per import. Two hide one part's gap (its claim, the request's first byte, the
 * database writes after it) behind the other's bytes; more only put parts further ahead of the running
 * hash, which then holds their chunks in memory or reads them back from storage (bench:import: 4 in
 * flight grew the server by 120+ MB and cost more processor time than 2). Both bodies flow at once while
 * the running hash has room to hold the one ahead (see copyParts).
 */
const PARTS_IN_FLIGHT = 2;
/** How often the import row's progress (bytesDone, speed) is written while parts are stored. */
const PROGRESS_MS = 1_000;
/** Failures in a row, without a part stored between them, before an import is given up. */
export const MAX_ATTEMPTS = 8;
const MAX_BACKOFF_MS = 5 * 60_000;
/**
 * An import whose start never finished preparing its storage (the process was killed, or its write met a
 * database gap, between the rows and the S3 upload) is taken this long after it was added: the worker
 * prepares the storage itself. Longer than any start can take (S3's retries included), so a start still
 * under way is never raced.
 */
const ABANDONED_START_MS = 15 * 60_000;

export const IMPORT_GAVE_UP =
  'The cloud provider kept failing to send this file. Pick it again to retry, or contact us for help.';
/** Given up on our storage's failures (S3 errors, a join that kept failing, a full disk), not the provider's. */
export const IMPORT_STORAGE_GAVE_UP =
  "Our server's storage was unavailable, so this file could not be stored. Pick it again to retry, or try again later.";
/** Given up on our database's failures (a restart, a cut connection), not the provider's. */
export const IMPORT_DATABASE_GAVE_UP =
  "Our server's database was unavailable, so this file's copy could not be recorded. Pick it again to retry, or try again later.";
/** Shown while a file is copied again after our storage lost the parts it had (its multipart upload). */
export const IMPORT_COPYING_AGAIN =
  "Our server's storage lost the parts copied so far, so the file is being copied again from the start.";
/** How long a failure's outcome is tried again while the database is away (then the lease decides). */
const RECORD_FOR_MS = 5 * 60_000;
export const IMPORT_SIZE_MISMATCH =
  'The file received from the cloud provider does not have the size the provider reported. Pick it again to retry.';

export interface ImportWorkerOptions {
  config: Config;
  db: Database;
  logger: Logger;
  storage?: UploadStorage;
  sources?: CloudSources;
  /** How often an idle worker looks for queued imports. */
  pollMs?: number;
  /** The first retry's wait after a failure (doubled each time, up to five minutes); tests shorten it. */
  retryBaseMs?: number;
  /** The running hashes of the worker's copies (a budget of their own unless given). */
  hashes?: RunningHashes;
}

export interface ImportWorker {
  /** Looks for queued imports now (after an import is started in this process). */
  wake(): void;
  /** Stops taking imports and ends the copies in flight; their leases are released for another process. */
  stop(): Promise<void>;
  /** Resolves once no copy is in flight here: what a test waits on to see a copy end on its own. */
  idle(): Promise<void>;
}

/** The lease on one import, lost when another worker took it over or the file was removed. */
class ImportLease {
  readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    readonly fileId: string,
    readonly token: string,
    private readonly leaseMs: number,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  keepAlive(onLost: () => void): void {
    this.timer = setInterval(() => {
      this.renew()
        .then((held) => {
          if (!held) onLost();
        })
        .catch(() => undefined);
    }, this.leaseMs / 4);
    this.timer.unref();
  }

  /** Pushes the lease on; false when it is no longer ours. */
  async renew(): Promise<boolean> {
    const rows = await this.db.sequelize.query(
      `UPDATE file_imports SET lease_expires_at = ${nowMs(this.db)} + :lease
       WHERE file_id = :fileId AND lease_token = :token RETURNING file_id`,
      {
        replacements: { lease: this.leaseMs, fileId: this.fileId, token: this.token },
        type: QueryTypes.SELECT,
      },
    );
    return rows.length > 0;
  }

  /**
   * Ends the lease with the import's new state, if the lease is still ours. `delayMs` postpones the next
   * attempt (by the database's clock); null leaves the due time as it was.
   */
  async settle(
    fields: { status: string; error?: string | null; attempts?: number; accessToken?: null },
    delayMs: number | null = 0,
  ): Promise<void> {
    const sets = ['status = :status', 'lease_token = NULL', 'lease_expires_at = NULL', 'updated_at = :now'];
    // Null: the due time is left as it is (an import given back unstarted keeps its mark).
    if (delayMs !== null) sets.push(`next_attempt_at = ${nowMs(this.db)} + :delay`);
    if (fields.error !== undefined) sets.push('error = :error');
    if (fields.attempts !== undefined) sets.push('attempts = :attempts');
    if (fields.accessToken === null) sets.push('access_token = NULL');
    await this.db.sequelize.query(
      `UPDATE file_imports SET ${sets.join(', ')} WHERE file_id = :fileId AND lease_token = :token`,
      {
        replacements: {
          status: fields.status,
          error: fields.error ?? null,
          attempts: fields.attempts ?? 0,
          now: new Date(),
          delay: Math.round(delayMs ?? 0),
          fileId: this.fileId,
          token: this.token,
        },
      },
    );
    // Only once written: while the database is away the lease is still renewed, so no other worker
    // takes the import over before this one's outcome is recorded.
    clearInterval(this.timer);
  }

  stopRenewing(): void {
    clearInterval(this.timer);
  }
}

/** Claims the oldest import that is due, or null. */
async function leaseNext(db: Database, exclude: string[], leaseMs: number): Promise<ImportLease | null> {
  const token = randomUUID();
  const now = nowMs(db);
  const due = `status IN ('queued', 'running')
    AND (next_attempt_at <= ${now} OR (next_attempt_at = :never AND created_at < :abandoned))
    AND (lease_expires_at IS NULL OR lease_expires_at < ${now})`;
  const skip = exclude.length ? 'AND file_id NOT IN (:exclude)' : '';
  const lock = db.dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  const rows = await db.sequelize.query<{ file_id: string }>(
    `UPDATE file_imports SET status = 'running', lease_token = :token, lease_expires_at = ${now} + :lease,
       updated_at = :updated
     WHERE file_id = (SELECT file_id FROM file_imports WHERE ${due} ${skip}
       ORDER BY next_attempt_at, created_at LIMIT 1 ${lock})
     AND ${due}
     RETURNING file_id`,
    {
      replacements: {
        token,
        lease: leaseMs,
        updated: new Date(),
        exclude: exclude.length ? exclude : [''],
        never: WHEN_STORAGE_IS_READY,
        abandoned: new Date(Date.now() - ABANDONED_START_MS),
      },
      type: QueryTypes.SELECT,
    },
  );
  const row = rows[0];
  return row ? new ImportLease(db, String(row.file_id), token, leaseMs) : null;
}

/** 2 s, 4 s, 8 s … up to five minutes, with jitter so failing imports do not move in step. */
function backoffMs(attempts: number, baseMs = 1000): number {
  const base = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.min(attempts, 16));
  return base / 2 + Math.random() * (base / 2);
}

export function startImportWorker(options: ImportWorkerOptions): ImportWorker {
  const { config, db } = options;
  const logger = options.logger.child({ component: 'cloud-imports' });
  const storage = options.storage ?? createUploadStorage(config);
  const sources = options.sources ?? createCloudSources(config);
  const tokens = new TokenBox(config.SESSION_SECRET);
  const deps: UploadsDeps = { config, db, logger, storage, hashes: options.hashes ?? new RunningHashes() };
  const active = new Map<string, { lease: ImportLease; done: Promise<void> }>();
  let stopped = false;
  let filling: Promise<void> | undefined;

  async function fill(): Promise<void> {
    while (!stopped && active.size < config.IMPORT_CONCURRENCY) {
      const lease = await leaseNext(db, [...active.keys()], config.IMPORT_LEASE_SECONDS * 1000);
      if (!lease || stopped) {
        if (lease) await lease.settle({ status: 'queued' }, null);
        return;
      }
      const done = run(lease).finally(() => {
        active.delete(lease.fileId);
        wake();
      });
      active.set(lease.fileId, { lease, done });
    }
  }

  function wake(): void {
    if (stopped || filling) return;
    // Copies are upload bookkeeping: their SQLite writes (leases, parts) give way to sign-ins and orders.
    filling = asBulkWriter(fill)
      .catch((error: unknown) => logger.error({ err: error }, 'could not take a cloud import'))
      .finally(() => {
        filling = undefined;
      });
  }

  async function run(lease: ImportLease): Promise<void> {
    const log = logger.child({ fileId: lease.fileId });
    lease.keepAlive(() => lease.controller.abort(new LeaseLost()));
    try {
      await copy(lease, log);
    } catch (error) {
      await recordFailure(lease, error, log);
    } finally {
      lease.stopRenewing();
    }
  }

  async function copy(lease: ImportLease, log: Logger): Promise<void> {
    const { FileImport, SubmissionFile } = db.models;
    const row = await FileImport.findByPk(lease.fileId);
    const file = await SubmissionFile.findByPk(lease.fileId);
    if (!row || !file) return;
    if (file.status !== 'complete') {
      const unprepared = Number(row.nextAttemptAt) === WHEN_STORAGE_IS_READY;
      if (unprepared || (storage.kind === 's3' && Number(file.size) > 0 && !file.storageUploadId)) {
        // The process that added the file stopped (or its write was lost) before it prepared the storage
        // or recorded the S3 multipart upload: parts sent without one would overwrite each other as
        // plain objects.
        log.warn('cloud import has no storage upload; preparing one and copying from the start');
        await newUpload(lease, file);
      }
      const source = sources.get(row.provider);
      if (!source) throw new CloudRefusedError('Files from this cloud provider cannot be imported here.');
      const token = tokens.open(row.accessToken);
      const ref: CloudFileRef = { provider: row.provider, fileId: row.sourceFileId, link: row.sourceLink };
      await copyParts(lease, file, (range, signal) => source.read(ref, token, range, signal), log);
      await complete(lease, file);
    }
    // The staff notice sent below lists the file's media facts when the server reads them in time (#30).
    await probesSettled([file.id], config.MEDIA_PROBE_NOTICE_WAIT_SECONDS * 1000);
    await lease.settle({ status: 'complete', error: null, accessToken: null });
    await FileImport.update({ bytesDone: Number(file.size) }, { where: { fileId: file.id } });
    log.info({ size: Number(file.size), provider: row.provider }, 'cloud import complete');
    await sendPendingNotice(deps, file.submissionId);
  }

  async function copyParts(
    lease: ImportLease,
    file: SubmissionFileInstance,
    read: (range: { start: number; end: number }, signal: AbortSignal) => Promise<Readable>,
    log: Logger,
  ): Promise<void> {
    const plan = planUpload(Number(file.size));
    const have = await receivedParts(db, file.id);
    const queue = missingParts(plan, have);
    let done = have.reduce((sum, part) => sum + partRange(plan, part).size, 0);
    const meter = new SpeedMeter(() => performance.now());
    let busy = 0;
    let lastTouch = 0;
    let reported = { at: -Infinity, done };
    log.debug({ missing: queue.length, of: plan.partCount }, 'copying from the provider');

    /**
     * The import row's progress, at most every PROGRESS_MS (and when `force`d): bytesDone is what the
     * client shows, never what a resume relies on (file_parts rows are). The first stored part of an
     * attempt always reports, which also resets the failures in a row. The update is also the check that
     * the lease is still this worker's, besides the lease's own renewal.
     */
    const report = async (force: boolean): Promise<void> => {
      const now = performance.now();
      if (done === reported.done || (!force && now - reported.at < PROGRESS_MS)) return;
      reported = { at: now, done };
      // A copy started again after our storage lost its parts keeps its count and its note: a store that
      // keeps losing them must end in 'failed', not in copying the file forever.
      const updated = await db.sequelize.query(
        `UPDATE file_imports SET bytes_done = :done, bytes_per_second = :rate, updated_at = :now,
           attempts = CASE WHEN error = :again THEN attempts ELSE 0 END,
           error = CASE WHEN error = :again THEN error ELSE NULL END
         WHERE file_id = :fileId AND lease_token = :token RETURNING file_id`,
        {
          replacements: {
            done,
            rate: Math.round(meter.rate()),
            now: new Date(),
            again: IMPORT_COPYING_AGAIN,
            fileId: file.id,
            token: lease.token,
          },
          type: QueryTypes.SELECT,
        },
      );
      if (updated.length === 0) throw new LeaseLost();
    };

    /** Settled once the part taken last is stored or has failed: a body the hash cannot hold waits for it. */
    let turn: Promise<void> = Promise.resolve();

    /**
     * One part: its claim, its request and its body go ahead while the part before it is still arriving,
     * its chunks held by the running hash (by reference, within the process's budget) until that part is
     * in. One body at a time left the provider's link idle for each part's tail and the database writes
     * after it (bench:import 0.77-0.89 of the bare importer (d), which holds the part ahead the same way;
     * 0.99-1.10 with both flowing). When the hash has no room for the part, its body waits, unread (its
     * first bytes in the socket's buffers), for the part before to be stored: on S3 a part the hash could
     * not hold means reading the whole file back at completion. Each chunk's memory is given back once
     * written and hashed (writeClaimedPart's ownsChunks): each socket read is a new 64 KiB buffer outside
     * V8's heap, and left to the collector they started ~30 full collections of the server's heap per GiB.
     */
    const copyOne = async (partNumber: number, before: Promise<void>, pass: () => void): Promise<void> => {
      const range = partRange(plan, partNumber);
      const claim = await claimOrGone(db, file.id, partNumber).catch((error: unknown) => {
        pass();
        throw error;
      });
      if (!claim) {
        // A write that an earlier holder left behind: its claim runs out, and the next attempt takes it.
        busy++;
        pass();
        return;
      }
      const idle = new IdleWatch(lease.signal, config.IMPORT_IDLE_TIMEOUT_SECONDS * 1000);
      try {
        const answer =
          range.size === 0 ? null : await read({ start: range.start, end: range.end - 1 }, idle.signal);
        if (!deps.hashes.canHold(range.size)) await idle.waitFor(before);
        lease.signal.throwIfAborted();
        const body = answer ? idle.watch(answer) : Readable.from([]);
        // The answer's chunks are its HTTP parser's copies, this import's alone.
        await writeClaimedPart(deps, claim, body, range, true);
      } catch (error) {
        // A silent provider surfaces as an aborted request or a cut body: say what happened instead.
        throw idle.timedOut ?? error;
      } finally {
        pass();
        idle.done();
        await claim.release().catch(() => undefined);
      }
      done += range.size;
      metricsOf(db).importBytes.inc(range.size);
      meter.add(range.size);
      await report(false);
      if (Date.now() - lastTouch > 60_000) {
        lastTouch = Date.now();
        await touch(db, file.submissionId);
      }
    };

    const lanes = Array.from({ length: Math.min(PARTS_IN_FLIGHT, queue.length) }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        // Taken in part order (the queue's), so each part waits for the one taken just before it.
        const before = turn;
        let pass!: () => void;
        turn = new Promise<void>((resolve) => {
          pass = resolve;
        });
        if (lease.signal.aborted) pass();
        lease.signal.throwIfAborted();
        await copyOne(next, before, pass);
      }
    });
    const results = await Promise.allSettled(lanes);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    await report(true).catch((error: unknown) => {
      if (!failed) throw error;
    });
    if (failed) throw failed.reason;
    if (busy > 0) throw new WaitHere(`${busy} part(s) are held by an earlier write.`, 10_000);
  }

  async function complete(lease: ImportLease, file: SubmissionFileInstance): Promise<void> {
    const claim = await claimOrGone(db, file.id, COMPLETION);
    if (!claim) throw new WaitHere('The file is being completed elsewhere.', 10_000);
    claim.keepAlive();
    try {
      const writing = (await liveClaims(db, file.id)).filter((part) => part !== COMPLETION);
      if (writing.length > 0) throw new WaitHere('Parts are still being written.', 10_000);
      lease.signal.throwIfAborted();
      if ((await file.reload()).get('status') !== 'complete') {
        await verifyAndComplete(deps, file, claim, undefined);
      }
    } finally {
      await claim.release().catch(() => undefined);
    }
  }

  /**
   * A new S3 multipart upload for the file, its recorded parts dropped: the copy starts again from its
   * first byte. For an upload S3 no longer knows (its id lost, or never recorded), whose parts cannot be
   * joined whatever is tried.
   */
  async function newUpload(lease: ImportLease, file: SubmissionFileInstance): Promise<void> {
    if (!(await lease.renew())) throw new LeaseLost();
    deps.hashes.forget(file.id);
    await db.models.FilePart.destroy({ where: { fileId: file.id } });
    // Whatever an earlier attempt left at the key (a part written as a plain object) goes too.
    await storage.remove(file.storageKey, file.storageUploadId).catch(() => undefined);
    const uploadId = await storage.begin(file.storageKey, Number(file.size), file.type);
    await file.update({ storageUploadId: uploadId, sha256: null });
    await db.models.FileImport.update(
      { bytesDone: 0, nextAttemptAt: 0 },
      { where: { fileId: file.id, leaseToken: lease.token } },
    );
  }

  /**
   * The failure's outcome, written even when the database is briefly away (a restart, a cut connection):
   * left unwritten, the import would look 'running' until its lease ran out, and its attempt would not
   * count. Tried again with backoff while the lease is ours; on stop, for a few seconds more.
   */
  async function recordFailure(lease: ImportLease, error: unknown, log: Logger): Promise<void> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await settleFailure(lease, error, log);
        return;
      } catch (recordError) {
        const waited = Date.now() - started;
        if (recordError instanceof LeaseLost || waited > RECORD_FOR_MS || (stopped && waited > 5_000)) {
          log.error({ err: recordError, cause: error }, 'could not record a cloud import failure');
          return;
        }
        const delay = Math.min(5_000, 250 * 2 ** (attempt - 1));
        log.warn(
          { err: recordError, attempt, retryInMs: delay },
          'could not record a cloud import failure; trying again',
        );
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  async function settleFailure(lease: ImportLease, error: unknown, log: Logger): Promise<void> {
    const reason = lease.signal.reason as unknown;
    if (reason instanceof LeaseLost || error instanceof LeaseLost) {
      log.info('cloud import lease lost: another process has it, or the file was removed');
      return;
    }
    if (stopped && lease.signal.aborted) {
      await lease.settle({ status: 'queued' }, null);
      return;
    }
    if (error instanceof AppError && error.status === 404) return; // the file was removed meanwhile
    if (error instanceof CloudAuthError) {
      log.info({ reason: error.message }, 'cloud import waits for the client to sign in again');
      await lease.settle({ status: 'needs_auth', error: error.message });
      return;
    }
    if (error instanceof CloudRefusedError) {
      log.warn({ reason: error.message }, 'cloud import refused by the provider');
      await lease.settle({ status: 'failed', error: error.message });
      return;
    }
    if (error instanceof AppError && (error.code === 'size_mismatch' || error.code === 'checksum_mismatch')) {
      log.error({ code: error.code }, 'cloud import stored a file of the wrong size');
      await lease.settle({ status: 'failed', error: IMPORT_SIZE_MISMATCH });
      return;
    }
    const row = await db.models.FileImport.findByPk(lease.fileId, { attributes: ['attempts'] });
    if (!row) return;
    const attempts = row.attempts + 1;
    const cause = causeOf(error);
    if (attempts >= MAX_ATTEMPTS) {
      log.error({ err: error, attempts, cause }, `cloud import given up: ${CAUSES[cause]}`);
      await lease.settle({ status: 'failed', error: GAVE_UP[cause], attempts });
      return;
    }
    if (isLostUpload(error)) {
      const file = await db.models.SubmissionFile.findByPk(lease.fileId);
      if (!file) return;
      log.warn({ err: error, attempts }, 'cloud import storage upload lost: copying again from the start');
      await newUpload(lease, file);
      await lease.settle({ status: 'queued', attempts, error: IMPORT_COPYING_AGAIN });
      return;
    }
    const wait =
      (error instanceof CloudTransientError || error instanceof WaitHere) && error.retryAfterMs !== null
        ? Math.min(error.retryAfterMs, MAX_BACKOFF_MS)
        : backoffMs(attempts, options.retryBaseMs);
    log.warn(
      { err: error, attempts, cause, retryInMs: Math.round(wait) },
      'cloud import interrupted; it will resume',
    );
    await lease.settle({ status: 'queued', attempts }, wait);
  }

  const timer = setInterval(wake, options.pollMs ?? 1_000);
  timer.unref();
  wake();

  return {
    wake,
    async idle() {
      while (active.size > 0 || filling) {
        await Promise.allSettled([...active.values()].map((copy) => copy.done).concat(filling ?? []));
      }
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await filling;
      for (const { lease } of active.values()) lease.controller.abort(new Error('stopping'));
      await Promise.all([...active.values()].map((a) => a.done));
    },
  };
}

class LeaseLost extends Error {
  override name = 'LeaseLost';
  constructor() {
    super('The import lease passed to another worker, or the file was removed.');
  }
}

/** A wait on something of ours (a part or the completion held by another write), not on the provider. */
class WaitHere extends Error {
  override name = 'WaitHere';
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

type Cause = 'provider' | 'storage' | 'database';
const GAVE_UP: Record<Cause, string> = {
  provider: IMPORT_GAVE_UP,
  storage: IMPORT_STORAGE_GAVE_UP,
  database: IMPORT_DATABASE_GAVE_UP,
};
const CAUSES: Record<Cause, string> = {
  provider: 'the cloud provider kept failing',
  storage: 'our upload storage kept failing',
  database: 'our database kept failing',
};

/** Whose failure ended an attempt: the words the client sees, and what staff read in the log. */
function causeOf(error: unknown): Cause {
  if (isDatabaseUnavailable(error)) return 'database';
  if (error instanceof CloudTransientError) return 'provider';
  if (
    error instanceof StorageUnavailableError ||
    error instanceof WaitHere ||
    isStorageFull(error) ||
    isLostUpload(error) ||
    // A file system error of the local driver's (they name the path: ENOENT, EACCES, EIO…).
    typeof (error as { path?: unknown } | null)?.path === 'string' ||
    // Any other answer of S3's own (the SDK's errors carry $metadata).
    (typeof error === 'object' && error !== null && '$metadata' in error)
  ) {
    return 'storage';
  }
  return 'provider';
}

/**
 * S3 no longer knows the file's multipart upload: NoSuchUpload (S3), or the stand-in's NotImplemented
 * for a multipart call without an upload id. Joining or adding parts to it cannot succeed.
 */
function isLostUpload(error: unknown): boolean {
  const named = (e: unknown) => {
    const name = (e as { name?: unknown } | null)?.name;
    return name === 'NoSuchUpload' || name === 'NotImplemented';
  };
  return named(error) || (error instanceof StorageUnavailableError && named(error.cause));
}

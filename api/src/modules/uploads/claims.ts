import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/index.js';
import { metricsOf } from '../metrics/index.js';

/**
 * Write claims on uploads, in the `upload_claims` table (migration 0004), shared by every process on the
 * database: a part is stored only under a claim on (file, part), and a file is completed only under a
 * claim on (file, COMPLETION) while no part claim is live. So two writes of the same part never overlap
 * (the second is refused, not mixed in), and no part changes while its file is joined and hashed.
 *
 * A claim is a lease. Its expiry is set by the database's clock, so machines whose clocks disagree
 * still agree on it, and its holder pushes it on while it works. A part write renews it as bytes arrive
 * (at most every RENEW_MS): a client that went silent, or a process that died, leaves a claim that runs
 * out LEASE_MS later and passes to the next writer of that part. A holder stores no byte once it could
 * have lost its claim: past RENEW_MS since its last renewal it renews before going on, and a renewal that
 * finds another token means someone else took over (ClaimLost). The gap between the two, LEASE_MS −
 * RENEW_MS, is room for bytes already handed to storage to land; it assumes no process stalls that long.
 */

/** Part number of the claim a completion holds on the whole file. */
export const COMPLETION = 0;
export const LEASE_MS = 10_000;
export const RENEW_MS = 3_000;

/** The claim passed to another writer (or its file is gone): stop, and store nothing more. */
export class ClaimLost extends Error {
  constructor() {
    super('The write claim was lost');
    this.name = 'ClaimLost';
  }
}

/** Milliseconds since the epoch, by the database's clock. */
export function nowMs(db: Database): string {
  return db.dialect === 'postgres'
    ? '(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint'
    : "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";
}

export class WriteClaim {
  /** performance.now() after which the claim must be renewed before another byte is stored. */
  private renewAt: number;
  private isLost = false;
  /** The claim's row went with the statement that recorded its write (recordPart). */
  private rowGone = false;
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    readonly fileId: string,
    readonly partNumber: number,
    /** Names this write; recorded with the part it stores (file_parts.write_id). */
    readonly token: string,
    sentAt: number,
  ) {
    this.renewAt = sentAt + RENEW_MS;
  }

  /** Whether the claim was found taken over (or given up). */
  get lost(): boolean {
    return this.isLost;
  }

  /**
   * Call before storing each chunk: nothing while the claim is fresh, else a promise that renews it
   * (rejects with ClaimLost when it passed to someone else).
   */
  guard(): Promise<void> | undefined {
    if (this.isLost) return Promise.reject(new ClaimLost());
    if (performance.now() < this.renewAt) return undefined;
    return this.renew();
  }

  /** Renews the claim now; rejects with ClaimLost when it is no longer this write's. */
  renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    if (this.isLost) throw new ClaimLost();
    const sentAt = performance.now();
    const rows = await this.db.sequelize.query(
      `UPDATE upload_claims SET expires_at = ${nowMs(this.db)} + :lease
       WHERE file_id = :fileId AND part_number = :part AND token = :token RETURNING token`,
      {
        replacements: { lease: LEASE_MS, fileId: this.fileId, part: this.partNumber, token: this.token },
        type: QueryTypes.SELECT,
      },
    );
    if (rows.length === 0) {
      this.isLost = true;
      throw new ClaimLost();
    }
    this.renewAt = sentAt + RENEW_MS;
  }

  /** Renews on a timer, for work that holds the claim without a stream of bytes to pace it. */
  keepAlive(): void {
    this.timer ??= setInterval(() => {
      this.renew().catch(() => undefined);
    }, RENEW_MS);
    this.timer.unref();
  }

  /**
   * Records the part this write stored (a file_parts row naming the claim's token as its write id), only
   * while the claim is still this write's: else ClaimLost, and nothing is recorded, so a write that lost
   * its claim never records over the one that took it. On PostgreSQL the same statement deletes the
   * claim's row, which locks it against a takeover meanwhile and leaves release() nothing to do; on
   * SQLite, one writer at a time, the insert is atomic on its own and release() follows as before.
   */
  async recordPart(part: { size: number; etag: string | null }): Promise<void> {
    if (this.isLost) throw new ClaimLost();
    const held =
      this.db.dialect === 'postgres'
        ? 'DELETE FROM upload_claims WHERE file_id = :fileId AND part_number = :part AND token = :token RETURNING file_id'
        : 'SELECT file_id FROM upload_claims WHERE file_id = :fileId AND part_number = :part AND token = :token';
    const rows = await this.db.sequelize.query(
      `WITH held AS (${held})
       INSERT INTO file_parts (file_id, part_number, size, etag, write_id, created_at)
       SELECT file_id, :part, :size, :etag, :token, :createdAt FROM held
       RETURNING id`,
      {
        replacements: {
          fileId: this.fileId,
          part: this.partNumber,
          token: this.token,
          size: part.size,
          etag: part.etag,
          createdAt: new Date(),
        },
        type: QueryTypes.SELECT,
      },
    );
    if (rows.length === 0) {
      this.isLost = true;
      throw new ClaimLost();
    }
    this.rowGone = this.db.dialect === 'postgres';
  }

  /**
   * A PostgreSQL statement (for a WITH) that deletes the claim's row while it is still this write's,
   * returning its file_id: the statement it heads changes nothing once another write has taken the claim
   * over, the row stays locked against a takeover until that statement ends, and release() has nothing left
   * to do once it returned a row (ended()).
   */
  heldAndEnded(): string {
    const q = (value: string | number) => this.db.sequelize.escape(value);
    return `DELETE FROM upload_claims WHERE file_id = ${q(this.fileId)} AND part_number = ${q(
      this.partNumber,
    )} AND token = ${q(this.token)} RETURNING file_id`;
  }

  /** The claim's row went with a statement headed by heldAndEnded(). */
  ended(): void {
    this.rowGone = true;
  }

  /**
   * An SQL condition that holds while the claim is still this write's (its row, with its token), for a
   * statement that must change nothing once another write has taken the claim over.
   */
  heldCondition(): string {
    const q = (value: string | number) => this.db.sequelize.escape(value);
    return `EXISTS (SELECT 1 FROM upload_claims WHERE file_id = ${q(this.fileId)} AND part_number = ${q(
      this.partNumber,
    )} AND token = ${q(this.token)})`;
  }

  /**
   * Stops renewing and using the claim, leaving its row to the caller, who deletes it with others of the
   * same token in one statement (a bundle's claims); the token.
   */
  forget(): string {
    clearInterval(this.timer);
    this.isLost = true;
    return this.token;
  }

  /** Gives the claim up (if it is still this write's). */
  async release(): Promise<void> {
    clearInterval(this.timer);
    this.isLost = true;
    if (this.rowGone) return;
    await this.db.sequelize.query(
      'DELETE FROM upload_claims WHERE file_id = :fileId AND part_number = :part AND token = :token',
      { replacements: { fileId: this.fileId, part: this.partNumber, token: this.token } },
    );
  }
}

/**
 * Claims (file, part) for one write: the claim, or null while another write holds a live one. A claim
 * that ran out is taken over in the same statement, so of two writers only one can get it.
 */
export async function claimWrite(
  db: Database,
  fileId: string,
  partNumber: number,
): Promise<WriteClaim | null> {
  const token = randomUUID();
  const sentAt = performance.now();
  // The clock is read once, for the new expiry and the test of the old one (new expiry − lease = now).
  // (Starting with WITH also keeps Sequelize from taking this for a plain INSERT on SQLite and dropping
  // the RETURNING rows.)
  const rows = await db.sequelize.query(
    `WITH clock (ms) AS (SELECT ${nowMs(db)})
     INSERT INTO upload_claims (file_id, part_number, token, expires_at)
     VALUES (:fileId, :part, :token, (SELECT ms FROM clock) + :lease)
     ON CONFLICT (file_id, part_number) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
     WHERE upload_claims.expires_at < excluded.expires_at - :lease
     RETURNING token`,
    { replacements: { fileId, part: partNumber, token, lease: LEASE_MS }, type: QueryTypes.SELECT },
  );
  if (rows.length === 0) metricsOf(db).claimRefused(partNumber === COMPLETION);
  return rows.length === 0 ? null : new WriteClaim(db, fileId, partNumber, token, sentAt);
}

/** The part numbers (COMPLETION included) of a file's live claims, ascending. */
export async function liveClaims(db: Database, fileId: string): Promise<number[]> {
  const rows = await db.sequelize.query<{ part_number: number }>(
    `SELECT part_number FROM upload_claims WHERE file_id = :fileId AND expires_at >= ${nowMs(db)}
     ORDER BY part_number`,
    { replacements: { fileId }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => Number(row.part_number));
}

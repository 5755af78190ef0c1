import {
  checkMediaFacts,
  describeMediaFacts,
  mayBeKnownFormat,
  sameName,
  SNIFF_BYTES,
  Turns,
} from '@avp/shared';
import type { InboxFileMedia, MediaCheck, MediaFacts, MediaReadResult, ReadChunk } from '@avp/shared';
import { ForeignKeyConstraintError, QueryTypes, UniqueConstraintError } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { UploadStorage } from '../../adapters/storage/index.js';
import type { Config } from '../../config.js';
import { dateParam } from '../../db/bind.js';
import { GroupedStatements, groupedPer } from '../../db/grouped-statements.js';
import type { Database } from '../../db/index.js';
import type {
  MediaFactsAttributes,
  MediaFactsCreation,
  MediaFactsInstance,
  SubmissionFileInstance,
  SubmissionInstance,
} from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { turnsFor } from '../../process-turns.js';
import type { Logger } from '../../logger.js';
import { specForSubmission } from '../upload-events/index.js';
import { ProbeTimedOut, ProbeWorkerPool } from './media-probe-workers.js';
import { openStoredRanges } from './stored-ranges.js';
import type { StoredRanges } from './stored-ranges.js';

/**
 * The server's own reading of a completed file's media facts (issue #30): never the client's word. The bytes
 * are read where they are stored, only the ranges the reader asks for (stored-ranges.ts: local disk by
 * positional reads on one handle; S3 by one ranged GET per chunk, never the whole object). It runs in the
 * background after the answer, a few at a time per process, each bounded by MEDIA_PROBE_TIMEOUT_SECONDS; a
 * failure is logged and stored as unreadable, and never fails the upload. The result is a 'server'
 * media_facts row with its check against the event's spec; a client report that disagrees is logged as a
 * warning.
 */

export type ProbeDeps = {
  config: Pick<Config, 'MEDIA_PROBE_TIMEOUT_SECONDS' | 'MEDIA_PROBE_CONCURRENCY'>;
  db: Database;
  logger: Logger;
  storage: UploadStorage;
};

/** How the facts are read: media-core's reader (mediainfo.js), or a stand-in a test passes. */
export type FactsReader = (input: {
  size: number;
  readChunk: ReadChunk;
  timeoutMs?: number;
}) => Promise<MediaReadResult>;

// Started on the first probe: mediainfo.js's WebAssembly parses in worker threads (media-probe-workers.ts),
// never on the event loop that answers requests.
let pool: ProbeWorkerPool | undefined;
function workerReader(concurrency: number): FactsReader {
  pool ??= new ProbeWorkerPool({ max: concurrency });
  pool.max = Math.max(1, concurrency);
  const workers = pool;
  return ({ size, readChunk, timeoutMs }) =>
    workers.read({ size, readChunk, timeoutMs: timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS });
}
const DEFAULT_PROBE_TIMEOUT_MS = 30_000;
let readerOverride: FactsReader | undefined;
/** Tests only: read with this, in the main thread, instead of the worker pool (undefined restores it). */
export function useFactsReader(reader: FactsReader | undefined): void {
  readerOverride = reader;
}

/** A registration refused because the client's facts break a blocking spec: 422 with the issues. */
export class MediaBlockedError extends AppError {
  constructor(readonly check: MediaCheck) {
    super(422, 'media_mismatch', check.issues.join(' '));
    this.name = 'MediaBlockedError';
  }
}
export function mediaBlocked(check: MediaCheck): MediaBlockedError {
  return new MediaBlockedError(check);
}

function columnsOf(facts: MediaFacts | null) {
  return {
    readable: facts !== null,
    kind: facts?.kind ?? null,
    container: facts?.container ?? null,
    videoCodec: facts?.videoCodec ?? null,
    width: facts?.width ?? null,
    height: facts?.height ?? null,
    fps: facts?.fps ?? null,
    durationSeconds: facts?.durationSeconds ?? null,
    audioCodec: facts?.audio?.codec ?? null,
    audioChannels: facts?.audio?.channels ?? null,
    audioSampleRate: facts?.audio?.sampleRate ?? null,
    sizeBytes: facts?.sizeBytes ?? null,
  };
}

/** The 'client' row of a registration: what the uploader's reader reported, and the check it earned. */
export function clientFactsRow(
  fileId: string,
  facts: MediaFacts | null,
  check: MediaCheck,
): MediaFactsCreation {
  return { fileId, source: 'client', ...columnsOf(facts), verdict: check.verdict, issues: check.issues };
}

/** The columns of a stored reading that factsOfRow, issuesOfRow and a verdict need. */
const FACTS_ROW = [
  'fileId',
  'source',
  'readable',
  'kind',
  'container',
  'videoCodec',
  'width',
  'height',
  'fps',
  'durationSeconds',
  'audioCodec',
  'audioChannels',
  'audioSampleRate',
  'sizeBytes',
  'verdict',
  'issues',
] as const satisfies readonly (keyof MediaFactsAttributes)[];
type FactsRow = Pick<MediaFactsAttributes, (typeof FACTS_ROW)[number]>;

/**
 * A stored row back as MediaFacts (null when the reader could not read the file). A plain row's
 * `readable` may be SQLite's 0 or 1.
 */
export function factsOfRow(
  row: Omit<FactsRow, 'issues' | 'verdict' | 'fileId' | 'source'>,
): MediaFacts | null {
  if (!row.readable) return null;
  return {
    kind: row.kind ?? 'other',
    container: row.container,
    videoCodec: row.videoCodec,
    width: row.width,
    height: row.height,
    fps: row.fps === null ? null : Number(row.fps),
    durationSeconds: row.durationSeconds === null ? null : Number(row.durationSeconds),
    audio: row.audioCodec
      ? { codec: row.audioCodec, channels: row.audioChannels, sampleRate: row.audioSampleRate }
      : null,
    sizeBytes: Number(row.sizeBytes ?? 0),
  };
}

/** JSON columns come back parsed on PostgreSQL and sometimes as text on SQLite. */
export function issuesOfRow(row: { issues: unknown }): string[] {
  const value = typeof row.issues === 'string' ? (JSON.parse(row.issues) as unknown) : row.issues;
  return Array.isArray(value) ? value.map(String) : [];
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new ProbeTimedOut(ms)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether a client's report disagrees with the server's reading beyond rounding: size in pixels and
 * codec exactly, frame rate to 0.01, duration to half a second (containers and readers round it).
 */
export function factsDisagree(client: MediaFacts | null, server: MediaFacts | null): string[] {
  if (!client || !server) return [];
  const differ: string[] = [];
  const known = <T>(a: T | null, b: T | null) => a !== null && b !== null;
  if (known(client.width, server.width) && client.width !== server.width) differ.push('width');
  if (known(client.height, server.height) && client.height !== server.height) differ.push('height');
  if (known(client.videoCodec, server.videoCodec) && !sameName(client.videoCodec!, server.videoCodec!)) {
    differ.push('videoCodec');
  }
  if (known(client.fps, server.fps) && Math.abs(client.fps! - server.fps!) > 0.01) differ.push('fps');
  if (
    known(client.durationSeconds, server.durationSeconds) &&
    Math.abs(client.durationSeconds! - server.durationSeconds!) > 0.5
  ) {
    differ.push('durationSeconds');
  }
  return differ;
}

const NOTHING_READ: MediaReadResult = { facts: null, bytesRead: 0, raw: null };

/**
 * A stored file's facts, read where it is stored (only the ranges the reader asks for; its head not at all
 * when `handed`, as its write saw it), and the bytes read from storage. Never throws: a failure or a
 * timeout is logged and reads as nothing.
 */
async function readStored(
  deps: ProbeDeps,
  fileId: string,
  key: string,
  size: number,
  handed: Uint8Array | undefined,
): Promise<{ result: MediaReadResult; bytesRead: number }> {
  const timeoutMs = deps.config.MEDIA_PROBE_TIMEOUT_SECONDS * 1000;
  // Storage is opened only when something must be read from it.
  let ranges: StoredRanges | null = null;
  const stored = async () => (ranges ??= await openStoredRanges(deps.storage, key, size));
  let result = NOTHING_READ;
  let bytesRead: number;
  try {
    // The pool enforces the time itself, by terminating the worker; a test's reader gets the race.
    if (readerOverride) {
      const input = { size, readChunk: (await stored()).read, timeoutMs };
      result = await withTimeout(readerOverride(input), timeoutMs);
    } else {
      // A file whose first bytes can be nothing MediaInfoLib knows is unreadable without a worker (the
      // reader would sniff the same bytes and stop there: sniff.ts). Any other is read in one, its head
      // (the reader's own first read) served again from here rather than asked of storage twice.
      // A head handed over was sniffed by the caller already (probeFile).
      const head =
        handed ?? (await withTimeout((await stored()).read(0, Math.min(SNIFF_BYTES, size)), timeoutMs));
      if (handed !== undefined || mayBeKnownFormat(head)) {
        const from = await stored();
        const readChunk = (offset: number, length: number) =>
          offset === 0 && length <= head.length
            ? Promise.resolve(head.slice(0, length))
            : from.read(offset, length);
        result = await workerReader(deps.config.MEDIA_PROBE_CONCURRENCY)({ size, readChunk, timeoutMs });
      }
    }
  } catch (error) {
    deps.logger.warn(
      { err: error, fileId, timedOut: error instanceof ProbeTimedOut },
      'could not read the media facts of a stored file',
    );
  } finally {
    const opened = ranges as StoredRanges | null;
    bytesRead = opened?.bytesRead() ?? 0;
    await opened?.close().catch(() => undefined);
  }
  return { result, bytesRead };
}

/**
 * Reads one completed file's facts from storage and records them: idempotent (a file read once is not
 * read again). Never throws for the file's sake: an unreadable file, a reader failure or a timeout is
 * stored as unreadable and logged.
 */
export async function probeFile(
  deps: ProbeDeps,
  fileId: string,
  completed?: CompletedFile,
): Promise<MediaFactsInstance | null> {
  const { SubmissionFile, Submission, MediaFacts } = deps.db.models;
  // The completion that scheduled this hands over the rows it has just recorded the file complete with.
  const known = completed?.file.status === 'complete' ? completed : undefined;
  const file = known ? known.file : await SubmissionFile.findByPk(fileId);
  if (!file || file.status !== 'complete') return null;
  // Both rows at once: the server's (read already: done) and the client's report, compared below. A file
  // just completed here has no server row (another process reading it meanwhile is the unique key's
  // concern, below): its client row is looked up after the reading, and only when there is something to
  // compare it with (#34: av-upload's folder of a thousand stills no reader knows cost 320 statements).
  const rows = known ? [] : await factsRowsOf(deps.db).run(fileId);
  const done = rows.find((r) => r.source === 'server');
  if (done) return done;
  const size = Number(file.size);
  const started = Date.now();
  // The head the completion saw stored, when it hands it over (a file of one part, #34): bytes no reader
  // knows need no slot, no storage and no worker (sniff.ts), only the row.
  const headSize = Math.min(SNIFF_BYTES, size);
  const handed = known?.head?.length === headSize ? known.head : undefined;
  const { result, bytesRead } =
    !readerOverride && handed !== undefined && !mayBeKnownFormat(handed)
      ? { result: NOTHING_READ, bytesRead: 0 }
      : // A few readings at a time; the row is recorded after the slot is given back, with the rows of the
        // readings that ended meanwhile (insertServerFacts).
        await readingTurns(deps.config).run(() => readStored(deps, fileId, file.storageKey, size, handed));
  const submission = known?.submission ?? (await Submission.findByPk(file.submissionId));
  const spec = submission ? await specForSubmission(deps.db, submission) : null;
  const check = checkMediaFacts(spec, result.facts);
  let row: MediaFactsInstance;
  try {
    row = await insertServerFacts(deps.db, {
      fileId,
      source: 'server',
      ...columnsOf(result.facts),
      bytesRead,
      raw: result.raw ?? null,
      verdict: check.verdict,
      issues: check.issues,
    });
  } catch (error) {
    // Another process read it at the same time: its row stands.
    if (error instanceof UniqueConstraintError)
      return MediaFacts.findOne({ where: { fileId, source: 'server' } });
    // The file was removed while it was being read: there is nothing to record it for.
    if (error instanceof ForeignKeyConstraintError) return null;
    throw error;
  }
  deps.logger.info(
    { fileId, verdict: check.verdict, bytesRead, size, ms: Date.now() - started },
    'media facts read from storage',
  );
  if (check.verdict === 'warn' || check.verdict === 'block') {
    deps.logger.warn({ fileId, issues: check.issues }, 'stored file does not meet its event media spec');
  }
  // factsDisagree finds nothing when either side read nothing; a client row exists only when the
  // registration recorded the client's check.
  const compared = !known
    ? rows
    : result.facts !== null && file.checkVerdict !== null
      ? await factsRowsOf(deps.db).run(fileId)
      : [];
  const reported = compared.find((r) => r.source === 'client');
  if (reported) {
    const client = factsOfRow(reported);
    const differ = factsDisagree(client, result.facts);
    if (differ.length > 0) {
      deps.logger.warn(
        { fileId, differ, client, server: result.facts },
        "the client's reported media facts disagree with the server's reading",
      );
    }
  }
  return row;
}

type ServerFactsValues = Omit<MediaFactsAttributes, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * Stores facts rows with a plain INSERT, several in one statement, and hands them back as the model's
 * instances in the same order: the model's create (validation, picking changed fields, building the SQL)
 * cost more than the write, once for every file of a folder (#34). The unique key and the file's foreign
 * key still answer as Sequelize's errors.
 */
async function insertFactsRows(db: Database, rows: ServerFactsValues[]): Promise<MediaFactsInstance[]> {
  const now = new Date();
  const attributes = db.models.MediaFacts.getAttributes();
  const all = rows.map((values): Record<string, unknown> => ({ ...values, createdAt: now, updatedAt: now }));
  const names = Object.keys(all[0]!);
  const fields = names.map((name) => attributes[name as keyof MediaFactsAttributes].field ?? name);
  const replacements: Record<string, unknown> = {};
  const tuples = all.map((row, i) => {
    for (const name of names) {
      const value = row[name];
      const key = (attributes[name as keyof MediaFactsAttributes].type as { key?: string }).key;
      // Dates as text on SQLite (db/bind.ts): Sequelize formats a Date through moment for every use of it.
      replacements[`${name}${i}`] =
        key === 'JSON' && value !== null
          ? JSON.stringify(value)
          : value instanceof Date
            ? dateParam(db.dialect, value)
            : (value ?? null);
    }
    return `(${names.map((name) => `:${name}${i}`).join(', ')})`;
  });
  // WITH first, so that Sequelize's SQLite dialect keeps the RETURNING rows of an INSERT.
  const inserted = await db.sequelize.query<{ id: number; file_id: string }>(
    `WITH facts (x) AS (SELECT 1) INSERT INTO media_facts (${fields.join(', ')})
     VALUES ${tuples.join(', ')} RETURNING id, file_id`,
    { replacements, type: QueryTypes.SELECT },
  );
  // RETURNING promises no order: matched by file (one server row per file, the unique key).
  const ids = new Map(inserted.map((r) => [r.file_id, Number(r.id)]));
  return all.map((row) =>
    db.models.MediaFacts.build({ ...row, id: ids.get(row.fileId as string)! } as MediaFactsAttributes, {
      isNewRecord: false,
      raw: true,
    }),
  );
}

/**
 * A server facts row, written with the others asked for meanwhile (db/grouped-statements.ts): a folder's
 * files complete together, and their rows take one statement rather than one each (#34).
 */
const serverFactsWrites = groupedPer(
  (db: Database) =>
    new GroupedStatements<ServerFactsValues, MediaFactsInstance>({
      many: (rows) =>
        // Two rows of one file are refused by the unique key anyway: alone, each gets its own answer.
        new Set(rows.map((r) => r.fileId)).size === rows.length
          ? insertFactsRows(db, rows)
          : Promise.reject(new Error('one file twice')),
      one: async (row) => (await insertFactsRows(db, [row]))[0]!,
    }),
);

/**
 * A file's facts rows, looked up with those of the files whose readings begin meanwhile (a bundle's files,
 * each with the client's report its registration recorded): one statement for a group.
 */
const factsRowsOf = groupedPer(
  (db: Database) =>
    new GroupedStatements<string, MediaFactsInstance[]>({
      many: async (fileIds) => {
        const rows = await db.models.MediaFacts.findAll({ where: { fileId: fileIds } });
        return fileIds.map((id) => rows.filter((r) => r.fileId === id));
      },
      one: (fileId) => db.models.MediaFacts.findAll({ where: { fileId } }),
    }),
);

function insertServerFacts(db: Database, values: ServerFactsValues): Promise<MediaFactsInstance> {
  return serverFactsWrites(db).run(values);
}

/** A few readings at a time per process (MEDIA_PROBE_CONCURRENCY); the rest wait their turn. */
function readingTurns(config: Pick<Config, 'MEDIA_PROBE_CONCURRENCY'>): Turns {
  return turnsFor(
    config,
    config.MEDIA_PROBE_CONCURRENCY,
    'media-probes',
    (n) => new Turns(n, 'Media probes'),
  )!;
}
/**
 * This process's probes still running or waiting, by file id (the staff notice and the poster may wait for
 * them), each with the row it stored (null: none, the file gone or the probe failed).
 */
const running = new Map<string, Promise<MediaFactsInstance | null>>();

/** Something that keeps shutdown waiting for background work (http/after-answer.ts). */
export interface BackgroundTracker {
  run<T>(work: () => Promise<T>): Promise<T>;
}

/** A file a completion has just recorded complete, with its submission when the completion had it. */
export interface CompletedFile {
  file: SubmissionFileInstance;
  submission?: Pick<SubmissionInstance, 'id' | 'uploadEventId' | 'formType'>;
  /** The file's first min(SNIFF_BYTES, size) bytes as stored, when the completion saw them pass. */
  head?: Uint8Array;
}

/**
 * Reads a completed file's facts in the background (call it after the answer is sent). Failures are
 * logged, never thrown to the caller. With a tracker, shutdown waits for the reading.
 */
export function scheduleProbe(
  deps: ProbeDeps,
  fileId: string,
  tracker?: BackgroundTracker,
  completed?: CompletedFile,
): Promise<void> {
  const existing = running.get(fileId);
  if (existing) return existing.then(() => undefined);
  const work = () =>
    probeFile(deps, fileId, completed).catch((error: unknown) => {
      deps.logger.error({ err: error, fileId }, 'media facts probe failed');
      return null;
    });
  const promise = tracker ? tracker.run(work) : work();
  running.set(fileId, promise);
  void promise.finally(() => running.delete(fileId));
  return promise.then(() => undefined);
}

/**
 * The server's facts row of a file this process is reading now, once read (null when the reading stored
 * none); undefined when no reading of it is under way here, so the caller looks in the database itself.
 */
export function probeInProgress(fileId: string): Promise<MediaFactsInstance | null> | undefined {
  return running.get(fileId);
}

/**
 * Waits (at most `ms`) for this process's readings of these files, so a staff notice lists the server's
 * issues when they come in time; one still running after that leaves the notice with the client's check.
 */
export async function probesSettled(fileIds: string[], ms: number): Promise<void> {
  const pending = fileIds.map((id) => running.get(id)).filter((p) => p !== undefined);
  if (pending.length === 0 || ms <= 0) return;
  await withTimeout(Promise.allSettled(pending), ms).catch(() => undefined);
}

/**
 * What staff see of each file's media (the inbox, the notice mail): the server's reading and check once
 * made, else the client's report with the check recorded at registration; nothing while neither exists.
 */
export async function mediaOfFiles(
  db: Database,
  files: Pick<SubmissionFileInstance, 'id' | 'checkVerdict' | 'checkIssues'>[],
  transaction?: Transaction,
): Promise<Map<string, InboxFileMedia>> {
  const out = new Map<string, InboxFileMedia>();
  const ids = files.map((f) => f.id).filter((id) => typeof id === 'string');
  if (ids.length === 0) return out;
  // By file and source at once (#34), and the uploader's rows only of files the server has not read: a
  // submission of a thousand files read by both would otherwise build two thousand rows, half unused.
  // Plain rows of the columns read here: MediaInfoLib's own JSON (`raw`) is never parsed, and no model
  // instance is built (a thousand of them cost about 60 ms).
  const bySource = {
    server: new Map<string, FactsRow>(),
    client: new Map<string, FactsRow>(),
  };
  const rowsOf = async (source: 'server' | 'client', fileIds: string[]): Promise<FactsRow[]> =>
    fileIds.length === 0
      ? []
      : ((await db.models.MediaFacts.findAll({
          attributes: [...FACTS_ROW],
          where: { fileId: fileIds, source },
          raw: true,
          transaction: transaction ?? null,
        })) as unknown as FactsRow[]);
  for (const row of await rowsOf('server', ids)) bySource.server.set(row.fileId, row);
  const unread = ids.filter((id) => !bySource.server.has(id));
  for (const row of await rowsOf('client', unread)) bySource.client.set(row.fileId, row);
  for (const file of files) {
    const server = bySource.server.get(file.id);
    const client = bySource.client.get(file.id);
    const row = server ?? client;
    if (!row) continue;
    const facts = factsOfRow(row);
    const issues = server ? issuesOfRow(server) : issuesOfRow({ issues: file.checkIssues ?? [] });
    const verdict = server ? server.verdict : (file.checkVerdict ?? row.verdict);
    out.set(file.id, {
      facts,
      factsText: describeMediaFacts(facts),
      factsSource: server ? 'server' : 'client',
      check: { verdict, issues },
    });
  }
  return out;
}

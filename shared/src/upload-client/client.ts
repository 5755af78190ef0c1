/**
 * The upload client (DESIGN 'Uploads'): registers files with the server, sends their parts (several at a
 * time, each retried with backoff), reports progress, pauses, resumes and completes them. It runs in the
 * browser and in Node: it is handed its HTTP transport and its file reader, and touches neither the DOM
 * nor node:*.
 */
import { UPLOAD_CHUNK_FAILED } from '../messages.js';
import { missingParts, partRange, planUpload } from '../upload-plan.js';
import type { UploadPlan } from '../upload-plan.js';
import { snapshot, SpeedMeter } from './progress.js';
import type { ProgressSnapshot } from './progress.js';
import { createSha256 } from './sha256.js';
import type { Hasher } from './sha256.js';
import { UPLOADS_API, UPLOADS_BUNDLE_PATH } from './protocol.js';
import type {
  BatchRegistrationItem,
  BundleEntry,
  BundleItem,
  CreateSubmission,
  PartAnswer,
  SubmissionInfo,
  UploadFileInfo,
} from './protocol.js';
import { DEFAULT_RETRY, isRetryableAnswer, retryDelayMs } from './retry.js';
import type { RetryPolicy } from './retry.js';
import type { MediaFacts } from '../media/types.js';
import { bundleAt, BundlesUnderWay } from './bundles.js';

/** What both fetch's AbortSignal and got's accept. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path on the API's origin, e.g. '/api/uploads/files/…/parts/3'. */
  path: string;
  /** A JSON body (sent as application/json). */
  json?: unknown;
  /** Raw bytes (sent as application/octet-stream with their Content-Length). */
  body?: Uint8Array;
  signal?: AbortSignalLike;
  /**
   * Set by the client on part PUTs. A transport that can tell calls it once as the request starts (with
   * 0) and then as bytes of `body` go out (the total sent so far); from the first call on, the client
   * aborts the attempt when `partStallTimeoutMs` pass without another (a stalled socket), and tries the
   * part again. A transport that never calls it keeps its own timeouts (got's socket timeout, say).
   */
  onProgress?: (sentBytes: number) => void;
}

export interface TransportResponse {
  status: number;
  /** The parsed JSON body, or undefined when there was none. */
  body: unknown;
}

/**
 * Sends one request. Resolves with any HTTP answer (4xx and 5xx included); rejects only when no answer
 * came (network error, abort). A fetch transport is a few lines (web/src/features/uploads/transport.ts),
 * a got one as well (`throwHttpErrors: false`, `responseType: 'json'`).
 */
export type UploadTransport = (request: TransportRequest) => Promise<TransportResponse>;

/** A file to send: a browser File or a file on disk, read a range at a time. */
export interface UploadSource {
  name: string;
  size: number;
  type: string;
  /** Modification time in ms since the epoch; with name and size it identifies the file for resuming. */
  lastModified: number | null;
  /**
   * The file's media facts as read on this side (null: read, but not readable), sent with its registration
   * so the server can check them against the event's spec before a byte is sent; absent: not read.
   */
  facts?: MediaFacts | null;
  /** Bytes [start, end). */
  read(start: number, end: number): Promise<Uint8Array>;
  /**
   * Called with bytes `read` gave once the client is done with them (sent, or given up on), so a source
   * can reuse the memory for the next read instead of leaving it to the garbage collector.
   */
  release?(bytes: Uint8Array): void;
}

/** A failed call. status 0: no answer (network). code 'part_failed' carries SPEC §8's chunk-failure text. */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

class Aborted extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortError';
  }
}

/** An attempt the client gave up on itself: no answer in time, or a part that stopped moving. */
class Unanswered extends Error {
  constructor(
    readonly code: 'timeout' | 'stalled',
    message: string,
  ) {
    super(message);
  }
}

interface AbortControllerLike {
  readonly signal: AbortSignalLike;
  abort(): void;
}
type Timers = {
  AbortController: new () => AbortControllerLike;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};
const timers = globalThis as unknown as Timers;

/** Waits ms, or rejects as soon as the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignalLike): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Aborted());
      return;
    }
    const onAbort = () => {
      timers.clearTimeout(handle);
      reject(new Aborted());
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort);
  });
}

export interface UploadClientOptions {
  transport: UploadTransport;
  /** Defaults to '/api/uploads'. */
  basePath?: string;
  /**
   * Parts in flight, per file and across the client's files together (several small files share them);
   * 4 by default; setPartConcurrency changes it while files are sent.
   */
  partConcurrency?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * The checksum sent on completion; defaults to the built-in SHA-256; null sends none. Called once per
   * round of a file with its source (a hasher may read the source itself, as the browser's worker does);
   * it is fed every part of the file in order, from the first.
   */
  createHasher?: ((source: UploadSource) => Hasher) | null;
  /** For tests: randomness of the jitter, the clock, and the wait between retries. */
  random?: () => number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignalLike) => Promise<void>;
  /**
   * Hears of every retry of every call (creating the submission, registering a file, parts, completion,
   * sending the submission, the others), in addition to the per-call listeners: one place for an app to
   * say 'Server unreachable: retrying in 8 s (attempt 3)'.
   */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * Asked before each retry the policy allows: false ends the call at once with its failure, as if the
   * retries had run out (an app with a connection monitor of its own takes unanswered calls over there,
   * say, so that a bounded run holds to its bound). Every retry is made when absent.
   */
  shouldRetry?: (notice: RetryNotice) => boolean;
  /**
   * ms an attempt of a JSON call may take before it is given up as unanswered (and retried); default
   * DEFAULT_REQUEST_TIMEOUT_MS, 0 for none. Completion has its own, longer one.
   */
  requestTimeoutMs?: number;
  /**
   * ms an attempt of the completion call may take: the server may read the whole stored file again to
   * check its sha-256; default DEFAULT_COMPLETE_TIMEOUT_MS, 0 for none.
   */
  completeTimeoutMs?: number;
  /**
   * ms a part may go without progress (TransportRequest.onProgress) before its attempt is aborted and the
   * part sent again from its start; default DEFAULT_PART_STALL_TIMEOUT_MS, 0 for none.
   */
  partStallTimeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Files up to this size are registered ahead, many in one call (prepare); larger ones on their own. */
export const PREPARE_MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Bytes of files registered ahead and not yet started: the quota they hold before a byte is sent. */
export const PREPARE_AHEAD_BYTES = 1024 * 1024 * 1024;
/**
 * Files of the first call while none waits registered: a call of 500 kept a folder's first byte waiting
 * for the server to make all 500 files (400 ms to a second, bench:many, #34); these few are answered at once.
 */
export const PREPARE_FIRST_FILES = 32;
/**
 * Files of each later call, one call at a time. On SQLite a call holds the one writer while it makes its
 * files, and the first files' parts waited behind two calls of 500 (about 250 ms each, bench:many, #34);
 * calls of this many let the parts in between them, and still keep ahead of sending (a call of 1 MB files
 * covers about a third of a second of it, and takes about 50 ms).
 */
export const PREPARE_BATCH_FILES = 100;
export const DEFAULT_COMPLETE_TIMEOUT_MS = 300_000;
export const DEFAULT_PART_STALL_TIMEOUT_MS = 30_000;

/** Which call is being retried: 'register' is creating the submission, registering a file or asking
 * for its parts before resuming it; 'submit' is sending the finished submission. */
export type RetryWhat = 'register' | 'part' | 'complete' | 'submit' | 'other';

/**
 * Why: no answer came ('unreachable': refused, reset, timed out, stalled), the server failed (5xx, 408),
 * or it asked to come back shortly (429, or a 409 that only means another request holds the same part).
 */
export type RetryReason = 'unreachable' | 'server-error' | 'busy';

/** A call that failed and will be tried again: shown so that a person waiting knows it is not stuck. */
export interface RetryNotice {
  /** The attempt about to be made, the first one counted (2 for the first retry). */
  attempt: number;
  /** All the attempts the retry policy allows, the first one included. */
  attempts: number;
  /** When that attempt starts, on the client's clock (`now()`). */
  nextAt: number;
  /** Why the last attempt failed. */
  error: UploadError;
  what: RetryWhat;
  reason: RetryReason;
  /** The HTTP status of the last answer; absent when none came. */
  status?: number;
  /** The server's own message in that answer, when it gave one. */
  message?: string;
}

/** How one call is made: see UploadClient.call. */
export interface CallOptions {
  /** The error to throw once the retries run out, instead of the last one. */
  failure?: { code: string; message: string };
  onRetry?: (notice: RetryNotice) => void;
  /** Named in retry notices; 'other' by default. */
  what?: RetryWhat;
  /** ms for one attempt; the client's requestTimeoutMs by default; 0 for none. */
  timeoutMs?: number;
  /** ms without progress before an attempt is aborted, once the transport reports progress; 0 for none. */
  stallMs?: number;
  /** Retries after the first attempt; the client's policy's by default. */
  retries?: number;
}

function reasonOf(error: UploadError): RetryReason {
  if (error.status === 0) return 'unreachable';
  if (error.status === 429 || error.status === 409) return 'busy';
  return 'server-error';
}

/** The server's own message, not the text made up for an answer without one. */
function serverMessage(body: unknown): string | undefined {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' ? message : undefined;
}

const seconds = (ms: number) => `${ms / 1000} s`;

function errorFrom(status: number, body: unknown): UploadError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return new UploadError(
    status,
    typeof error?.code === 'string' ? error.code : 'http_error',
    typeof error?.message === 'string' ? error.message : `The server answered ${status}.`,
  );
}

/**
 * What to do with a file the server knows: nothing when complete, else send the parts it lacks. The plan
 * is the server's (it is authoritative), checked against the shared rule so both sides cut alike.
 */
export type ResumeDecision =
  { action: 'done' } | { action: 'send'; plan: UploadPlan; received: number[]; missing: number[] };

export function resumeDecision(info: UploadFileInfo): ResumeDecision {
  if (info.status === 'complete') return { action: 'done' };
  const plan = planUpload(info.size);
  if (plan.partSize !== info.partSize || plan.partCount !== info.partCount) {
    throw new UploadError(0, 'plan_mismatch', 'The server cut this file into parts differently.');
  }
  const received = [...new Set(info.receivedParts ?? [])]
    .filter((n) => Number.isInteger(n) && n >= 1 && n <= plan.partCount)
    .sort((a, b) => a - b);
  return { action: 'send', plan, received, missing: missingParts(plan, received) };
}

/** Bytes of the given parts under a plan. */
export function bytesOfParts(plan: UploadPlan, parts: Iterable<number>): number {
  let total = 0;
  for (const part of parts) total += partRange(plan, part).size;
  return total;
}

export class UploadClient {
  readonly basePath: string;
  private parts: number;
  readonly retry: RetryPolicy;
  readonly createHasher: ((source: UploadSource) => Hasher) | null;
  readonly now: () => number;
  private readonly transport: UploadTransport;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignalLike) => Promise<void>;
  private readonly onRetry: ((notice: RetryNotice) => void) | undefined;
  private readonly shouldRetry: ((notice: RetryNotice) => boolean) | undefined;
  readonly requestTimeoutMs: number;
  readonly completeTimeoutMs: number;
  readonly partStallTimeoutMs: number;
  /** Parts in flight across this client's files, and the parts waiting for one of them to end. */
  private partsInFlight = 0;
  private readonly partWaiters: (() => void)[] = [];
  private readonly idleWaiters: (() => void)[] = [];
  /** Set once the server answers that it has no batch registration (an older server). */
  private batchUnsupported = false;
  /** Submissions prepare() has registered files of: their next calls are of PREPARE_BATCH_FILES. */
  private readonly prepared = new Set<string>();
  /** Submissions with a call of prepare() on its way. */
  private readonly preparing = new Set<string>();
  /** Set once the server answers that it takes no bundles (an older server). */
  private bundlesUnsupported = false;

  constructor(options: UploadClientOptions) {
    this.transport = options.transport;
    this.basePath = (options.basePath ?? UPLOADS_API).replace(/\/+$/, '');
    this.parts = Math.max(1, Math.round(options.partConcurrency ?? 4));
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.createHasher = options.createHasher === undefined ? createSha256 : options.createHasher;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? (() => Date.now());
    this.sleep = options.sleep ?? abortableSleep;
    this.onRetry = options.onRetry;
    this.shouldRetry = options.shouldRetry;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.completeTimeoutMs = options.completeTimeoutMs ?? DEFAULT_COMPLETE_TIMEOUT_MS;
    this.partStallTimeoutMs = options.partStallTimeoutMs ?? DEFAULT_PART_STALL_TIMEOUT_MS;
  }

  /** Parts in flight per file. */
  get partConcurrency(): number {
    return this.parts;
  }

  /** Takes effect at once: uploads under way start no new part until fewer than `n` are in flight. */
  setPartConcurrency(n: number): void {
    this.parts = Math.max(1, Math.round(n));
    this.wakePartWaiters();
  }

  /** Whether a part could start now: fewer than partConcurrency in flight across the client's files. */
  get partSlotFree(): boolean {
    return this.partsInFlight < this.parts && this.partWaiters.length === 0;
  }

  /** Waits for room for one more part across the client's files (given back with releasePartSlot). */
  async takePartSlot(signal?: AbortSignalLike): Promise<void> {
    while (this.partsInFlight >= this.parts) {
      if (signal?.aborted) throw new Aborted();
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        this.partWaiters.push(wake);
        signal?.addEventListener('abort', wake);
      });
    }
    if (signal?.aborted) throw new Aborted();
    this.partsInFlight++;
  }

  releasePartSlot(): void {
    this.partsInFlight = Math.max(0, this.partsInFlight - 1);
    this.wakePartWaiters();
    if (this.partsInFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Resolves once no part of this client's files is in flight (at once when none is), or on abort. */
  partsSettled(signal?: AbortSignalLike): Promise<void> {
    if (this.partsInFlight === 0 || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.idleWaiters.push(done);
      signal?.addEventListener('abort', done);
    });
  }

  private wakePartWaiters(): void {
    // All wake and look again: the first to find room takes it, the others wait anew (in their order).
    const waiters = this.partWaiters.splice(0);
    for (const wake of waiters) wake();
  }

  /**
   * One call with retries on network errors, timeouts and retryable statuses. Resolves with the JSON of a
   * 2xx answer; rejects with UploadError (its status and code from the server's error body). The second
   * argument is either the CallOptions or, as before them, the error to throw once the retries run out;
   * `onRetry` (or options.onRetry) hears of each wait before another attempt, as does the client-wide one.
   */
  async call<T>(
    request: TransportRequest,
    failureOrOptions?: { code: string; message: string } | CallOptions,
    onRetry?: (notice: RetryNotice) => void,
  ): Promise<T> {
    const options: CallOptions =
      failureOrOptions === undefined
        ? {}
        : 'code' in failureOrOptions
          ? { failure: failureOrOptions }
          : failureOrOptions;
    const listener = onRetry ?? options.onRetry;
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    let last: UploadError | undefined;
    for (let attempt = 0; ; attempt++) {
      if (request.signal?.aborted) throw new Aborted();
      let message: string | undefined;
      try {
        const res = await this.attempt(request, timeoutMs, options.stallMs ?? 0);
        if (res.status >= 200 && res.status < 300) return res.body as T;
        last = errorFrom(res.status, res.body);
        message = serverMessage(res.body);
        if (!isRetryableAnswer(res.status, last.code)) throw last;
      } catch (error) {
        if (error instanceof UploadError) throw error;
        if (request.signal?.aborted) throw new Aborted();
        last =
          error instanceof Unanswered
            ? new UploadError(0, error.code, error.message)
            : new UploadError(0, 'network', error instanceof Error ? error.message : String(error));
      }
      if (attempt >= (options.retries ?? this.retry.retries)) break;
      const delay = retryDelayMs(attempt + 1, this.retry, this.random);
      const notice: RetryNotice = {
        attempt: attempt + 2,
        attempts: this.retry.retries + 1,
        nextAt: this.now() + delay,
        error: last,
        what: options.what ?? 'other',
        reason: reasonOf(last),
        ...(last.status === 0 ? {} : { status: last.status }),
        ...(message === undefined ? {} : { message }),
      };
      if (this.shouldRetry?.(notice) === false) break;
      listener?.(notice);
      this.onRetry?.(notice);
      await this.sleep(delay, request.signal);
    }
    throw options.failure
      ? new UploadError(last.status, options.failure.code, options.failure.message)
      : last;
  }

  /**
   * One attempt, given up (Unanswered) after timeoutMs, or after stallMs without progress once the
   * transport reports progress. The transport's promise is raced, not awaited: one that ignores its
   * signal cannot hold the call.
   */
  private attempt(request: TransportRequest, timeoutMs: number, stallMs: number): Promise<TransportResponse> {
    if (timeoutMs <= 0 && stallMs <= 0) return this.transport(request);
    const controller = new timers.AbortController();
    const outer = request.signal;
    const onAbort = () => controller.abort();
    outer?.addEventListener('abort', onAbort);
    let deadline: unknown;
    let stall: unknown;
    let settled = false;
    return new Promise<TransportResponse>((resolve, reject) => {
      const giveUp = (reason: Unanswered) => {
        settled = true;
        controller.abort();
        reject(reason);
      };
      if (timeoutMs > 0) {
        deadline = timers.setTimeout(
          () => giveUp(new Unanswered('timeout', `No answer from the server within ${seconds(timeoutMs)}.`)),
          timeoutMs,
        );
      }
      const onProgress = () => {
        if (settled) return;
        timers.clearTimeout(stall);
        stall = timers.setTimeout(
          () => giveUp(new Unanswered('stalled', `Nothing got through for ${seconds(stallMs)}.`)),
          stallMs,
        );
      };
      const sent: TransportRequest = { ...request, signal: controller.signal };
      if (stallMs > 0) sent.onProgress = onProgress;
      this.transport(sent).then(
        (res) => {
          settled = true;
          resolve(res);
        },
        (error: unknown) => {
          settled = true;
          reject(error);
        },
      );
    }).finally(() => {
      settled = true;
      timers.clearTimeout(deadline);
      timers.clearTimeout(stall);
      outer?.removeEventListener('abort', onAbort);
    });
  }

  createSubmission(
    fields: CreateSubmission,
    onRetry?: (notice: RetryNotice) => void,
  ): Promise<SubmissionInfo> {
    return this.call<{ submission: SubmissionInfo }>(
      { method: 'POST', path: `${this.basePath}/submissions`, json: fields },
      { what: 'register', onRetry },
    ).then((b) => b.submission);
  }

  getSubmission(id: string): Promise<SubmissionInfo> {
    return this.call<{ submission: SubmissionInfo }>({
      method: 'GET',
      path: `${this.basePath}/submissions/${encodeURIComponent(id)}`,
    }).then((b) => b.submission);
  }

  /** Registers a file; the same name, size and last-modified in the same open submission resumes it. */
  registerFile(
    submissionId: string,
    source: UploadSource,
    signal?: AbortSignalLike,
    onRetry?: (notice: RetryNotice) => void,
  ): Promise<UploadFileInfo> {
    return this.call<{ file: UploadFileInfo }>(
      {
        method: 'POST',
        path: `${this.basePath}/submissions/${encodeURIComponent(submissionId)}/files`,
        json: {
          name: source.name,
          size: source.size,
          type: source.type,
          lastModified: source.lastModified,
          ...(source.facts === undefined ? {} : { facts: source.facts }),
        },
        signal,
      },
      { what: 'register', onRetry },
    ).then((b) => b.file);
  }

  /**
   * Registers many files of one submission in one call (issue #34): an answer per source, in order, each
   * its file or the error the one-file registration would give. Null when the server has no such call (an
   * older server): register the files one at a time then.
   */
  async registerFiles(
    submissionId: string,
    sources: UploadSource[],
    signal?: AbortSignalLike,
    onRetry?: (notice: RetryNotice) => void,
  ): Promise<BatchRegistrationItem[] | null> {
    if (this.batchUnsupported) return null;
    try {
      const body = await this.call<{ files: BatchRegistrationItem[] }>(
        {
          method: 'POST',
          path: `${this.basePath}/submissions/${encodeURIComponent(submissionId)}/files/batch`,
          json: {
            files: sources.map((source) => ({
              name: source.name,
              size: source.size,
              type: source.type,
              lastModified: source.lastModified,
              ...(source.facts === undefined ? {} : { facts: source.facts }),
            })),
          },
          signal,
        },
        { what: 'register', onRetry },
      );
      return Array.isArray(body?.files) && body.files.length === sources.length ? body.files : null;
    } catch (error) {
      if (
        error instanceof UploadError &&
        (error.status === 404 || error.status === 405) &&
        error.code !== 'submission_not_found'
      ) {
        this.batchUnsupported = true;
        return null;
      }
      throw error;
    }
  }

  /**
   * Registers ahead, in calls of many files, the uploads of `waiting` (in the order they will start) not
   * yet registered: each then starts without a registration of its own. Files larger than
   * PREPARE_MAX_FILE_BYTES gain nothing from it and register when they start; and no more than
   * PREPARE_AHEAD_BYTES wait registered, so files chosen far ahead do not hold the quota of unfinished
   * uploads. Cheap to call often (an UploadQueue calls it as it starts files). A submission's first call
   * is of PREPARE_FIRST_FILES files: its answer lets the first files start while the next calls register
   * the many behind them, PREPARE_BATCH_FILES to a call and one call at a time per submission.
   */
  prepare(waiting: readonly FileUpload[]): void {
    if (this.batchUnsupported) return;
    let ahead = 0;
    const bySubmission = new Map<string, FileUpload[]>();
    for (const upload of waiting) {
      if (upload.state !== 'waiting' || upload.source.size > PREPARE_MAX_FILE_BYTES) continue;
      if (upload.registeredAhead) {
        ahead += upload.source.size;
        continue;
      }
      if (upload.fileId !== null) continue;
      // One call at a time per submission, so that parts get the server's turn between calls.
      if (this.preparing.has(upload.submissionId)) continue;
      // Topped up once half has been used, so the calls stay full.
      if (ahead >= PREPARE_AHEAD_BYTES / 2 && bySubmission.size === 0) return;
      if (ahead + upload.source.size > PREPARE_AHEAD_BYTES) break;
      ahead += upload.source.size;
      const group = bySubmission.get(upload.submissionId) ?? [];
      const most = this.prepared.has(upload.submissionId) ? PREPARE_BATCH_FILES : PREPARE_FIRST_FILES;
      if (group.length >= most) break;
      group.push(upload);
      bySubmission.set(upload.submissionId, group);
    }
    for (const [submissionId, uploads] of bySubmission) {
      this.prepared.add(submissionId);
      // Each file waiting on the call hears of its retries, as of its own registration's.
      const onRetry = (notice: RetryNotice) => uploads.forEach((u) => u.heardRetryAhead(notice));
      this.preparing.add(submissionId);
      const answers = this.registerFiles(
        submissionId,
        uploads.map((u) => u.source),
        undefined,
        onRetry,
      )
        .catch(() => null)
        .finally(() => this.preparing.delete(submissionId));
      uploads.forEach((upload, i) => upload.registerAhead(answers.then((items) => items?.[i] ?? null)));
    }
  }

  /** The file with the part numbers the server holds. */
  fileStatus(
    fileId: string,
    signal?: AbortSignalLike,
    onRetry?: (notice: RetryNotice) => void,
  ): Promise<UploadFileInfo> {
    return this.call<{ file: UploadFileInfo }>(
      { method: 'GET', path: `${this.basePath}/files/${encodeURIComponent(fileId)}`, signal },
      { what: 'register', onRetry },
    ).then((b) => b.file);
  }

  /**
   * Sends one part. With the file's sha-256 (given with the part that makes the file whole), the server
   * completes the file in the same request and answers it as `file`; without `file` in the answer (an
   * older server, or parts still missing) the file is completed with completeFile.
   */
  putPart(
    fileId: string,
    partNumber: number,
    bytes: Uint8Array,
    signal?: AbortSignalLike,
    onRetry?: (notice: RetryNotice) => void,
    sha256?: string,
  ): Promise<PartAnswer | undefined> {
    const query = sha256 === undefined ? '' : `?sha256=${encodeURIComponent(sha256)}`;
    return this.call<PartAnswer | undefined>(
      {
        method: 'PUT',
        path: `${this.basePath}/files/${encodeURIComponent(fileId)}/parts/${partNumber}${query}`,
        body: bytes,
        signal,
      },
      {
        failure: { code: 'part_failed', message: UPLOAD_CHUNK_FAILED },
        what: 'part',
        onRetry,
        // A part may take long on a slow link; what counts is that its bytes keep moving.
        timeoutMs: 0,
        stallMs: this.partStallTimeoutMs,
      },
    );
  }

  completeFile(
    fileId: string,
    sha256: string | undefined,
    signal?: AbortSignalLike,
    onRetry?: (notice: RetryNotice) => void,
  ): Promise<UploadFileInfo> {
    return this.call<{ file: UploadFileInfo }>(
      {
        method: 'POST',
        path: `${this.basePath}/files/${encodeURIComponent(fileId)}/complete`,
        json: sha256 === undefined ? {} : { sha256 },
        signal,
      },
      { what: 'complete', onRetry, timeoutMs: this.completeTimeoutMs },
    ).then((b) => b.file);
  }

  async removeFile(fileId: string): Promise<void> {
    await this.call({ method: 'DELETE', path: `${this.basePath}/files/${encodeURIComponent(fileId)}` });
  }

  /**
   * Sends the submission with exactly these files (all complete); other files registered in it, such as
   * one removed while its registration was under way, are dropped by the server.
   */
  submit(
    submissionId: string,
    fileIds: string[],
    onRetry?: (notice: RetryNotice) => void,
  ): Promise<SubmissionInfo> {
    return this.call<{ submission: SubmissionInfo }>(
      {
        method: 'POST',
        path: `${this.basePath}/submissions/${encodeURIComponent(submissionId)}/submit`,
        json: { files: fileIds },
      },
      { what: 'submit', onRetry },
    ).then((b) => b.submission);
  }

  /**
   * Whether small files may go several to a request (bundles.ts): the server takes bundles, as far as
   * this client knows, and the client hashes files (a bundle's files are completed with their sha-256).
   */
  get bundling(): boolean {
    return !this.bundlesUnsupported && !this.batchUnsupported && this.createHasher !== null;
  }

  /**
   * Sends whole files of one part each, their bytes one after another in `body`, in one request: the
   * server stores and completes each as their part PUT with ?sha256= would (an answer per file, in order).
   * Tried once: a file it does not complete goes on alone, where the usual retries apply. Null when the
   * server has no bundles (an older server): files go alone from then on.
   */
  async putBundle(entries: BundleEntry[], body: Uint8Array): Promise<BundleItem[] | null> {
    if (this.bundlesUnsupported) return null;
    const files = entries.map((e) => `${e.fileId}:${e.size}:${e.sha256}`).join(',');
    try {
      const answer = await this.call<{ files: BundleItem[] }>(
        {
          method: 'POST',
          path: `${this.basePath}${UPLOADS_BUNDLE_PATH}?files=${encodeURIComponent(files)}`,
          body,
        },
        { what: 'part', retries: 0, timeoutMs: 0, stallMs: this.partStallTimeoutMs },
      );
      return Array.isArray(answer?.files) ? answer.files : null;
    } catch (error) {
      if (error instanceof UploadError && (error.status === 404 || error.status === 405)) {
        this.bundlesUnsupported = true;
        return null;
      }
      throw error;
    }
  }

  /** A file upload, not yet started: call start() (or hand it to an UploadQueue). */
  file(submissionId: string, source: UploadSource): FileUpload {
    return new FileUpload(this, submissionId, source);
  }

  queue(submissionId: string, options: UploadQueueOptions = {}): UploadQueue {
    return new UploadQueue(this, submissionId, options);
  }
}

export type FileUploadState = 'waiting' | 'uploading' | 'paused' | 'complete' | 'failed' | 'removed';

export type FileUploadOutcome =
  | { state: 'complete'; file: UploadFileInfo }
  | { state: 'failed'; error: UploadError }
  | { state: 'removed' };

/** One file's upload: start, pause, resume, remove, progress. */
export class FileUpload {
  state: FileUploadState = 'waiting';
  error: UploadError | null = null;
  /** Set while a part waits to be tried again after a failure; null once parts get through. */
  retrying: RetryNotice | null = null;
  fileId: string | null = null;
  info: UploadFileInfo | null = null;
  /**
   * True while the current round still has parts to hand to the network; false once its last part is in
   * flight (or it is not sending): an UploadQueue then starts the next file beside it.
   */
  sendingParts = false;
  /** True while the file goes with others in a bundle (bundles.ts), not in a round of its own. */
  inBundle = false;
  private outcome: FileUploadOutcome | null = null;
  /** A registration made ahead with other files (UploadClient.prepare), for the first round to use. */
  private ahead: Promise<UploadFileInfo | null> | null = null;
  /** The registration made ahead was refused for the quota of unfinished uploads. */
  private overQuotaAhead = false;
  private waiters: ((outcome: FileUploadOutcome) => void)[] = [];
  private readonly listeners = new Set<(upload: FileUpload) => void>();
  private readonly meter: SpeedMeter;
  private confirmed = 0;
  private generation = 0;
  private controller: AbortControllerLike | null = null;

  constructor(
    private readonly client: UploadClient,
    readonly submissionId: string,
    readonly source: UploadSource,
  ) {
    this.meter = new SpeedMeter(client.now);
  }

  /**
   * The outcome of the current round: at once when complete, failed or removed; otherwise when the
   * upload next gets there (a paused file keeps it waiting; a failed file resumed starts a new round).
   */
  settled(): Promise<FileUploadOutcome> {
    if (this.outcome !== null) return Promise.resolve(this.outcome);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private settle(outcome: FileUploadOutcome): void {
    this.outcome = outcome;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve(outcome);
  }

  /** Called on every change of state or progress; returns the unsubscribe function. */
  onChange(listener: (upload: FileUpload) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A retry of the registration made ahead, told to a file that is waiting for it. */
  heardRetryAhead(notice: RetryNotice): void {
    if (this.state !== 'uploading' || this.ahead === null) return;
    this.retrying = notice;
    this.emit();
  }

  /** Whether a registration made ahead waits for this file's first round. */
  get registeredAhead(): boolean {
    return this.ahead !== null;
  }

  /**
   * Hands the file the answer of a registration made ahead with other files (UploadClient.prepare); its
   * first round uses it instead of registering alone, and registers alone when it holds no file (the
   * server refused this one: its own registration gives the reason, or succeeds once the quota allows).
   */
  registerAhead(answer: Promise<BatchRegistrationItem | null>): void {
    if (this.fileId !== null || this.ahead !== null) return;
    this.ahead = answer.then((item) => {
      const info = item && 'file' in item ? item.file : null;
      if (item && 'error' in item && item.error.code === 'upload_quota_exceeded') this.overQuotaAhead = true;
      if (info === null) return null;
      if (this.state === 'removed') {
        // Removed while its registration was on the way: it goes on the server too.
        void this.client.removeFile(info.id).catch(() => undefined);
        return null;
      }
      if (this.fileId === null) {
        this.fileId = info.id;
        this.info = info;
        this.emit();
      }
      return info;
    });
  }

  progress(): ProgressSnapshot {
    const active = this.state === 'uploading';
    return snapshot(this.confirmed, this.source.size, active ? this.meter.rate() : 0);
  }

  /**
   * Begins the file as one of a bundle (bundles.ts): uploading, its bytes to go with other files' in one
   * request. The round's generation, for endBundled; null unless the file was waiting.
   */
  beginBundled(): number | null {
    if (this.state !== 'waiting') return null;
    const generation = ++this.generation;
    this.error = null;
    this.outcome = null;
    this.controller = new timers.AbortController();
    this.inBundle = true;
    this.sendingParts = false;
    this.setState('uploading');
    return generation;
  }

  /** The registration made ahead, taken for a bundle: the file, or null (none, or refused). */
  async takeAhead(): Promise<UploadFileInfo | null> {
    const ahead = this.ahead;
    this.ahead = null;
    return ahead ? await ahead : null;
  }

  /** Whether round `generation` is still the file's own (not paused, removed or begun again since). */
  liveRound(generation: number): boolean {
    return generation === this.generation && this.state === 'uploading';
  }

  /**
   * The end of the file's part in a bundle: complete with `file`, or (null) on alone in a round of its
   * own, from `known` (what the server answered of it last) or else from a look at what it holds.
   */
  endBundled(generation: number, file: UploadFileInfo | null, known: UploadFileInfo | null = null): void {
    if (!this.liveRound(generation) || !this.inBundle) return;
    this.inBundle = false;
    if (file === null) {
      this.sendingParts = true;
      void this.run(generation, this.controller ?? new timers.AbortController(), known);
      return;
    }
    this.fileId = file.id;
    this.confirmed = this.source.size;
    this.meter.add(this.source.size);
    this.emit();
    this.finish(generation, file);
  }

  /** Begins (or, from paused or failed, continues) the upload. */
  start(): void {
    if (this.state === 'uploading' || this.state === 'complete' || this.state === 'removed') return;
    const generation = ++this.generation;
    this.error = null;
    this.outcome = null;
    // Kept apart from this.controller: a listener may pause or remove the file inside setState.
    const controller = new timers.AbortController();
    this.controller = controller;
    this.sendingParts = true;
    this.setState('uploading');
    void this.run(generation, controller);
  }

  pause(): void {
    if (this.state !== 'uploading' && this.state !== 'waiting') return;
    this.stop();
    this.meter.reset();
    this.setState('paused');
  }

  /** Puts a paused or failed file back in line (an UploadQueue starts it; alone, call start()). */
  resume(): void {
    if (this.state === 'paused' || this.state === 'failed') {
      this.outcome = null;
      this.setState('waiting');
    }
  }

  /** Stops and forgets the file, on the server too when it was registered. */
  async remove(): Promise<void> {
    if (this.state === 'removed') return;
    this.stop();
    this.setState('removed');
    this.settle({ state: 'removed' });
    if (this.fileId !== null) await this.client.removeFile(this.fileId).catch(() => undefined);
  }

  private stop(): void {
    this.generation++;
    this.inBundle = false;
    this.controller?.abort();
    this.controller = null;
  }

  private setState(state: FileUploadState): void {
    this.state = state;
    if (state !== 'uploading') {
      this.retrying = null;
      this.sendingParts = false;
    }
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener(this);
  }

  private async run(
    generation: number,
    controller: AbortControllerLike,
    known: UploadFileInfo | null = null,
  ): Promise<void> {
    const live = () => generation === this.generation;
    const signal = controller.signal;
    // Until its digest is asked for: given up (dispose) if the round ends first.
    let hashing: Hasher | null = null;
    const onRetry = (notice: RetryNotice) => {
      if (!live()) return;
      this.retrying = notice;
      this.emit();
    };
    const answered = () => {
      if (!live() || this.retrying === null) return;
      this.retrying = null;
      this.emit();
    };
    try {
      this.sendingParts = true;
      const ahead = this.ahead ? await this.ahead : null;
      this.ahead = null;
      if (this.overQuotaAhead) {
        // Over the quota while other files were unfinished: registered alone once their parts are
        // stored, as when files went one after another (their completion frees the quota).
        this.overQuotaAhead = false;
        await this.client.partsSettled(signal);
      }
      if (!live()) return;
      const info =
        known ??
        ahead ??
        (this.fileId
          ? await this.client.fileStatus(this.fileId, signal, onRetry)
          : await this.client.registerFile(this.submissionId, this.source, signal, onRetry));
      answered();
      this.fileId = info.id;
      this.info = info;
      const decision = resumeDecision(info);
      if (decision.action === 'done') {
        this.confirmed = this.source.size;
        return this.finish(generation, info);
      }
      const { plan, received } = decision;
      this.confirmed = bytesOfParts(plan, received);
      this.emit();
      const hasher = this.client.createHasher?.(this.source) ?? null;
      hashing = hasher;
      const held = new Set(received);
      const inFlight = new Set<Promise<void>>();
      let failure: unknown;
      // Set when the part that makes the file whole carried its sha-256 and the server completed it.
      let completedWithPart: UploadFileInfo | null = null;
      // The file's sha-256, once taken (a hasher gives it once).
      let digest: string | undefined;
      const toSend = plan.partCount - held.size;
      let handed = 0;
      for (let part = 1; part <= plan.partCount && failure === undefined && live(); part++) {
        const sending = !held.has(part);
        if (!sending && hasher === null) continue;
        // The part that makes the file whole carries its sha-256, and the server completes the file in
        // the same request (issue #34): a completion call less per file. A file of one part at once; a
        // larger file's parts go in parallel, and its last part waits for the others' answers, so that
        // the server finds the file whole when it arrives. Meanwhile the next file has the room.
        const withChecksum = sending && hasher !== null && part === plan.partCount;
        if (withChecksum && inFlight.size > 0) {
          this.partsHanded();
          await Promise.all(inFlight);
          if (failure !== undefined || !live()) break;
        }
        while (sending && inFlight.size >= this.client.partConcurrency) await Promise.race(inFlight);
        if (failure !== undefined || !live()) break;
        if (sending) {
          const took = await this.client.takePartSlot(signal).then(
            () => true,
            () => false,
          );
          if (!took) break;
          if (failure !== undefined || !live()) {
            this.client.releasePartSlot();
            break;
          }
        }
        const range = partRange(plan, part);
        let bytes: Uint8Array;
        try {
          bytes = await this.source.read(range.start, range.end);
          if (bytes.length !== range.size) {
            throw new UploadError(0, 'file_changed', 'The file changed while it was being sent.');
          }
        } catch (error) {
          if (sending) this.client.releasePartSlot();
          throw error;
        }
        hasher?.update(bytes);
        if (!sending) {
          this.source.release?.(bytes);
          continue;
        }
        if (++handed === toSend) this.partsHanded();
        if (withChecksum && hasher !== null) {
          hashing = null;
          digest = await hasher.digest();
        }
        const sha256 = withChecksum ? digest : undefined;
        const number = part;
        const task: Promise<void> = this.client
          .putPart(info.id, number, bytes, signal, onRetry, sha256)
          .then(
            (answer) => {
              if (!live()) return;
              if (answer?.file?.status === 'complete') completedWithPart = answer.file;
              this.retrying = null;
              this.confirmed += range.size;
              this.meter.add(range.size);
              this.emit();
            },
            (error: unknown) => {
              failure ??= error;
              // The other parts in flight of this round only; a later round has its own controller.
              controller.abort();
            },
          )
          .finally(() => {
            inFlight.delete(task);
            this.client.releasePartSlot();
            this.source.release?.(bytes);
          });
        inFlight.add(task);
      }
      this.sendingParts = false;
      await Promise.all(inFlight);
      if (failure !== undefined) throw failure;
      if (!live()) return;
      if (completedWithPart !== null) return this.finish(generation, completedWithPart);
      hashing = null;
      const sha256 = digest ?? (hasher ? await hasher.digest() : undefined);
      const completed = await this.client.completeFile(info.id, sha256, signal, onRetry);
      return this.finish(generation, completed);
    } catch (error) {
      if (!live()) return;
      this.error =
        error instanceof UploadError
          ? error
          : new UploadError(0, 'read_failed', error instanceof Error ? error.message : String(error));
      this.meter.reset();
      this.controller = null;
      this.setState('failed');
      this.settle({ state: 'failed', error: this.error });
    } finally {
      hashing?.dispose?.();
    }
  }

  /** Every part of this round is on its way (or the last waits for the others): room for the next file. */
  private partsHanded(): void {
    if (!this.sendingParts) return;
    this.sendingParts = false;
    this.emit();
  }

  private finish(generation: number, info: UploadFileInfo): void {
    if (generation !== this.generation) return;
    this.info = info;
    this.confirmed = this.source.size;
    this.controller = null;
    this.setState('complete');
    this.settle({ state: 'complete', file: info });
  }
}

export interface UploadQueueOptions {
  /**
   * Files starting parts at once; 1 by default, so each file gets the connection in turn. A file whose
   * parts are all on their way makes room for the next beside it (small files share the parts in flight,
   * partConcurrency across the client), up to MAX_FILES_IN_FLIGHT files at once.
   */
  fileConcurrency?: number;
  onChange?: (queue: UploadQueue) => void;
}

/** Files of one queue under way at once, however small: bounds the files a queue holds open. */
export const MAX_FILES_IN_FLIGHT = 16;

/**
 * Several files of one submission: started in turn, with overall progress. The files added together are
 * registered together, many in one call (UploadClient.prepare), before they start.
 */
export class UploadQueue {
  readonly files: FileUpload[] = [];
  private readonly fileConcurrency: number;
  private pumpScheduled = false;
  private readonly bundles = new BundlesUnderWay();
  private readonly meter: SpeedMeter;
  private readonly sent = new Map<FileUpload, number>();

  constructor(
    private readonly client: UploadClient,
    readonly submissionId: string,
    private readonly options: UploadQueueOptions = {},
  ) {
    this.fileConcurrency = Math.max(1, options.fileConcurrency ?? 1);
    this.meter = new SpeedMeter(client.now);
  }

  add(source: UploadSource): FileUpload {
    const upload = this.client.file(this.submissionId, source);
    this.files.push(upload);
    this.sent.set(upload, 0);
    upload.onChange(() => {
      const before = this.sent.get(upload) ?? 0;
      const now = upload.progress().sentBytes;
      if (upload.state === 'uploading' && now > before) this.meter.add(now - before);
      this.sent.set(upload, now);
      // Not at once: a file's start is a change too, and a pump inside a pump went over every file again
      // for each file it started (2,000 files: bench:portal's heaviest function while sending, #34).
      this.schedulePump();
      this.options.onChange?.(this);
    });
    // After the files added in the same turn, so they are registered in one call.
    this.schedulePump();
    return upload;
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    void Promise.resolve().then(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /**
   * Registers waiting files ahead and starts them: while fewer than fileConcurrency files (or bundles)
   * are still starting parts, and fewer than MAX_FILES_IN_FLIGHT files are under way. Small files
   * registered ahead go several to a request (bundles.ts); a bundle counts as one file here, as it holds
   * no more than a part.
   */
  pump(): void {
    const waiting = this.files.filter((f) => f.state === 'waiting');
    if (waiting.length === 0) return;
    this.client.prepare(waiting);
    const active = this.files.filter((f) => f.state === 'uploading' && !f.inBundle);
    let starting = active.filter((f) => f.sendingParts).length + this.bundles.preparing;
    let underWay = active.length + this.bundles.count;
    for (let i = 0; i < waiting.length; i++) {
      if (starting >= this.fileConcurrency || underWay >= MAX_FILES_IN_FLIGHT) return;
      const file = waiting[i]!;
      // Started by a listener of an earlier file's start, say.
      if (file.state !== 'waiting') continue;
      starting++;
      underWay++;
      const group = bundleAt(this.client, waiting, i);
      if (group.length === 0) {
        file.start();
        continue;
      }
      i += group.length - 1;
      this.bundles.send(this.client, group, () => this.schedulePump());
    }
  }

  /** Overall progress of the files not removed. */
  progress(): ProgressSnapshot {
    const kept = this.files.filter((f) => f.state !== 'removed');
    const sent = kept.reduce((sum, f) => sum + f.progress().sentBytes, 0);
    const total = kept.reduce((sum, f) => sum + f.source.size, 0);
    const active = kept.some((f) => f.state === 'uploading');
    return snapshot(sent, total, active ? this.meter.rate() : 0);
  }

  /** Resolves when every file is complete, failed or removed, with their outcomes. */
  settled(): Promise<FileUploadOutcome[]> {
    return Promise.all(this.files.map((f) => f.settled()));
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { asBulkWriter } from '../db/sqlite-write-turns.js';

/**
 * Interactive requests ahead of upload bytes (UPLOAD_YIELD_MAX_MS). On a small machine the store page,
 * checkout and sign-in share the processor, the event loop and libuv's thread pool with every part being
 * received: each chunk of a part costs a socket read, sha-256 and a file write on the loop, and its write
 * takes a pool thread that argon2 and SQLite then wait behind (bench:mixed). So while any interactive
 * request waits for its answer, the chunks of part bodies wait before they are hashed or written: their
 * streams stop reading, TCP holds the bytes back on the client's side, and the client's own sending
 * pauses with them.
 *
 * Uploads never starve: a hold lasts at most `maxHoldMs`; one that runs that long is followed by as long
 * again in which parts flow whatever else arrives, so under a steady stream of interactive requests
 * uploads still get at least half of the time.
 *
 * A request is interactive from its arrival until its answer's headers go out (so a download or the
 * upload events' stream counts only until it starts answering), unless it carries bulk bytes: a part,
 * the legacy upload call (a part as base64), or any body larger than the JSON limit.
 */
export class PriorityGate {
  private interactive = 0;
  private waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** After a hold that ran its full length, parts flow until this time (performance.now()). */
  private openUntil = 0;
  /** Holds begun and holds that ran their full length (for tests and diagnostics). */
  private holdCount = 0;
  private fullHoldCount = 0;

  constructor(readonly maxHoldMs: number) {}

  /** Interactive requests waiting for their answer, parts held, and holds so far. */
  get counts(): { interactive: number; held: number; holds: number; fullHolds: number } {
    return {
      interactive: this.interactive,
      held: this.waiters.length,
      holds: this.holdCount,
      fullHolds: this.fullHoldCount,
    };
  }

  /**
   * Undefined when a part's next chunk may go on now (no interactive request waits, the gate is off, or
   * parts have their turn after a full hold); else a promise that settles when it may.
   */
  turn(): Promise<void> | undefined {
    if (this.interactive === 0 || this.maxHoldMs <= 0) return undefined;
    if (this.waiters.length === 0) {
      if (performance.now() < this.openUntil) return undefined;
      this.holdCount++;
      this.timer = setTimeout(() => {
        this.fullHoldCount++;
        this.openUntil = performance.now() + this.maxHoldMs;
        this.release();
      }, this.maxHoldMs);
      // A hold never keeps the process alive.
      this.timer.unref();
    }
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Counts each interactive request from its arrival until its headers are sent or it closes. */
  readonly middleware: RequestHandler = (req, res, next) => {
    if (!isBulk(req)) this.follow(res);
    next();
  };

  private follow(res: ServerResponse): void {
    this.interactive++;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      res.off('close', end);
      this.interactive--;
      if (this.interactive === 0) this.release();
    };
    // Headers out: the caller has its answer begun (a stream may go on for minutes after that).
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      end();
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    res.once('close', end);
  }

  private release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const waiters = this.waiters;
    if (waiters.length === 0) return;
    this.waiters = [];
    for (const go of waiters) go();
  }
}

/** app.ts's JSON_BODY_LIMIT ('1mb'): a larger body is not a JSON call's. */
const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
const PART_PUT = /^\/api\/uploads\/files\/[^/]+\/parts\/[^/]+$/;
const BUNDLE = '/api/uploads/bundles';
// modules/legacy's LEGACY_UPLOAD_PATH under /api (http/ does not import the modules).
const LEGACY_UPLOAD = '/api/submitForm.php';

/** A request that carries upload bytes: held itself, it must never hold the parts. */
function isBulk(req: IncomingMessage): boolean {
  const path = (req.url ?? '').split('?', 1)[0]!;
  if (req.method === 'PUT' && PART_PUT.test(path)) return true;
  if (req.method === 'POST' && path === BUNDLE) return true;
  if (req.method === 'POST' && path === LEGACY_UPLOAD) return true;
  return Number(req.headers['content-length'] ?? 0) > JSON_BODY_LIMIT_BYTES;
}

const FILE_COMPLETE = /^\/api\/uploads\/files\/[^/]+\/complete$/;
const FILE_REGISTRATION = /^\/api\/uploads\/submissions\/[^/]+\/files(?:\/batch)?$/;

/**
 * The database's side of the same priority (db/sqlite-write-turns.ts): the writes of upload bookkeeping
 * (a part's claim and record, a file's registration and completion, and the work they leave for after
 * the answer) queue in SQLite's bulk lane, behind a checkout's or a sign-in's, which otherwise waited
 * behind dozens of them. Its own setting is not needed: bulk writers are passed over for a bounded time.
 */
export const uploadWritesBehind: RequestHandler = (req, _res, next) => {
  if (writesInBulk(req)) asBulkWriter(next);
  else next();
};

function writesInBulk(req: IncomingMessage): boolean {
  if (isBulk(req)) return true;
  if (req.method !== 'POST') return false;
  const path = (req.url ?? '').split('?', 1)[0]!;
  return FILE_COMPLETE.test(path) || FILE_REGISTRATION.test(path);
}

const perConfig = new WeakMap<object, PriorityGate>();

/**
 * The gate of one process, shared by its routes and everything that writes parts from the same settings
 * (the upload routes, the legacy upload call, the import worker), as write-slots.ts shares its slots.
 */
export function priorityGateFor(config: { UPLOAD_YIELD_MAX_MS?: number }): PriorityGate {
  const ms = config.UPLOAD_YIELD_MAX_MS ?? 0;
  let gate = perConfig.get(config);
  if (!gate || gate.maxHoldMs !== ms) {
    gate = new PriorityGate(ms);
    perConfig.set(config, gate);
  }
  return gate;
}

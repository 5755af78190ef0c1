import { createHash } from 'node:crypto';
import type { Application, Request, RequestHandler, Response } from 'express';
import { QueryTypes } from 'sequelize';
import { dateParam } from '../db/bind.js';
import type { Database } from '../db/index.js';
import type { ErrorBody } from './errors.js';

/**
 * Fixed-window rate limits whose counters live in the database (the `rate_limits` table), so every API
 * process behind a load balancer counts against the same numbers (DESIGN 'Running on more than one
 * machine'). Usage, per route:
 *
 *   router.post('/contact', rateLimit({ name: 'contact', windowSeconds: 3600, max: 10,
 *     key: (req) => req.ip ?? '', message: 'Too many messages; please try again later.' }), handler);
 *
 * Over the limit the request is answered 429 `{ error: { code: 'rate_limited', message } }` with a
 * Retry-After header (seconds until the window resets) and the handler never runs.
 */
export interface RateLimitOptions {
  /** Names the counter family; part of the stored key, so two limits never share counts. */
  name: string;
  windowSeconds: number;
  /** Requests allowed per window; request max + 1 is refused. */
  max: number;
  /** Who is counted: an IP, an e-mail... undefined or '' means this request is not counted by this limit. */
  key: (req: Request) => string | undefined;
  /** Shown to the user on 429. */
  message: string;
}

export interface RateLimitHit {
  /** Requests in the current window, this one included. */
  count: number;
  resetAt: Date;
}

/** Where counters live. One implementation today: the database. */
export interface RateLimitStore {
  /** Counts one request against `key` and returns the window's count; atomic across processes. */
  hit(key: string, windowSeconds: number, now: Date): Promise<RateLimitHit>;
  /** Takes back one hit of a window that is still running (the request turned out not to count). */
  undo(key: string, now: Date): Promise<void>;
  /** Forgets the counter: the next hit starts a new window. */
  clear(key: string): Promise<void>;
}

const LOCALS_KEY = 'rateLimitStore';
// A stored key is at most 255 characters; longer keys (a long e-mail address) are hashed, and so are keys
// with control characters (PostgreSQL refuses NUL in text, and none belongs in a key one reads).
const MAX_KEY_LENGTH = 200;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
// Expired counters are deleted by roughly one request in this many.
const CLEANUP_ONE_IN = 100;

/** sqlite3 returns DATE columns of raw queries as Sequelize wrote them ('2024-01-01 10:00:00.000 +00:00'). */
function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) throw new Error(`rate_limits.reset_at is not a date: ${String(value)}`);
  return date;
}

/**
 * The counter is one statement, `INSERT ... ON CONFLICT ... DO UPDATE ... RETURNING`, the same SQL on
 * both engines and atomic on both: it either starts a new window (count 1) or adds one, and returns the
 * count this very hit produced. No transaction: on SQLite, concurrent BEGIN IMMEDIATE transactions wait
 * for the write lock inside node-sqlite3's small thread pool and can starve the holder; one statement
 * takes and releases the lock by itself.
 *
 * Values are bind parameters ($1: key, $2: the new window's end, $3: now), never pasted into the text:
 * the key comes from the request body.
 *
 * The leading SQL comment is deliberate: Sequelize's SQLite dialect runs any text starting with
 * `INSERT INTO` through a method that discards result rows, which would lose RETURNING's answer.
 */
const HIT_SQL = `/* rate limit hit */ INSERT INTO rate_limits ("key", "count", reset_at) VALUES ($1, 1, $2)
  ON CONFLICT ("key") DO UPDATE SET
    "count" = CASE WHEN rate_limits.reset_at <= $3 THEN 1 ELSE rate_limits."count" + 1 END,
    reset_at = CASE WHEN rate_limits.reset_at <= $3 THEN $2 ELSE rate_limits.reset_at END
  RETURNING "count", reset_at`;
const UNDO_SQL = `UPDATE rate_limits SET "count" = "count" - 1 WHERE "key" = $1 AND reset_at > $2 AND "count" > 0`;

export function databaseRateLimitStore(db: Database): RateLimitStore {
  const { sequelize } = db;
  const date = (value: Date) => dateParam(db.dialect, value);
  return {
    async hit(key, windowSeconds, now) {
      const resetAt = new Date(now.getTime() + windowSeconds * 1000);
      const rows = await sequelize.query<{ count: number | string; reset_at: unknown }>(HIT_SQL, {
        bind: [key, date(resetAt), date(now)],
        type: QueryTypes.SELECT,
      });
      const row = rows[0];
      if (row === undefined) throw new Error(`rate limit counter ${key}: the upsert returned no row`);
      if (Math.floor(Math.random() * CLEANUP_ONE_IN) === 0) {
        await sequelize
          .query('DELETE FROM rate_limits WHERE reset_at < $1', { bind: [date(now)] })
          .catch(() => undefined);
      }
      return { count: Number(row.count), resetAt: toDate(row.reset_at) };
    },
    async undo(key, now) {
      await sequelize.query(UNDO_SQL, { bind: [key, date(now)] });
    },
    async clear(key) {
      await sequelize.query('DELETE FROM rate_limits WHERE "key" = $1', { bind: [key] });
    },
  };
}

/** createApp registers the store once; every rateLimit() middleware finds it through req.app. */
export function setRateLimitStore(app: Application, store: RateLimitStore): void {
  app.locals[LOCALS_KEY] = store;
}

export function rateLimitStoreOf(req: Request): RateLimitStore {
  const store = req.app.locals[LOCALS_KEY] as RateLimitStore | undefined;
  if (!store)
    throw new Error('rateLimit() used in an app without a rate-limit store (see setRateLimitStore)');
  return store;
}

export function storedKey(name: string, key: string): string {
  const full = `${name}:${key}`;
  if (full.length <= MAX_KEY_LENGTH && !CONTROL_CHARACTER.test(full)) return full;
  return `${name}:sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** Answers 429 `rate_limited` with the message and Retry-After (seconds until the window resets). */
export function refuseRateLimited(
  req: Request,
  res: Response,
  refusal: { name: string; message: string; count: number; max: number; resetAt: Date; now: Date },
): void {
  const { name, message, count, max, resetAt, now } = refusal;
  const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
  req.log?.warn({ rateLimit: name, count, max }, 'rate limited');
  const body: ErrorBody = { error: { code: 'rate_limited', message } };
  res.status(429).set('Retry-After', String(retryAfter)).json(body);
}

export function rateLimit(options: RateLimitOptions): RequestHandler {
  const { name, windowSeconds, max, key, message } = options;
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1) throw new Error(`rateLimit ${name}: bad window`);
  if (!Number.isInteger(max) || max < 1) throw new Error(`rateLimit ${name}: bad max`);
  return async (req, res, next) => {
    const who = key(req);
    if (who === undefined || who === '') {
      next();
      return;
    }
    const now = new Date();
    const { count, resetAt } = await rateLimitStoreOf(req).hit(storedKey(name, who), windowSeconds, now);
    if (count <= max) {
      next();
      return;
    }
    refuseRateLimited(req, res, { name, message, count, max, resetAt, now });
  };
}

/** The caller's address as Express sees it (TRUST_PROXY decides whether X-Forwarded-For counts). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

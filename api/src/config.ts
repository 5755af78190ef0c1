import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The operating contract (DESIGN.md): every setting is an environment variable, validated once at start-up.
 * Keys keep the variable names so that an error line, the README and the code all say the same thing.
 */

export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;
const GIB = 1024 ** 3;

/** api/src/config.ts and api/dist/config.js both sit two levels below the repository root. */
const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

// Shells and .env files often leave a variable set but empty; treat that as "not set" so defaults apply.
const raw = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const got = (value: string): string => `(got ${JSON.stringify(value)})`;

function integer(fallback: number, min: number, max: number) {
  return optionalInteger(min, max).transform((value) => value ?? fallback);
}

/** An integer setting with no default: undefined when it is not set. */
function optionalInteger(min: number, max: number) {
  return raw.transform((value, ctx) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `must be an integer between ${min} and ${max} ${got(value)}` });
      return z.NEVER;
    }
    return n;
  });
}

function oneOf<const T extends readonly string[]>(choices: T, fallback: T[number]) {
  return raw.transform((value, ctx): T[number] => {
    if (value === undefined) return fallback;
    const found = choices.find((choice) => choice === value.toLowerCase());
    if (found === undefined) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${choices.join(', ')} ${got(value)}` });
      return z.NEVER;
    }
    return found;
  });
}

function boolean(fallback: boolean) {
  return raw.transform((value, ctx) => {
    if (value === undefined) return fallback;
    const v = value.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(v)) return true;
    if (['false', '0', 'no', 'off'].includes(v)) return false;
    ctx.addIssue({ code: 'custom', message: `must be true or false ${got(value)}` });
    return z.NEVER;
  });
}

function url(protocols: readonly string[]) {
  const what = `a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`;
  return raw.transform((value, ctx) => {
    if (value === undefined) return undefined;
    const parsed = URL.parse(value);
    if (parsed === null || !protocols.includes(parsed.protocol)) {
      ctx.addIssue({ code: 'custom', message: `must be ${what} ${got(value)}` });
      return z.NEVER;
    }
    return value;
  });
}

function pattern(re: RegExp, what: string) {
  return raw.transform((value, ctx) => {
    if (value === undefined) return undefined;
    if (!re.test(value)) {
      ctx.addIssue({ code: 'custom', message: `must be ${what} ${got(value)}` });
      return z.NEVER;
    }
    return value;
  });
}

// A deliberately loose shape check: the real address rules live in shared/ and apply to user input.
const EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;
const MAILBOX = /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

function timeZone(fallback: string) {
  return raw.transform((value, ctx) => {
    const zone = value ?? fallback;
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return zone;
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: `must be an IANA time zone such as America/New_York ${got(zone)}`,
      });
      return z.NEVER;
    }
  });
}

const trimSlash = (value: string): string => value.replace(/\/+$/, '');

/** A comma-separated list of http(s) URLs, with a default. */
function urlList(fallback: string) {
  return raw.transform((value, ctx): string[] => {
    const items = (value ?? fallback)
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    for (const item of items) {
      const parsed = URL.parse(item);
      if (parsed === null || !['http:', 'https:'].includes(parsed.protocol)) {
        ctx.addIssue({ code: 'custom', message: `must be comma-separated http(s) URLs ${got(item)}` });
        return z.NEVER;
      }
    }
    return items;
  });
}

/** true/false, a hop count, or Express's list of trusted addresses ('loopback', '10.0.0.0/8', ...). */
const trustProxy = raw.transform((value): boolean | number | string => {
  if (value === undefined) return false;
  const v = value.toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return value;
});

const schema = z
  .object({
    PORT: integer(3000, 1, 65535),
    HOST: raw.transform((value) => value ?? '127.0.0.1'),
    PUBLIC_URL: url(['http:', 'https:']),
    DATA_DIR: raw.transform((value) => path.resolve(process.cwd(), value ?? './var')),
    DATABASE_URL: url(['postgres:', 'postgresql:']),
    DB_SCHEMA: pattern(/^[a-z_][a-z0-9_]{0,62}$/, 'a lowercase PostgreSQL schema name (letters, digits, _)'),
    SESSION_SECRET: pattern(/^.{32,}$/, 'at least 32 characters long'),
    SESSION_MAX_SECONDS: integer(86400, 60, 31_536_000),
    TRUST_PROXY: trustProxy,
    STORAGE_DRIVER: oneOf(['local', 's3'], 'local'),
    S3_BUCKET: raw,
    S3_REGION: raw,
    S3_ENDPOINT: url(['http:', 'https:']),
    S3_FORCE_PATH_STYLE: boolean(false),
    SMTP_URL: url(['smtp:', 'smtps:']),
    MAIL_FROM: pattern(MAILBOX, 'an e-mail address, optionally as "Name <address>"').transform(
      (value) => value ?? 'no-reply@localhost',
    ),
    STAFF_EMAIL: pattern(EMAIL, 'an e-mail address').transform((value) => value ?? 'staff@localhost'),
    STRIPE_SECRET_KEY: pattern(/^(sk|rk)_(test|live)_\w+$/, 'a Stripe secret key (sk_test_… or sk_live_…)'),
    STRIPE_PUBLISHABLE_KEY: pattern(
      /^pk_(test|live)_\w+$/,
      'a Stripe publishable key (pk_test_… or pk_live_…)',
    ),
    STRIPE_WEBHOOK_SECRET: pattern(/^whsec_\w+$/, 'a Stripe webhook signing secret (whsec_…)'),
    // Where the Stripe SDK sends API calls (default: Stripe's own API); tests point it at a local stand-in.
    STRIPE_API_URL: url(['http:', 'https:']),
    // Cloud sources (README 'Files from cloud accounts'): a provider's picker shows only when its keys are set.
    GOOGLE_CLIENT_ID: raw,
    GOOGLE_API_KEY: raw,
    GOOGLE_APP_ID: pattern(/^\d{1,20}$/, 'the Google Cloud project number (digits)'),
    DROPBOX_APP_KEY: raw,
    BOX_CLIENT_ID: raw,
    BOX_CLIENT_SECRET: raw,
    ONEDRIVE_CLIENT_ID: raw,
    // Where the server reaches each provider's API (default: the provider's own); tests aim them at stand-ins.
    GOOGLE_API_URL: url(['http:', 'https:']).transform((v) => trimSlash(v ?? 'https://www.googleapis.com')),
    DROPBOX_API_URL: url(['http:', 'https:']).transform((v) => trimSlash(v ?? 'https://api.dropboxapi.com')),
    DROPBOX_CONTENT_URL: url(['http:', 'https:']).transform((v) =>
      trimSlash(v ?? 'https://content.dropboxapi.com'),
    ),
    BOX_API_URL: url(['http:', 'https:']).transform((v) => trimSlash(v ?? 'https://api.box.com')),
    BOX_AUTHORIZE_URL: url(['http:', 'https:']).transform(
      (v) => v ?? 'https://account.box.com/api/oauth2/authorize',
    ),
    GRAPH_API_URL: url(['http:', 'https:']).transform((v) =>
      trimSlash(v ?? 'https://graph.microsoft.com/v1.0'),
    ),
    ONEDRIVE_AUTHORITY: url(['https:']).transform((v) => v ?? 'https://login.microsoftonline.com/common'),
    // What the browser loads for each picker (comma-separated); tests serve stand-ins.
    GOOGLE_PICKER_SCRIPTS: urlList(
      'https://apis.google.com/js/api.js,https://accounts.google.com/gsi/client',
    ),
    DROPBOX_PICKER_SCRIPTS: urlList('https://www.dropbox.com/static/api/2/dropins.js'),
    BOX_PICKER_SCRIPTS: urlList(
      'https://cdn01.boxcdn.net/platform/elements/23.0.0/en-US/picker.js,https://cdn01.boxcdn.net/platform/elements/23.0.0/en-US/picker.css',
    ),
    ONEDRIVE_PICKER_URL: urlList('https://onedrive.live.com/picker'),
    // Cloud imports copied at once by each API process.
    IMPORT_CONCURRENCY: integer(2, 1, 64),
    // Waits on the network (issue 28 'No stall without a timeout'), in seconds. A cloud provider's byte
    // range that sends nothing for this long is abandoned and asked for again from its start.
    IMPORT_IDLE_TIMEOUT_SECONDS: integer(60, 1, 3600),
    // How long an import stays with the process copying it after that process stops renewing its lease
    // (renewed every quarter of it): what a kill -9 costs before another process resumes the copy.
    IMPORT_LEASE_SECONDS: integer(15, 2, 3600),
    // #30: the server's reading of a completed file's media facts gives up after this long (stored as
    // unreadable).
    MEDIA_PROBE_TIMEOUT_SECONDS: integer(30, 1, 3600),
    MEDIA_PROBE_CONCURRENCY: integer(2, 1, 16),
    // The most a sent submission's staff notice waits for this process's readings of its files (0: never).
    MEDIA_PROBE_NOTICE_WAIT_SECONDS: integer(2, 0, 60),
    // #31: a client's review e-mail leaves once this long passes without another review change to the submission.
    REVIEW_MAIL_DELAY_SECONDS: integer(120, 0, 86_400),
    // A part PUT whose body sends nothing for this long is ended and its write claim given up.
    UPLOAD_PART_IDLE_SECONDS: integer(60, 1, 3600),
    // Part writes (uploads' parts and cloud imports' ranges) each API process stores at once; the rest wait
    // their turn unread, so many uploads cannot starve the process's other requests (bench:mixed).
    UPLOAD_PART_CONCURRENCY: integer(8, 1, 1024),
    // Local storage's file writes each API process hands libuv's thread pool at once; the rest wait in order,
    // so SQLite, argon2 and reads keep threads of their own (adapters/storage/disk-writes.ts, bench:mixed).
    // Unset: 1 where each write carries 1 MiB (the processor's L2 cache), else 2 (disk-writes.ts).
    UPLOAD_DISK_WRITES: optionalInteger(1, 64),
    // The longest the chunks of part bodies wait while interactive requests (the store, checkout, sign-in)
    // wait for their answer (http/priority-gate.ts); a hold that long is followed by as long of parts
    // flowing. 0: parts never wait.
    UPLOAD_YIELD_MAX_MS: integer(200, 0, 10_000),
    // S3: connecting, then silence on the socket for one request; attempts per call (503 SlowDown, 500,
    // connection resets and timeouts are retried with backoff).
    S3_CONNECT_TIMEOUT_SECONDS: integer(10, 1, 600),
    S3_REQUEST_TIMEOUT_SECONDS: integer(60, 1, 3600),
    S3_MAX_ATTEMPTS: integer(5, 1, 20),
    // PostgreSQL: opening a connection, waiting for a free one in the pool, and one statement (the server
    // cancels it; the client gives up a few seconds later for a connection that went silent).
    DB_CONNECT_TIMEOUT_SECONDS: integer(10, 1, 600),
    DB_ACQUIRE_TIMEOUT_SECONDS: integer(10, 1, 600),
    DB_STATEMENT_TIMEOUT_SECONDS: integer(30, 1, 3600),
    // SQLite: how long a write waits for its turn among this process's writers (db/sqlite-write-turns.ts)
    // before it fails, as the busy timeout does between processes.
    SQLITE_TURN_TIMEOUT_SECONDS: integer(30, 1, 600),
    // SMTP: connecting, the server's greeting, and silence on the socket mid-message.
    SMTP_CONNECTION_TIMEOUT_SECONDS: integer(15, 1, 600),
    SMTP_GREETING_TIMEOUT_SECONDS: integer(15, 1, 600),
    SMTP_SOCKET_TIMEOUT_SECONDS: integer(60, 1, 3600),
    // How long a claimed outbox row stays another process's before it is taken as abandoned (renewed while sending).
    MAIL_CLAIM_LEASE_SECONDS: integer(60, 10, 3600),
    // New accounts from one client address per hour (an office or a venue's Wi-Fi shares one address).
    REGISTRATIONS_PER_HOUR_PER_ADDRESS: integer(10, 1, 100_000),
    // Sign-in attempts from one client address per 15 minutes (the same shared addresses as above).
    SIGN_INS_PER_15_MINUTES_PER_ADDRESS: integer(50, 1, 100_000),
    // Stock (issue #32): how long proceeding to payment holds an order's units, "only N left" from this many, and how often expired holds are swept.
    STOCK_HOLD_MINUTES: integer(20, 1, 1440),
    STOCK_LOW_THRESHOLD: integer(5, 0, 100_000),
    STOCK_SWEEP_SECONDS: integer(30, 1, 3600),
    // Passkeys and second factor (#33): relying party id (a host name; default PUBLIC_URL's) and name, the origins passkeys are used from (default PUBLIC_URL's), and fresh sign-in (minutes, and refunds above this many cents).
    WEBAUTHN_RP_ID: pattern(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, 'a host name without scheme or port'),
    WEBAUTHN_RP_NAME: raw.transform((value) => value ?? 'Northbeam Event Productions'),
    WEBAUTHN_ORIGINS: urlList(''),
    FRESH_SIGN_IN_MINUTES: integer(10, 1, 1440),
    REFUND_FRESH_SIGN_IN_ABOVE: integer(50_000, 0, 1_000_000_000),
    // Whether an empty database gets the demo stores and products at start-up (off in production).
    SEED_DEMO: boolean(true),
    TZ_STORE: timeZone('America/New_York'),
    MAILING_LIST_URL: url(['http:', 'https:']),
    MEDIA_BASE_URL: url(['http:', 'https:']),
    UPLOAD_MAX_BYTES: integer(100 * GIB, 1, Number.MAX_SAFE_INTEGER),
    // Bytes one client may hold in files registered but not yet complete, across their submissions.
    UPLOAD_QUOTA_BYTES: integer(500 * GIB, 1, Number.MAX_SAFE_INTEGER),
    UPLOAD_RETENTION_DAYS: integer(7, 1, 3650),
    LOG_LEVEL: oneOf(LOG_LEVELS, 'info'),
    LOG_FORMAT: oneOf(['auto', 'json', 'pretty'], 'auto'),
    // GET /metrics (Prometheus): on the main port with this bearer token, and/or on METRICS_PORT (127.0.0.1).
    METRICS_TOKEN: pattern(/^[\x21-\x7e]{16,}$/, 'at least 16 printable characters without spaces'),
    METRICS_PORT: pattern(/^\d{1,5}$/, 'a port number between 1 and 65535').transform((value, ctx) => {
      if (value === undefined) return undefined;
      const port = Number(value);
      if (port < 1 || port > 65535) {
        ctx.addIssue({ code: 'custom', message: `must be a port number between 1 and 65535 ${got(value)}` });
        return z.NEVER;
      }
      return port;
    }),
    // Production unless told otherwise: stack traces and verbose errors are opt-in.
    NODE_ENV: oneOf(NODE_ENVS, 'production'),
    WEB_DIST_DIR: raw.transform((value) =>
      value === undefined ? DEFAULT_WEB_DIST_DIR : path.resolve(process.cwd(), value),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT' });
    }
    if (env.STORAGE_DRIVER === 's3' && env.S3_BUCKET === undefined) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when STORAGE_DRIVER=s3' });
    }
    // Half a Stripe configuration would take payments that can never be confirmed by webhook.
    const stripe = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;
    if (stripe.some((key) => env[key] !== undefined)) {
      for (const key of stripe) {
        if (env[key] === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `is required when any of ${stripe.join(', ')} is set (leave all three unset for the built-in test gateway)`,
          });
        }
      }
    }
  });

type ParsedEnv = z.output<typeof schema>;

export type Config = Omit<ParsedEnv, 'PUBLIC_URL' | 'SESSION_SECRET'> & {
  PUBLIC_URL: string;
  SESSION_SECRET: string;
};

export type Env = Record<string, string | undefined>;

/** Validates the environment; throws ConfigError with one line per bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = new Map<string, string>();
    for (const issue of result.error.issues) {
      const name = issue.path.map(String).join('.');
      if (!lines.has(name)) lines.set(name, `${name}: ${issue.message}`);
    }
    throw new ConfigError([...lines.values()]);
  }
  const parsed = result.data;
  return {
    ...parsed,
    PUBLIC_URL: (parsed.PUBLIC_URL ?? defaultPublicUrl(parsed.HOST, parsed.PORT)).replace(/\/+$/, ''),
    SESSION_SECRET: parsed.SESSION_SECRET ?? generatedSecret(parsed.DATA_DIR),
  };
}

function defaultPublicUrl(host: string, port: number): string {
  // A wildcard bind address is not somewhere a browser can go; point links at this machine instead.
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

export const SECRETS_FILE = 'secrets.json';

/**
 * Generates SESSION_SECRET into DATA_DIR/secrets.json on first run so that sessions survive restarts
 * without any setup. The file is created exclusively: when several processes start at once, one writes
 * and the others read its value.
 */
function generatedSecret(dataDir: string): string {
  const file = path.join(dataDir, SECRETS_FILE);
  try {
    mkdirSync(dataDir, { recursive: true });
    try {
      const secrets = { SESSION_SECRET: randomBytes(48).toString('base64url') };
      writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      return secrets.SESSION_SECRET;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stored: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const secret = (stored as { SESSION_SECRET?: unknown } | null)?.SESSION_SECRET;
    if (typeof secret !== 'string' || secret.length < 32) {
      throw new Error(`${file} has no usable SESSION_SECRET`);
    }
    return secret;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([`SESSION_SECRET: not set, and could not be generated into ${file}: ${reason}`]);
  }
}

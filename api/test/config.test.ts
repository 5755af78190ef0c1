import { stat, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SECRETS_FILE } from '../src/config.js';
import type { Env } from '../src/config.js';
import { TEST_SECRET, tempDir } from './helpers/env.js';

/** The ConfigError lines for an environment, or a failure if it is accepted. */
function errorLines(env: Env): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.lines;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('loadConfig', () => {
  it('applies the operating contract defaults', () => {
    const config = loadConfig({ SESSION_SECRET: TEST_SECRET });
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://127.0.0.1:3000',
      DATA_DIR: path.resolve(process.cwd(), 'var'),
      SESSION_MAX_SECONDS: 86400,
      TRUST_PROXY: false,
      STORAGE_DRIVER: 'local',
      S3_FORCE_PATH_STYLE: false,
      TZ_STORE: 'America/New_York',
      UPLOAD_MAX_BYTES: 100 * 1024 ** 3,
      UPLOAD_QUOTA_BYTES: 500 * 1024 ** 3,
      UPLOAD_RETENTION_DAYS: 7,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'auto',
      NODE_ENV: 'production',
    });
    // Unset optional variables select the built-in behaviour: SQLite, .eml files, the test gateway.
    expect([config.DATABASE_URL, config.SMTP_URL, config.STRIPE_SECRET_KEY]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
    expect(config.WEB_DIST_DIR).toBe(path.join(repoRoot, 'web', 'dist'));
  });

  it('derives PUBLIC_URL from HOST and PORT, and treats empty variables as unset', () => {
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET, HOST: '0.0.0.0', PORT: '8080' }).PUBLIC_URL).toBe(
      'http://localhost:8080',
    );
    const config = loadConfig({
      SESSION_SECRET: TEST_SECRET,
      PORT: '',
      PUBLIC_URL: 'https://av.example.com/',
    });
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe('https://av.example.com');
  });

  it('resolves DATA_DIR and WEB_DIST_DIR against the working directory', () => {
    const config = loadConfig({ SESSION_SECRET: TEST_SECRET, DATA_DIR: 'some/data', WEB_DIST_DIR: 'built' });
    expect(config.DATA_DIR).toBe(path.resolve(process.cwd(), 'some/data'));
    expect(config.WEB_DIST_DIR).toBe(path.resolve(process.cwd(), 'built'));
  });

  it('reports PORT=abc as exactly one clear line', () => {
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, PORT: 'abc' })).toEqual([
      'PORT: must be an integer between 1 and 65535 (got "abc")',
    ]);
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, PORT: '70000' })).toEqual([
      'PORT: must be an integer between 1 and 65535 (got "70000")',
    ]);
  });

  it('rejects a time zone that is not an IANA zone', () => {
    const lines = errorLines({ SESSION_SECRET: TEST_SECRET, TZ_STORE: 'Mars/Olympus_Mons' });
    expect(lines).toEqual([
      'TZ_STORE: must be an IANA time zone such as America/New_York (got "Mars/Olympus_Mons")',
    ]);
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET, TZ_STORE: 'Europe/Paris' }).TZ_STORE).toBe(
      'Europe/Paris',
    );
  });

  it('requires S3_BUCKET with the s3 storage driver', () => {
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, STORAGE_DRIVER: 's3' })).toEqual([
      'S3_BUCKET: is required when STORAGE_DRIVER=s3',
    ]);
    const config = loadConfig({
      SESSION_SECRET: TEST_SECRET,
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'uploads',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config).toMatchObject({ STORAGE_DRIVER: 's3', S3_BUCKET: 'uploads', S3_FORCE_PATH_STYLE: true });
  });

  it('reports one line per bad variable, all at once', () => {
    const lines = errorLines({
      SESSION_SECRET: TEST_SECRET,
      PORT: '0',
      DATABASE_URL: 'mysql://db/app',
      STORAGE_DRIVER: 'ftp',
      S3_FORCE_PATH_STYLE: 'maybe',
      SMTP_URL: 'not a url',
      LOG_LEVEL: 'loud',
      LOG_FORMAT: 'xml',
      UPLOAD_RETENTION_DAYS: '-1',
    });
    expect(lines).toEqual([
      'PORT: must be an integer between 1 and 65535 (got "0")',
      'DATABASE_URL: must be a URL starting with postgres:// or postgresql:// (got "mysql://db/app")',
      'STORAGE_DRIVER: must be one of local, s3 (got "ftp")',
      'S3_FORCE_PATH_STYLE: must be true or false (got "maybe")',
      'SMTP_URL: must be a URL starting with smtp:// or smtps:// (got "not a url")',
      'UPLOAD_RETENTION_DAYS: must be an integer between 1 and 3650 (got "-1")',
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      'LOG_FORMAT: must be one of auto, json, pretty (got "xml")',
    ]);
  });

  it('takes UPLOAD_QUOTA_BYTES as a whole number of bytes, at least 1', () => {
    expect(
      loadConfig({ SESSION_SECRET: TEST_SECRET, UPLOAD_QUOTA_BYTES: '1073741824' }).UPLOAD_QUOTA_BYTES,
    ).toBe(1024 ** 3);
    for (const value of ['0', '500GB', '-5', '1.5']) {
      expect(errorLines({ SESSION_SECRET: TEST_SECRET, UPLOAD_QUOTA_BYTES: value })).toEqual([
        `UPLOAD_QUOTA_BYTES: must be an integer between 1 and ${Number.MAX_SAFE_INTEGER} (got "${value}")`,
      ]);
    }
  });

  it('wants all three Stripe keys or none', () => {
    const lines = errorLines({ SESSION_SECRET: TEST_SECRET, STRIPE_SECRET_KEY: 'sk_test_123' });
    expect(lines.map((line) => line.split(':')[0])).toEqual([
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ]);
    const config = loadConfig({
      SESSION_SECRET: TEST_SECRET,
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_456',
      STRIPE_WEBHOOK_SECRET: 'whsec_789',
    });
    expect(config.STRIPE_PUBLISHABLE_KEY).toBe('pk_test_456');
  });

  it('parses TRUST_PROXY as a boolean, a hop count or a list', () => {
    const trust = (value: string) =>
      loadConfig({ SESSION_SECRET: TEST_SECRET, TRUST_PROXY: value }).TRUST_PROXY;
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('loopback, 10.0.0.0/8')).toBe('loopback, 10.0.0.0/8');
  });

  it('accepts a PostgreSQL URL and rejects a bad schema name', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/test';
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET, DATABASE_URL: url }).DATABASE_URL).toBe(url);
    expect(
      errorLines({ SESSION_SECRET: TEST_SECRET, DATABASE_URL: url, DB_SCHEMA: 'Drop Table' })[0],
    ).toMatch(/^DB_SCHEMA: /);
  });

  it('generates SESSION_SECRET once into DATA_DIR/secrets.json (mode 0600) and reuses it', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    const dataDir = path.join(data.dir, 'fresh', 'var');
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(first.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(second.SESSION_SECRET).toBe(first.SESSION_SECRET);
    const file = path.join(dataDir, SECRETS_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ SESSION_SECRET: first.SESSION_SECRET });
  });

  it('uses a given SESSION_SECRET without writing a secrets file', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    expect(loadConfig({ DATA_DIR: data.dir, SESSION_SECRET: TEST_SECRET }).SESSION_SECRET).toBe(TEST_SECRET);
    await expect(stat(path.join(data.dir, SECRETS_FILE))).rejects.toThrow(/ENOENT/);
    expect(errorLines({ DATA_DIR: data.dir, SESSION_SECRET: 'short' })).toEqual([
      'SESSION_SECRET: must be at least 32 characters long (got "short")',
    ]);
  });

  it('explains a secrets file it cannot use', async () => {
    const data = await tempDir();
    cleanups.push(data.remove);
    await writeFile(path.join(data.dir, SECRETS_FILE), '{ not json');
    const lines = errorLines({ DATA_DIR: data.dir });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^SESSION_SECRET: not set, and could not be generated into .*secrets\.json: /);
  });
});

describe('timeouts on the network (issue 28)', () => {
  const TIMEOUTS = {
    IMPORT_IDLE_TIMEOUT_SECONDS: 60,
    MEDIA_PROBE_TIMEOUT_SECONDS: 30,
    UPLOAD_PART_IDLE_SECONDS: 60,
    S3_CONNECT_TIMEOUT_SECONDS: 10,
    S3_REQUEST_TIMEOUT_SECONDS: 60,
    S3_MAX_ATTEMPTS: 5,
    DB_CONNECT_TIMEOUT_SECONDS: 10,
    DB_ACQUIRE_TIMEOUT_SECONDS: 10,
    DB_STATEMENT_TIMEOUT_SECONDS: 30,
    SQLITE_TURN_TIMEOUT_SECONDS: 30,
    SMTP_CONNECTION_TIMEOUT_SECONDS: 15,
    SMTP_GREETING_TIMEOUT_SECONDS: 15,
    SMTP_SOCKET_TIMEOUT_SECONDS: 60,
  };

  it('each has a default, takes a value, and refuses zero or a word with a line naming it', () => {
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET })).toMatchObject(TIMEOUTS);
    for (const name of Object.keys(TIMEOUTS)) {
      expect(loadConfig({ SESSION_SECRET: TEST_SECRET, [name]: '3' })).toMatchObject({ [name]: 3 });
      expect(errorLines({ SESSION_SECRET: TEST_SECRET, [name]: '0' })[0]).toMatch(
        new RegExp(`^${name}: must be an integer between 1 and \\d+ \\(got "0"\\)$`),
      );
      expect(errorLines({ SESSION_SECRET: TEST_SECRET, [name]: 'soon' })[0]).toMatch(
        new RegExp(`^${name}: `),
      );
    }
  });

  it('SQLITE_TURN_TIMEOUT_SECONDS goes up to ten minutes and no further', () => {
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET, SQLITE_TURN_TIMEOUT_SECONDS: '600' })).toMatchObject({
      SQLITE_TURN_TIMEOUT_SECONDS: 600,
    });
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, SQLITE_TURN_TIMEOUT_SECONDS: '601' })).toEqual([
      'SQLITE_TURN_TIMEOUT_SECONDS: must be an integer between 1 and 600 (got "601")',
    ]);
  });

  it('each is in the README configuration table', async () => {
    const readme = await readFile(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    for (const name of Object.keys(TIMEOUTS)) expect(readme).toContain(`\`${name}\``);
  });
});

describe('stock settings (issue #32)', () => {
  const STOCK = { STOCK_HOLD_MINUTES: 20, STOCK_LOW_THRESHOLD: 5, STOCK_SWEEP_SECONDS: 30 };

  it('have defaults, take a value, and refuse what is out of range with a line naming the setting', () => {
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET })).toMatchObject(STOCK);
    expect(
      loadConfig({
        SESSION_SECRET: TEST_SECRET,
        STOCK_HOLD_MINUTES: '2',
        STOCK_LOW_THRESHOLD: '0',
        STOCK_SWEEP_SECONDS: '1',
      }),
    ).toMatchObject({ STOCK_HOLD_MINUTES: 2, STOCK_LOW_THRESHOLD: 0, STOCK_SWEEP_SECONDS: 1 });
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, STOCK_HOLD_MINUTES: '0' })).toEqual([
      'STOCK_HOLD_MINUTES: must be an integer between 1 and 1440 (got "0")',
    ]);
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, STOCK_LOW_THRESHOLD: '-1' })).toEqual([
      'STOCK_LOW_THRESHOLD: must be an integer between 0 and 100000 (got "-1")',
    ]);
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, STOCK_SWEEP_SECONDS: 'often' })).toEqual([
      'STOCK_SWEEP_SECONDS: must be an integer between 1 and 3600 (got "often")',
    ]);
  });

  it('are in the README configuration table', async () => {
    const readme = await readFile(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    for (const name of Object.keys(STOCK)) expect(readme).toContain(`\`${name}\``);
  });
});

describe('metrics settings (issue 35)', () => {
  it('are off by default; METRICS_TOKEN wants 16 printable characters, METRICS_PORT a port other than PORT', () => {
    const unset = loadConfig({ SESSION_SECRET: TEST_SECRET });
    expect([unset.METRICS_TOKEN, unset.METRICS_PORT]).toEqual([undefined, undefined]);
    expect(
      loadConfig({ SESSION_SECRET: TEST_SECRET, METRICS_TOKEN: 'a-token-of-16-ch', METRICS_PORT: '9464' }),
    ).toMatchObject({ METRICS_TOKEN: 'a-token-of-16-ch', METRICS_PORT: 9464 });
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, METRICS_TOKEN: 'short' })).toEqual([
      'METRICS_TOKEN: must be at least 16 printable characters without spaces (got "short")',
    ]);
    expect(
      errorLines({ SESSION_SECRET: TEST_SECRET, METRICS_TOKEN: 'sixteen chars and spaces' }),
    ).toHaveLength(1);
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, METRICS_PORT: '70000' })).toEqual([
      'METRICS_PORT: must be a port number between 1 and 65535 (got "70000")',
    ]);
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, METRICS_PORT: 'metrics' })).toEqual([
      'METRICS_PORT: must be a port number between 1 and 65535 (got "metrics")',
    ]);
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, PORT: '3000', METRICS_PORT: '3000' })).toEqual([
      'METRICS_PORT: must differ from PORT',
    ]);
  });

  it('are in the README configuration table', async () => {
    const readme = await readFile(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    for (const name of ['METRICS_TOKEN', 'METRICS_PORT']) expect(readme).toContain(`| \`${name}\``);
  });
});

describe('passkey and fresh sign-in settings (issue #33)', () => {
  const NAMES = [
    'WEBAUTHN_RP_ID',
    'WEBAUTHN_RP_NAME',
    'WEBAUTHN_ORIGINS',
    'FRESH_SIGN_IN_MINUTES',
    'REFUND_FRESH_SIGN_IN_ABOVE',
  ];

  it('have defaults, take a value, and refuse what is malformed with a line naming the setting', () => {
    const defaults = loadConfig({ SESSION_SECRET: TEST_SECRET });
    expect(defaults.WEBAUTHN_RP_ID).toBeUndefined();
    expect(defaults).toMatchObject({
      WEBAUTHN_RP_NAME: 'Northbeam Event Productions',
      WEBAUTHN_ORIGINS: [],
      FRESH_SIGN_IN_MINUTES: 10,
      REFUND_FRESH_SIGN_IN_ABOVE: 50_000,
    });
    expect(
      loadConfig({
        SESSION_SECRET: TEST_SECRET,
        WEBAUTHN_RP_ID: 'example.com',
        WEBAUTHN_ORIGINS: 'https://shop.example.com, https://example.com',
        FRESH_SIGN_IN_MINUTES: '5',
        REFUND_FRESH_SIGN_IN_ABOVE: '0',
      }),
    ).toMatchObject({
      WEBAUTHN_RP_ID: 'example.com',
      WEBAUTHN_ORIGINS: ['https://shop.example.com', 'https://example.com'],
      FRESH_SIGN_IN_MINUTES: 5,
      REFUND_FRESH_SIGN_IN_ABOVE: 0,
    });
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, WEBAUTHN_RP_ID: 'https://example.com' })).toEqual([
      'WEBAUTHN_RP_ID: must be a host name without scheme or port (got "https://example.com")',
    ]);
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, WEBAUTHN_ORIGINS: 'example.com' })).toEqual([
      'WEBAUTHN_ORIGINS: must be comma-separated http(s) URLs (got "example.com")',
    ]);
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, FRESH_SIGN_IN_MINUTES: '0' })).toEqual([
      'FRESH_SIGN_IN_MINUTES: must be an integer between 1 and 1440 (got "0")',
    ]);
  });

  it('are in the README configuration table', async () => {
    const readme = await readFile(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    for (const name of NAMES) expect(readme).toContain(`\`${name}\``);
  });
});

describe('review mail setting (issue #31)', () => {
  it('defaults to 120 s, takes 0 (at once), refuses a word, and is in the README table', async () => {
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET }).REVIEW_MAIL_DELAY_SECONDS).toBe(120);
    expect(
      loadConfig({ SESSION_SECRET: TEST_SECRET, REVIEW_MAIL_DELAY_SECONDS: '0' }).REVIEW_MAIL_DELAY_SECONDS,
    ).toBe(0);
    expect(errorLines({ SESSION_SECRET: TEST_SECRET, REVIEW_MAIL_DELAY_SECONDS: 'soon' })).toEqual([
      'REVIEW_MAIL_DELAY_SECONDS: must be an integer between 0 and 86400 (got "soon")',
    ]);
    const readme = await readFile(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    expect(readme).toContain('`REVIEW_MAIL_DELAY_SECONDS`');
  });
});

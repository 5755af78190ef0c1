import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ForeignKeyConstraintError, UniqueConstraintError } from 'sequelize';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MIGRATIONS_TABLE,
  migrateDown,
  migrateUp,
  openDatabase,
  pendingMigrations,
} from '../src/db/index.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';
import { createLogger } from '../src/logger.js';
import type { Database } from '../src/db/index.js';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';
import {
  DIALECTS,
  LogCapture,
  onPostgres,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_SECRET,
  tempDir,
  throwawaySchema,
} from './helpers/env.js';

const API_DIR = fileURLToPath(new URL('..', import.meta.url));

const ALL_MIGRATIONS = MIGRATIONS.map((migration) => migration.name);

const TABLES = [
  'app_settings',
  'audit_log',
  'client_logs',
  'contact_messages',
  'file_imports',
  'file_parts',
  'mail_outbox',
  'media_facts',
  'order_lines',
  'order_refunds',
  'orders',
  'passkeys',
  'password_resets',
  'pending_sign_ins',
  'products',
  'rate_limits',
  'recovery_codes',
  'review_rounds',
  'sessions',
  'staff_invitations',
  'staff_roles',
  'stock',
  'stock_holds',
  'stock_sweeps',
  'store_prices',
  'stores',
  'submission_files',
  'submissions',
  'totp_secrets',
  'upload_claims',
  'upload_events',
  'users',
  'webauthn_challenges',
  'webhook_events',
];

/** How many times the migrations table records each name. */
async function recordedTimes(db: Database): Promise<Record<string, number>> {
  const [rows] = await db.sequelize.query(
    `SELECT name, COUNT(*)::int AS times FROM ${MIGRATIONS_TABLE} GROUP BY name ORDER BY name`,
  );
  return Object.fromEntries((rows as Array<{ name: string; times: number }>).map((r) => [r.name, r.times]));
}

const EACH_ONCE = Object.fromEntries(ALL_MIGRATIONS.map((name) => [name, 1]));

/** The tables this database (for PostgreSQL: this schema) holds, sorted. */
async function tables(db: Database): Promise<string[]> {
  const sql =
    db.dialect === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'";
  const [rows] = await db.sequelize.query(sql);
  return (rows as Array<{ name: string }>).map((row) => row.name).sort();
}

let t: TestDatabase | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe.each(DIALECTS)('migrations on %s', (dialect) => {
  it('go up, down and up again', async () => {
    t = await openTestDatabase(dialect, { migrate: false });
    const { db } = t;
    expect(await pendingMigrations(db)).toEqual(ALL_MIGRATIONS);

    expect(await migrateUp(db)).toEqual(ALL_MIGRATIONS);
    expect(await tables(db)).toEqual([...TABLES, MIGRATIONS_TABLE].sort());
    expect(await migrateUp(db)).toEqual([]);

    expect(await migrateDown(db, 0)).toEqual([...ALL_MIGRATIONS].reverse());
    expect(await tables(db)).toEqual([MIGRATIONS_TABLE]);
    expect(await pendingMigrations(db)).toEqual(ALL_MIGRATIONS);

    expect(await migrateUp(db)).toEqual(ALL_MIGRATIONS);
    expect(await tables(db)).toEqual([...TABLES, MIGRATIONS_TABLE].sort());
  });

  it('log one sentence per migration applied and reverted, naming it', async () => {
    t = await openTestDatabase(dialect, { migrate: false });
    const logs = new LogCapture();
    const logger = createLogger({ LOG_LEVEL: 'info' }, logs);
    await migrateUp(t.db, logger);
    await migrateDown(t.db, undefined, logger);
    const lines = logs.lines.filter((line) => line.component === 'migrations');
    const first = ALL_MIGRATIONS[0]!;
    const last = ALL_MIGRATIONS.at(-1)!;
    expect(lines.map((line) => String(line.msg).replace(/ in \d+\.\d{3} s$/, ' in N s'))).toEqual([
      ...ALL_MIGRATIONS.flatMap((name) => [`applying migration ${name}`, `applied migration ${name} in N s`]),
      `reverting migration ${last}`,
      `reverted migration ${last} in N s`,
    ]);
    expect(lines[0]).toMatchObject({ migration: first });
    // pino-pretty shows a `name` field as the logger's name, which made 'INFO (0001-initial-schema):' lines.
    expect(lines.some((line) => 'name' in line)).toBe(false);
  });

  it('enforce foreign keys, unique constraints and cascades', async () => {
    t = await openTestDatabase(dialect);
    const { User, Session, Store, Product, StorePrice } = t.db.models;
    const now = new Date();
    const later = new Date(now.getTime() + 3_600_000);

    await expect(
      Session.create({ id: 'a'.repeat(64), userId: 999, expiresAt: later }),
    ).rejects.toBeInstanceOf(ForeignKeyConstraintError);

    const user = await User.create({
      email: '  Ada@Example.COM ',
      passwordHash: 'x',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    expect(user.email).toBe('ada@example.com');
    expect(user.role).toBe('client');
    await expect(
      User.create({ email: 'ADA@example.com', passwordHash: 'y', firstName: 'A', lastName: 'L' }),
    ).rejects.toBeInstanceOf(UniqueConstraintError);

    await Session.create({ id: 'b'.repeat(64), userId: user.id, expiresAt: later });
    await user.destroy();
    expect(await Session.count()).toBe(0);

    const store = await Store.create({
      slug: 'test-show',
      name: 'Test Show',
      deadline: '2030-01-10',
      startDate: '2030-01-15',
      endDate: '2030-01-17',
    });
    const product = await Product.create({ name: 'Monitor' });
    await StorePrice.create({ storeId: store.id, productId: product.id, unitAmount: 45000 });
    await expect(
      StorePrice.create({ storeId: store.id, productId: product.id, unitAmount: 1 }),
    ).rejects.toBeInstanceOf(UniqueConstraintError);
    // A priced product cannot be deleted (RESTRICT); deleting the store takes its prices along (CASCADE).
    await expect(product.destroy()).rejects.toBeInstanceOf(ForeignKeyConstraintError);
    await store.destroy();
    expect(await StorePrice.count()).toBe(0);
    await product.destroy();

    const reloaded = await Store.findAll();
    expect(reloaded).toEqual([]);
  });

  it('store big file sizes as BIGINT and read them back as numbers', async () => {
    t = await openTestDatabase(dialect);
    const { User, Submission, SubmissionFile, FilePart } = t.db.models;
    const user = await User.create({
      email: 'c@example.com',
      passwordHash: 'x',
      firstName: 'C',
      lastName: 'D',
    });
    const submission = await Submission.create({
      userId: user.id,
      formType: 'sponsor',
      fields: { event_name: 'Expo' },
    });
    const size = 150 * 1024 ** 3 + 7;
    const lastModified = Date.UTC(2026, 0, 2, 3, 4, 5);
    const file = await SubmissionFile.create({
      submissionId: submission.id,
      name: 'keynote.mov',
      size,
      type: 'video/quicktime',
      lastModified,
      partSize: 16 * 1024 * 1024,
      partCount: 9601,
      storageKey: `uploads/${submission.id}/keynote.mov`,
    });
    await FilePart.create({ fileId: file.id, partNumber: 1, size: 16 * 1024 * 1024 });
    await expect(FilePart.create({ fileId: file.id, partNumber: 1, size: 1 })).rejects.toBeInstanceOf(
      UniqueConstraintError,
    );

    const read = await SubmissionFile.findByPk(file.id, { rejectOnEmpty: true });
    expect(read.size).toBe(size);
    expect(read.lastModified).toBe(lastModified);
    expect((await Submission.findByPk(submission.id, { rejectOnEmpty: true })).fields).toEqual({
      event_name: 'Expo',
    });
  });
});

describe.runIf(onPostgres('migrations on postgres from several processes (each migration recorded once)'))(
  'migrations on postgres from several processes',
  () => {
    it('take turns: one applies, the others find nothing to do', async () => {
      t = await openTestDatabase('postgres', { migrate: false });
      const others = await Promise.all(
        [1, 2].map(() => openDatabase(t!.config, createLogger({ LOG_LEVEL: 'silent' }))),
      );
      try {
        const results = await Promise.all([t.db, ...others].map((db) => migrateUp(db)));
        expect(results.flat()).toEqual(ALL_MIGRATIONS);
        expect(await recordedTimes(t.db)).toEqual(EACH_ONCE);
        expect(await tables(t.db)).toEqual([...TABLES, MIGRATIONS_TABLE].sort());
      } finally {
        await Promise.all(others.map((db) => db.close()));
      }
    });

    it('npm run db:migrate started on three machines at once on a fresh schema applies each migration once', async () => {
      // Nothing creates the schema beforehand: the three processes also race to create it.
      const schema = throwawaySchema();
      const data = await tempDir();
      try {
        const env = {
          PATH: process.env.PATH ?? '',
          DATA_DIR: data.dir,
          DATABASE_URL: TEST_DATABASE_URL,
          DB_SCHEMA: schema,
          SESSION_SECRET: TEST_SECRET,
        };
        const runs = await Promise.all(
          [1, 2, 3].map(() =>
            promisify(execFile)(process.execPath, [path.join('dist', 'cli', 'migrate.js')], {
              cwd: API_DIR,
              env,
              timeout: 60_000,
            }),
          ),
        );
        // Every one succeeded, silently on standard error; exactly one applied the migrations.
        expect(runs.map((run) => run.stderr)).toEqual(['', '', '']);
        expect(runs.map((run) => run.stdout).sort()).toEqual([
          `Applied: ${ALL_MIGRATIONS.join(', ')}\n`,
          'Nothing to apply: the database is up to date.\n',
          'Nothing to apply: the database is up to date.\n',
        ]);

        t = await openTestDatabase('postgres', { migrate: false, env: { DB_SCHEMA: schema } });
        expect(await recordedTimes(t.db)).toEqual(EACH_ONCE);
        expect(await tables(t.db)).toEqual([...TABLES, MIGRATIONS_TABLE].sort());
        expect(await pendingMigrations(t.db)).toEqual([]);
      } finally {
        await data.remove();
        await dropSchema(schema);
      }
    });
  },
);

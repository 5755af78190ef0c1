import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import Stripe from 'stripe';
import { QueryTypes } from 'sequelize';
import { afterEach, describe, expect, it } from 'vitest';
import { createUploadStorage, localUploadsDir } from '../src/adapters/storage/index.js';
import { postgresForeignKeyProblems } from '../src/cli/backup-postgres.js';
import { backupPostgres } from '../src/cli/backup-postgres.js';
import { backupSqlite, sqliteForeignKeyProblems } from '../src/cli/backup-sqlite.js';
import { restoreBackup } from '../src/cli/restore-backup.js';
import { reconcileUploads } from '../src/cli/uploads-reconcile.js';
import { loadConfig } from '../src/config.js';
import type { Config } from '../src/config.js';
import {
  databaseTarget,
  MIGRATIONS_TABLE,
  openDatabase,
  pendingMigrations,
  SQLITE_FILE,
} from '../src/db/index.js';
import type { Database } from '../src/db/index.js';
import { createLogger } from '../src/logger.js';
import { openTestDatabase, startTestApp } from './helpers/app.js';
import type { TestApp, TestDatabase } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS, TEST_DATABASE_URL, TEST_SECRET, tempDir } from './helpers/env.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';
import { customerFor, Exhibitor, seeded } from './helpers/store.js';
import { StripeStandIn, stripeEvent } from './helpers/stripe-stand-in.js';
import { memorySource, nodeClient, sponsorForm } from './helpers/uploads.js';

const API_DIR = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
const WEBHOOK_SECRET = 'whsec_backup_0123456789abcdef';
const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_backup0123456789',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_backup0123456789',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a CLI's build (api/dist, made by the project's global setup) in a child process, as `npm run db:backup` does. */
async function cli(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<Outcome> {
  const clean = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join('dist', 'cli', script.replace(/\.ts$/, '.js')), ...args],
      {
        cwd: API_DIR,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', SESSION_SECRET: TEST_SECRET, ...clean },
        timeout: 60_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The variables that name a test instance's database. */
function databaseEnv(config: Config): Record<string, string | undefined> {
  return { DATA_DIR: config.DATA_DIR, DATABASE_URL: config.DATABASE_URL, DB_SCHEMA: config.DB_SCHEMA };
}

/** A database of its own on the test server, for a restore that must not meet the source schema. */
async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `backup_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

// Each of these tests runs the commands as child processes (a few seconds each on a loaded machine).
const CLI_TEST_MS = 120_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
});

async function count(db: Database, sql: string): Promise<number> {
  const [row] = await db.sequelize.query<{ n: number | string }>(sql, { type: QueryTypes.SELECT });
  return Number(row?.n ?? 0);
}

async function ids(db: Database, sql: string): Promise<Set<string>> {
  const rows = await db.sequelize.query<{ id: string }>(sql, { type: QueryTypes.SELECT });
  return new Set(rows.map((row) => String(row.id)));
}

const PAID = `SELECT id FROM orders WHERE status = 'paid'`;
const COMPLETE = `SELECT id FROM submission_files WHERE status = 'complete'`;

interface Moment {
  paid: number;
  lines: number;
  complete: number;
  submissions: number;
}

async function moment(db: Database): Promise<Moment> {
  return {
    paid: await count(db, `SELECT COUNT(*) AS n FROM orders WHERE status = 'paid'`),
    lines: await count(db, 'SELECT COUNT(*) AS n FROM order_lines'),
    complete: await count(db, `SELECT COUNT(*) AS n FROM submission_files WHERE status = 'complete'`),
    submissions: await count(db, 'SELECT COUNT(*) AS n FROM submissions'),
  };
}

/**
 * Writes through the real API until stopped: a client uploading one file per submission to completion,
 * and an exhibitor paying orders by card through the Stripe stand-in (intent, details, webhook).
 */
function startStream(t: TestApp, stripe: StripeStandIn, uploader: TestBrowser) {
  const state = { stop: false, paid: 0, completed: 0, errors: [] as unknown[] };
  const client = nodeClient(t.url, { cookie: uploader.cookieHeader()! });
  const exhibitor = new Exhibitor(t);

  const uploads = (async () => {
    for (let i = 0; !state.stop; i++) {
      const submission = await client.createSubmission(sponsorForm);
      const queue = client.queue(submission.id);
      queue.add(memorySource(1_000 + i, `clip-${i}.mov`).source);
      const [outcome] = await queue.settled();
      if (outcome?.state !== 'complete') throw new Error(`upload ${i}: ${JSON.stringify(outcome)}`);
      state.completed += 1;
    }
  })();

  const orders = (async () => {
    const { body } = await exhibitor.store();
    const store = body.store;
    for (let i = 0; !state.stop; i++) {
      const cart = [
        { productId: store.products[i % 3]!.id, count: 1 + (i % 2) },
        { productId: store.products[4]!.id, count: 1 },
      ];
      const created = await exhibitor.createIntent({ cart });
      if (created.status !== 201) throw new Error(`intent ${i}: ${created.status}`);
      const updated = await exhibitor.updateIntent(created.body, { cart, customer: customerFor(store) });
      if (updated.status !== 200) throw new Error(`update ${i}: ${updated.status}`);
      const paidIntent = stripe.succeed(created.body.intentID, { brand: 'visa', last4: '4242' });
      const payload = stripeEvent(`evt_backup_${i}`, 'payment_intent.succeeded', paidIntent);
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      const res = await t.request('/api/webhooks/stripe', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      const answer = (await res.json()) as { outcome?: string };
      if (answer.outcome !== 'paid') throw new Error(`webhook ${i}: ${JSON.stringify(answer)}`);
      state.paid += 1;
    }
  })();

  const done = Promise.all([uploads, orders]);
  done.catch((error: unknown) => state.errors.push(error));
  return {
    state,
    /** Resolves once the stream has paid and completed at least these many (it fails the test otherwise). */
    async reach(paid: number, completed: number): Promise<void> {
      const deadline = Date.now() + 30_000;
      while (state.paid < paid || state.completed < completed) {
        if (state.errors.length > 0) throw state.errors[0];
        if (Date.now() > deadline)
          throw new Error(`stream stuck at ${state.paid} paid, ${state.completed} complete`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      state.stop = true;
      await done;
    },
  };
}

describe.each(DIALECTS)('db:backup and db:restore on %s', (dialect) => {
  it(
    'backs up during a stream of uploads and paid orders; the restore is one consistent moment of it',
    async () => {
      const stripe = await new StripeStandIn().start();
      cleanups.push(() => stripe.stop());
      const t = await startTestApp({ dialect, env: { ...STRIPE_KEYS, STRIPE_API_URL: stripe.url } });
      cleanups.push(() => t.close());
      await seeded(t);
      const uploader = new TestBrowser(t.url);
      expect(
        (await uploader.post('/api/auth/register', registration({ email: 'ada@example.com' }))).status,
      ).toBe(201);

      const stream = startStream(t, stripe, uploader);
      cleanups.push(() => stream.stop());
      await stream.reach(3, 3);
      const work = await tempDir('ops-backup-');
      cleanups.push(() => work.remove());
      const file = path.join(work.dir, dialect === 'sqlite' ? 'avp.db' : 'avp.dump');

      const before = await moment(t.db);
      const backup = await cli('backup.ts', [file], databaseEnv(t.config));
      const after = await moment(t.db);
      // The stream went on while the copy was made, and afterwards.
      await stream.reach(stream.state.paid + 1, stream.state.completed + 1);
      await stream.stop();
      const paidAfter = await ids(t.db, PAID);
      const completeAfter = await ids(t.db, COMPLETE);

      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      expect(backup.stdout).toMatch(
        /^Backed up the .* to .*: .* \(\d+ bytes\) in \d+\.\d\d s; schema at migration 0\d+-/,
      );
      const size = (await stat(file)).size;
      console.log(
        `[figures] ${dialect} backup during the stream: ${backup.stdout.trim()} ` +
          `(file ${size} bytes; rows before ${JSON.stringify(before)}, after ${JSON.stringify(after)})`,
      );
      expect(after.paid + after.complete).toBeGreaterThan(before.paid + before.complete);

      // Restored into a fresh data folder (SQLite) or a fresh database under the same schema (PostgreSQL).
      const fresh = await tempDir('ops-backup-restore-');
      cleanups.push(() => fresh.remove());
      const restoreEnv: Record<string, string | undefined> = { DATA_DIR: fresh.dir };
      if (dialect === 'postgres') {
        const database = await freshPostgresDatabase();
        cleanups.push(() => database.drop());
        restoreEnv.DATABASE_URL = database.url;
        restoreEnv.DB_SCHEMA = t.config.DB_SCHEMA;
      }
      const restore = await cli('restore.ts', [file], restoreEnv);
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);
      expect(restore.stdout).toContain(`Restored ${file} into`);

      const config = loadConfig({ ...restoreEnv, SESSION_SECRET: TEST_SECRET, LOG_LEVEL: 'silent' });
      const restored = await openDatabase(config, createLogger(config));
      cleanups.push(() => restored.close());
      expect(await pendingMigrations(restored)).toEqual([]);

      // Every reference holds.
      const target = databaseTarget(config);
      const problems =
        target.dialect === 'sqlite'
          ? await sqliteForeignKeyProblems(target.storage)
          : await postgresForeignKeyProblems(target);
      expect(problems).toEqual([]);

      // A moment of the stream: between the counts before and after the backup, and whole.
      const got = await moment(restored);
      for (const key of ['paid', 'lines', 'complete', 'submissions'] as const) {
        expect(got[key], key).toBeGreaterThanOrEqual(before[key]);
        expect(got[key], key).toBeLessThanOrEqual(after[key]);
      }
      expect(
        await count(
          restored,
          `SELECT COUNT(*) AS n FROM orders o WHERE o.status = 'paid'
           AND NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id)`,
        ),
      ).toBe(0);
      expect(
        await count(
          restored,
          `SELECT COUNT(*) AS n FROM submission_files f WHERE f.status = 'complete'
           AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.id = f.submission_id)`,
        ),
      ).toBe(0);
      // What the copy says was paid or complete was so in the live database too (no half-made state).
      for (const id of await ids(restored, PAID)) expect(paidAfter.has(id)).toBe(true);
      for (const id of await ids(restored, COMPLETE)) expect(completeAfter.has(id)).toBe(true);
    },
    CLI_TEST_MS,
  );

  it(
    'refuses a backup from a newer schema, and a target that already holds data unless --force',
    async () => {
      const source = await openTestDatabase(dialect);
      cleanups.push(() => source.cleanup());
      await source.db.sequelize.query(
        `INSERT INTO ${MIGRATIONS_TABLE} (name) VALUES ('9999-from-the-future')`,
      );
      const work = await tempDir('ops-backup-');
      cleanups.push(() => work.remove());
      const newer = path.join(work.dir, 'newer.bak');
      const target = databaseTarget(source.config);
      if (target.dialect === 'sqlite') await backupSqlite(target.storage, newer);
      else await backupPostgres(target, newer);

      const fresh = await tempDir('ops-backup-restore-');
      cleanups.push(() => fresh.remove());
      const restoreEnv: Record<string, string | undefined> = { DATA_DIR: fresh.dir };
      let database: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
      if (dialect === 'postgres') {
        database = await freshPostgresDatabase();
        cleanups.push(() => database!.drop());
        restoreEnv.DATABASE_URL = database.url;
        restoreEnv.DB_SCHEMA = source.config.DB_SCHEMA;
      }
      const refused = await cli('restore.ts', [newer], restoreEnv);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        'Error: This backup comes from a newer version of the application: its database has migration(s) ' +
          'this code does not know (9999-from-the-future). Restore it with that version or a later one.\n',
      );
      // Nothing was put in place.
      if (dialect === 'sqlite') expect(await readdir(fresh.dir)).toEqual([]);
      else {
        const client = new pg.Client({ connectionString: database!.url });
        await client.connect();
        const { rows } = await client.query(
          `SELECT 1 FROM information_schema.tables WHERE table_schema = $1`,
          [source.config.DB_SCHEMA],
        );
        await client.end();
        expect(rows).toEqual([]);
      }

      // A backup of this version, restored over a database that has data: refused, then --force.
      await source.db.sequelize.query(`DELETE FROM ${MIGRATIONS_TABLE} WHERE name = '9999-from-the-future'`);
      const current = path.join(work.dir, 'current.bak');
      if (target.dialect === 'sqlite') await backupSqlite(target.storage, current);
      else await backupPostgres(target, current);
      await seedInto(source);

      if (dialect === 'sqlite') {
        // Over the source itself: while its connection is open, as a running server's is.
        const running = await cli('restore.ts', [current], databaseEnv(source.config));
        expect(running.code).toBe(1);
        expect(running.stderr).toContain('is open in another process: stop the server');
        await source.db.close();
      }
      // The same checks in-process (restore.ts only prints what restoreBackup returns or throws).
      await expect(restoreBackup(source.config, current, { force: false })).rejects.toThrow(
        dialect === 'sqlite'
          ? /already holds data: restore into an empty DATA_DIR, or add --force/
          : /already has \d+ table\(s\): restore into an empty database or schema, or add --force/,
      );
      const other: Config =
        dialect === 'sqlite'
          ? { ...source.config, DATABASE_URL: 'postgres://avp@127.0.0.1:9/avp' }
          : { ...source.config, DATABASE_URL: undefined, DB_SCHEMA: undefined };
      await expect(restoreBackup(other, current, { force: true })).rejects.toThrow(
        dialect === 'sqlite'
          ? 'is a SQLite backup, but DATABASE_URL names a PostgreSQL server'
          : 'is a PostgreSQL backup, but DATABASE_URL is not set',
      );
      const notBackup = path.join(work.dir, 'notes.txt');
      await writeFile(notBackup, 'not a backup');
      await expect(restoreBackup(source.config, notBackup, { force: true })).rejects.toThrow(
        'is not a backup made by npm run db:backup',
      );
      expect(await restoreBackup(source.config, current, { force: true })).toContainEqual(
        expect.stringMatching(/^Restored .*current\.bak into /),
      );
      if (dialect === 'sqlite') {
        const kept = (await readdir(source.dataDir)).filter((name) =>
          name.startsWith(`${SQLITE_FILE}.before-restore-`),
        );
        expect(kept).toHaveLength(1);
      }
      // The backup was taken before the stores were seeded: the restored database has none.
      const config = loadConfig({
        ...databaseEnv(source.config),
        SESSION_SECRET: TEST_SECRET,
        LOG_LEVEL: 'silent',
      });
      const restored = await openDatabase(config, createLogger(config));
      cleanups.push(() => restored.close());
      expect(await count(restored, 'SELECT COUNT(*) AS n FROM stores')).toBe(0);
    },
    CLI_TEST_MS,
  );
});

async function seedInto(source: TestDatabase): Promise<void> {
  const { seedDemo } = await import('../src/db/seed-demo.js');
  await seedDemo(source.db, { timeZone: source.config.TZ_STORE });
}

describe.each(DIALECTS)('the foreign-key check on %s', (dialect) => {
  it('finds a row whose parent is gone (so an empty answer above means something)', async () => {
    const source = await openTestDatabase(dialect);
    cleanups.push(() => source.cleanup());
    const insert = `INSERT INTO submission_files (id, submission_id, name, size, type, part_size, part_count,
        storage_key, status, created_at, updated_at)
      VALUES ('${randomUUID()}', '${randomUUID()}', 'lost.mov', 1, '', 1, 1, 'submissions/x/y', 'complete',
        CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`;
    const target = databaseTarget(source.config);
    if (target.dialect === 'sqlite') {
      await source.db.sequelize.query('PRAGMA foreign_keys=OFF');
      await source.db.sequelize.query(insert);
      expect(await sqliteForeignKeyProblems(target.storage)).toEqual([
        expect.stringMatching(/^submission_files row \d+ → submissions$/),
      ]);
    } else {
      await source.db.sequelize.transaction(async (transaction) => {
        // Triggers, foreign keys' among them, off for this transaction only (the test user is a superuser).
        await source.db.sequelize.query('SET LOCAL session_replication_role = replica', { transaction });
        await source.db.sequelize.query(insert, { transaction });
      });
      expect(await postgresForeignKeyProblems(target)).toEqual([
        `${target.schema}.submission_files (submission_id) → ${target.schema}.submissions: 1 row(s)`,
      ]);
    }
  });
});

describe('db:backup without pg_dump', () => {
  it('says what to install when DATABASE_URL is PostgreSQL and pg_dump is not on PATH', async () => {
    const work = await tempDir('ops-backup-');
    cleanups.push(() => work.remove());
    const file = path.join(work.dir, 'avp.dump');
    const outcome = await cli('backup.ts', [file], {
      DATA_DIR: work.dir,
      DATABASE_URL: 'postgres://avp@127.0.0.1:9/avp',
      PATH: path.join(work.dir, 'empty-path'),
    });
    expect(outcome).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "Error: pg_dump was not found on PATH. Install the PostgreSQL client tools of the server's major version " +
        'or newer (Debian/Ubuntu: apt-get install postgresql-client) and run this again.\n',
    });
    expect(existsSync(file)).toBe(false);
  });
});

describe('uploads:check', () => {
  async function uploadTwo(t: TestApp) {
    const browser = new TestBrowser(t.url);
    expect(
      (await browser.post('/api/auth/register', registration({ email: 'ada@example.com' }))).status,
    ).toBe(201);
    const client = nodeClient(t.url, { cookie: browser.cookieHeader()! });
    const submission = await client.createSubmission(sponsorForm);
    const queue = client.queue(submission.id);
    queue.add(memorySource(1_500, 'a.mov').source);
    queue.add(memorySource(2_500, 'b.mov').source);
    expect((await queue.settled()).map((o) => o.state)).toEqual(['complete', 'complete']);
    return { submissionId: submission.id, fileIds: queue.files.map((f) => f.fileId!) };
  }

  it(
    'reports a file without a row and a row without a file in the local folder, deleting only when asked',
    async () => {
      const t = await startTestApp();
      cleanups.push(() => t.close());
      const { submissionId, fileIds } = await uploadTwo(t);
      expect(await reconcileUploads(t.db, createUploadStorage(t.config))).toEqual({
        storedCount: 2,
        rowCount: 2,
        orphans: [],
        missing: [],
        wrongSize: [],
      });
      const uploads = localUploadsDir(t.config);
      const orphanKey = `submissions/${randomUUID()}/${randomUUID()}`;
      await mkdir(path.dirname(path.join(uploads, orphanKey)), { recursive: true });
      await writeFile(path.join(uploads, orphanKey), randomBytes(10));
      const lostKey = `submissions/${submissionId}/${fileIds[1]}`;
      await rm(path.join(uploads, lostKey));

      const found = await cli('uploads-check.ts', [], databaseEnv(t.config));
      expect(found.stderr).toBe('');
      expect(found.code).toBe(1);
      expect(found.stdout).toContain(`Checked 2 stored file(s) in ${uploads} against 2 file row(s).`);
      expect(found.stdout).toContain(`Files without rows: 1\n  ${orphanKey} (10 B)\n`);
      expect(found.stdout).toContain(
        `Rows without files: 1\n  file ${fileIds[1]} "b.mov" (2.4 KB) of submission ${submissionId}: ${lostKey}\n`,
      );
      expect(found.stdout).toContain('Nothing was deleted: run again with --remove-orphans');
      expect(existsSync(path.join(uploads, orphanKey))).toBe(true);

      const removed = await cli('uploads-check.ts', ['--remove-orphans'], databaseEnv(t.config));
      expect(removed.code).toBe(1);
      expect(removed.stdout).toContain(`Files without rows: 1\n  ${orphanKey} (10 B)\n`);
      expect(removed.stdout).toContain('Removed 1 file(s) without rows.');
      expect(existsSync(path.join(uploads, orphanKey))).toBe(false);
      // The files that have rows are untouched.
      expect((await stat(path.join(uploads, `submissions/${submissionId}/${fileIds[0]}`))).size).toBe(1_500);

      // A stored file cut short (a partial copy back from a storage backup) is named too.
      await truncate(path.join(uploads, `submissions/${submissionId}/${fileIds[0]}`), 100);
      const found2 = await reconcileUploads(t.db, createUploadStorage(t.config));
      expect(found2.wrongSize).toEqual([
        { row: expect.objectContaining({ id: fileIds[0], size: 1_500 }), stored: 100 },
      ]);
      expect(found2.missing.map((row) => row.id)).toEqual([fileIds[1]]);
      expect(found2.orphans).toEqual([]);
    },
    CLI_TEST_MS,
  );

  it(
    'lists the S3 bucket (ListObjectsV2 on the stand-in) against the rows',
    async () => {
      const s3 = await startS3StandIn();
      cleanups.push(() => s3.close());
      const env = {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: S3_STAND_IN_BUCKET,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_REGION: 'us-east-1',
      };
      const t = await startTestApp({ env });
      cleanups.push(() => t.close());
      const { submissionId, fileIds } = await uploadTwo(t);
      const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true });
      const orphanKey = `submissions/${randomUUID()}/${randomUUID()}`;
      await client.send(new PutObjectCommand({ Bucket: S3_STAND_IN_BUCKET, Key: orphanKey, Body: 'orphan' }));
      const lostKey = `submissions/${submissionId}/${fileIds[0]}`;
      await client.send(new DeleteObjectCommand({ Bucket: S3_STAND_IN_BUCKET, Key: lostKey }));

      const found = await cli('uploads-check.ts', [], {
        ...databaseEnv(t.config),
        ...env,
        AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
        AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY,
      });
      expect(found.stderr).toBe('');
      expect(found.code).toBe(1);
      expect(found.stdout).toContain(`in s3://${S3_STAND_IN_BUCKET} against 2 file row(s).`);
      expect(found.stdout).toContain(`Files without rows: 1\n  ${orphanKey} (6 B)\n`);
      expect(found.stdout).toContain(`Rows without files: 1\n  file ${fileIds[0]} "a.mov"`);
    },
    CLI_TEST_MS,
  );
});

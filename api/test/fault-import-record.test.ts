import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPIRED } from '../src/adapters/cloud/errors.js';
import { startDriveStandIn } from './helpers/cloud-standins/drive.js';
import { LogCapture, TEST_DATABASE_URL } from './helpers/env.js';
import { postgresBehindProxy } from './helpers/database-proxy.js';
import type { TcpFaultProxy } from './helpers/fault-proxy.js';
import { startImportHarness } from './helpers/imports.js';
import { IMPORT_DATABASE_GAVE_UP, MAX_ATTEMPTS, startImportWorker } from '../src/modules/imports/worker.js';
import { waitFor } from './helpers/smtp.js';

/**
 * Soak finding 5: an import attempt that fails while PostgreSQL is away (a restart, a cut) could not
 * write its outcome, and the import stayed 'running' until its lease ran out, then ran again. The outcome
 * must be written once the database answers again: the import shows what happened at once, and nothing
 * is asked of the provider a second time. The machine's PostgreSQL is shared, so a TCP proxy of the
 * test's own in front of it refuses connections for the gap.
 */

const cleanups: Array<() => Promise<unknown>> = [];
let proxy: TcpFaultProxy | undefined;
afterEach(async () => {
  await proxy?.accept().catch(() => undefined);
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
  await proxy?.close();
  proxy = undefined;
});

async function setup() {
  const behind = await postgresBehindProxy();
  proxy = behind.proxy;
  const drive = await startDriveStandIn();
  cleanups.push(() => drive.close());
  const logs = new LogCapture();
  const h = await startImportHarness({
    dialect: 'postgres',
    logs,
    retryBaseMs: 5,
    env: {
      ...behind.env,
      GOOGLE_API_URL: drive.url,
    },
  });
  cleanups.push(() => h.close());
  return { proxy, drive, logs, h };
}

describe.skipIf(!TEST_DATABASE_URL)('a cloud import failing while PostgreSQL is away', () => {
  it('the last attempt failing on the database: failed, naming our database, not the provider', async () => {
    const { proxy, drive, logs, h } = await setup();
    await h.worker.stop();
    drive.files.set('f-db', { name: 'db.mov', mimeType: 'video/quicktime', data: randomBytes(1000) });
    drive.delayMs = 1_500;
    const started = await h.start({
      provider: 'google-drive',
      fileId: 'f-db',
      name: 'db.mov',
      accessToken: 't',
    });
    expect(started.status).toBe(201);
    // Seven failures in a row already: the next one is the last.
    await h.t.db.models.FileImport.update(
      { attempts: MAX_ATTEMPTS - 1 },
      { where: { fileId: started.file.id } },
    );
    const worker = startImportWorker({
      config: h.t.config,
      db: h.t.db,
      logger: h.t.logger,
      pollMs: 50,
      retryBaseMs: 5,
    });
    cleanups.push(() => worker.stop());

    // The provider's bytes are on their way; the database goes before the part can be recorded.
    await waitFor(() => drive.mediaRequests.length > 0, 10_000, 'the media request');
    await proxy.refuse();
    await waitFor(
      () => logs.lines.some((line) => String(line.msg).startsWith('could not record a cloud import failure')),
      20_000,
      'a failed write of the outcome',
    );
    await proxy.accept();

    const failed = await h.waitFor(started.file.id, (f) => f.import?.status === 'failed', 30_000);
    expect(failed.import?.error).toBe(IMPORT_DATABASE_GAVE_UP);
    const gaveUp = logs.lines.find((line) => String(line.msg).startsWith('cloud import given up'));
    expect(gaveUp?.cause).toBe('database');
  }, 90_000);

  it('its outcome is recorded once the database answers again, without another attempt', async () => {
    const { proxy, drive, logs, h } = await setup();
    // One part, one request: the provider waits a while, then says the token has expired (401).
    drive.files.set('f-rec', { name: 'rec.mov', mimeType: 'video/quicktime', data: randomBytes(1000) });
    drive.delayMs = 1_500;
    drive.expireTokenAfter = 0;
    const started = await h.start({
      provider: 'google-drive',
      fileId: 'f-rec',
      name: 'rec.mov',
      accessToken: 't',
    });
    expect(started.status).toBe(201);

    // The request is at the provider: the database goes away before its answer comes.
    await waitFor(() => drive.mediaRequests.length > 0, 10_000, 'the media request');
    await proxy.refuse();
    await waitFor(
      () => logs.lines.some((line) => String(line.msg).startsWith('could not record a cloud import failure')),
      20_000,
      'a failed write of the outcome',
    );
    await proxy.accept();

    const waiting = await h.waitFor(started.file.id, (f) => f.import?.status === 'needs_auth', 30_000);
    expect(waiting.import?.error).toBe(EXPIRED);
    // Recorded from the attempt that failed, not found again by a second attempt after the lease ran out.
    expect(drive.mediaRequests.length).toBe(1);
    const row = await h.t.db.models.FileImport.findByPk(started.file.id);
    expect(row?.leaseToken ?? null).toBeNull();
  }, 90_000);
});

if (!TEST_DATABASE_URL) {
  console.log('fault-import-record: skipped, TEST_DATABASE_URL is not set (the gap is PostgreSQL’s)');
}

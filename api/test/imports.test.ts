import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { InboxSubmission, UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { FOREIGN_LINK, GOOGLE_NATIVE_REFUSED } from '../src/adapters/cloud/index.js';
import { openDatabase } from '../src/db/index.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { startImportWorker } from '../src/modules/imports/index.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { startDriveStandIn } from './helpers/cloud-standins/drive.js';
import type { DriveStandIn } from './helpers/cloud-standins/drive.js';
import { DIALECTS, onPostgres, tempDir, TEST_SECRET } from './helpers/env.js';
import { sha256, startImportHarness } from './helpers/imports.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';
import { sponsorForm } from './helpers/uploads.js';

const PART = UPLOAD_PART_SIZE;
const API_DIR = fileURLToPath(new URL('..', import.meta.url));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

async function drive(): Promise<DriveStandIn> {
  const standIn = await startDriveStandIn();
  cleanups.push(() => standIn.close());
  return standIn;
}

async function harness(d: DriveStandIn, options: Parameters<typeof startImportHarness>[0] = {}) {
  const h = await startImportHarness({
    ...options,
    env: { GOOGLE_API_URL: d.url, ...options.env },
  });
  cleanups.push(() => h.close());
  return h;
}

const isComplete = (f: UploadFileInfo) => f.status === 'complete';
const ranges = (d: DriveStandIn, id: string) =>
  d.mediaRequests.filter((r) => r.id === id).map((r) => r.range);

const STORAGES = ['local', 's3'] as const;

describe.each(DIALECTS.flatMap((dialect) => STORAGES.map((storage) => [dialect, storage] as const)))(
  'cloud imports from Google Drive (%s, %s storage)',
  (dialect, storage) => {
    it('copies a file of several parts intact; staff see it with its sha-256 and provider; mail waits for it', async () => {
      const d = await drive();
      let env = {};
      if (storage === 's3') {
        const s3 = await startS3StandIn();
        cleanups.push(() => s3.close());
        env = {
          STORAGE_DRIVER: 's3',
          S3_BUCKET: S3_STAND_IN_BUCKET,
          S3_ENDPOINT: s3.endpoint,
          S3_FORCE_PATH_STYLE: 'true',
          S3_REGION: 'us-east-1',
        };
      }
      const h = await harness(d, { dialect, env });
      const data = randomBytes(2 * PART + 1234);
      d.files.set('f-keynote', { name: 'keynote.mov', mimeType: 'video/quicktime', data });
      d.token = 'token-1';
      d.delayMs = 150;

      const started = await h.start({
        provider: 'google-drive',
        fileId: 'f-keynote',
        name: 'keynote.mov',
        accessToken: 'token-1',
      });
      expect(started.status).toBe(201);
      expect(started.file).toMatchObject({ name: 'keynote.mov', size: data.length, partCount: 3 });
      expect(started.file.import).toMatchObject({ provider: 'google-drive', bytesDone: 0 });
      expect(['queued', 'running']).toContain(started.file.import!.status);

      // The client sends the form and leaves while the server is still copying: no mail yet.
      const sent = await h.client.post(`/api/uploads/submissions/${h.submissionId}/submit`, {});
      expect(sent.status).toBe(200);
      expect(await h.t.db.models.MailOutbox.count()).toBe(0);

      // The file is complete a moment before its import row says so (the worker settles it next).
      const done = await h.waitFor(started.file.id, (f) => isComplete(f) && f.import?.status === 'complete');
      expect(done.sha256).toBe(sha256(data));
      expect(done.import).toMatchObject({ status: 'complete', bytesDone: data.length, error: null });
      expect((await h.stored(started.file.id)).equals(data)).toBe(true);
      // Each part was fetched once, with a Range header.
      expect(ranges(d, 'f-keynote').sort()).toEqual(
        [
          `bytes=0-${PART - 1}`,
          `bytes=${PART}-${2 * PART - 1}`,
          `bytes=${2 * PART}-${data.length - 1}`,
        ].sort(),
      );

      // The staff notice and the receipt go out once the import completes, listing the checksum.
      await expect.poll(() => h.t.db.models.MailOutbox.count()).toBe(2);
      const notice = await h.t.db.models.MailOutbox.findOne({ where: { toAddress: h.t.config.STAFF_EMAIL } });
      expect(notice!.textBody).toContain(`keynote.mov`);
      expect(notice!.textBody).toContain(sha256(data));

      await upsertStaffAccount(h.t.db, {
        email: 'grace@example.com',
        password: 'Compiler Pioneer 1952',
        firstName: 'Grace',
        lastName: 'Hopper',
      });
      const staff = new TestBrowser(h.t.url);
      expect(
        (
          await staff.post('/api/auth/login', {
            email: 'grace@example.com',
            password: 'Compiler Pioneer 1952',
          })
        ).status,
      ).toBe(200);
      const inbox = await staff.get<{ submissions: InboxSubmission[] }>('/api/uploads/inbox');
      expect(inbox.body.submissions[0]!.files[0]).toMatchObject({
        name: 'keynote.mov',
        sha256: sha256(data),
        import: { provider: 'google-drive', status: 'complete' },
      });
      const token = await h.t.db.models.FileImport.findByPk(started.file.id);
      expect(token!.accessToken).toBeNull();
    });
  },
);

describe.each(DIALECTS)('cloud imports: faults (%s)', (dialect) => {
  it('resumes after a provider 5xx and a connection cut mid-part, fetching no stored part again', async () => {
    const d = await drive();
    const h = await harness(d, { dialect });
    const data = randomBytes(3 * PART + 5);
    d.files.set('f-cut', { name: 'cut.mov', mimeType: 'video/mp4', data });
    d.failNext = 1;
    d.cutNextAfter = 1_000_000;
    const started = await h.start({ provider: 'google-drive', fileId: 'f-cut', name: 'cut.mov' });
    const done = await h.waitFor(started.file.id, isComplete);
    expect(done.sha256).toBe(sha256(data));
    expect((await h.stored(started.file.id)).equals(data)).toBe(true);
    // Four parts, plus the two that failed once.
    expect(ranges(d, 'f-cut')).toHaveLength(6);
    expect(new Set(ranges(d, 'f-cut')).size).toBe(4);
  });

  it('waits for the client when the token expires mid-file, then continues from where it stopped', async () => {
    const d = await drive();
    const h = await harness(d, { dialect });
    const data = randomBytes(4 * PART);
    d.files.set('f-auth', { name: 'auth.mov', mimeType: 'video/mp4', data });
    d.token = 'first';
    d.expireTokenAfter = 1;
    const started = await h.start({
      provider: 'google-drive',
      fileId: 'f-auth',
      name: 'auth.mov',
      accessToken: 'first',
    });
    const waiting = await h.waitFor(started.file.id, (f) => f.import?.status === 'needs_auth');
    expect(waiting.import!.error).toBe('The access to this file has expired. Pick it again to continue.');
    const kept = waiting.receivedParts ?? [];
    expect(kept.length).toBeGreaterThanOrEqual(1);
    const listed = await h.client.get<{ imports: { fileId: string; import: { status: string } }[] }>(
      '/api/uploads/imports',
    );
    expect(listed.body.imports).toEqual([
      expect.objectContaining({
        fileId: started.file.id,
        import: expect.objectContaining({ status: 'needs_auth' }),
      }),
    ]);

    const before = d.mediaRequests.length;
    d.token = 'second';
    const renewed = await h.client.post(`/api/uploads/imports/${started.file.id}/token`, {
      accessToken: 'second',
    });
    expect(renewed.status).toBe(200);
    const done = await h.waitFor(started.file.id, isComplete);
    expect(done.sha256).toBe(sha256(data));
    const after = d.mediaRequests.slice(before).map((r) => r.range);
    for (const part of kept) {
      expect(after).not.toContain(`bytes=${(part - 1) * PART}-${part * PART - 1}`);
    }
    expect(after).toHaveLength(4 - kept.length);
  });

  it('refuses Google Docs, foreign links, refused tokens, missing files and oversized files before storing anything', async () => {
    const d = await drive();
    const h = await harness(d, { dialect, env: { UPLOAD_MAX_BYTES: '1000' } });
    d.files.set('doc', {
      name: 'Plan',
      mimeType: 'application/vnd.google-apps.document',
      data: Buffer.alloc(0),
    });
    d.files.set('big', { name: 'big.mov', mimeType: 'video/mp4', data: Buffer.alloc(1001) });
    const doc = await h.start({ provider: 'google-drive', fileId: 'doc', name: 'Plan' });
    expect(doc.status).toBe(415);
    expect(doc.body).toMatchObject({ error: { code: 'cloud_unsupported', message: GOOGLE_NATIVE_REFUSED } });
    for (const link of [
      'http://169.254.169.254/latest/meta-data/',
      'http://127.0.0.1:1/x',
      'https://dl.dropboxusercontent.com.evil.example/x',
      'https://user:pw@dl.dropboxusercontent.com/x',
    ]) {
      const foreign = await h.start({ provider: 'dropbox', link, name: 'x.mov' });
      expect(foreign.status, link).toBe(400);
      expect(foreign.body).toMatchObject({ error: { code: 'foreign_link', message: FOREIGN_LINK } });
    }
    const pathTrick = await h.start({ provider: 'google-drive', fileId: '../../admin', name: 'x.mov' });
    expect(pathTrick.status).toBe(400);
    expect((await h.start({ provider: 'google-drive', fileId: 'nope', name: 'x.mov' })).body).toMatchObject({
      error: { code: 'cloud_not_found' },
    });
    d.token = 'right';
    const refused = await h.start({
      provider: 'google-drive',
      fileId: 'big',
      name: 'big.mov',
      accessToken: 'wrong',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'cloud_auth_failed' } });
    const big = await h.start({
      provider: 'google-drive',
      fileId: 'big',
      name: 'big.mov',
      accessToken: 'right',
    });
    expect(big.status).toBe(413);
    expect(await h.t.db.models.SubmissionFile.count()).toBe(0);
    expect(d.mediaRequests).toHaveLength(0);
  });

  it('cancels an import when the client removes the file', async () => {
    const d = await drive();
    const h = await harness(d, { dialect });
    d.files.set('f-rm', { name: 'rm.mov', mimeType: 'video/mp4', data: randomBytes(8 * PART) });
    d.delayMs = 200;
    const started = await h.start({ provider: 'google-drive', fileId: 'f-rm', name: 'rm.mov' });
    await h.waitFor(started.file.id, (f) => f.import?.status === 'running');
    const removed = await h.client.call('DELETE', `/api/uploads/files/${started.file.id}`);
    expect(removed.status).toBe(204);
    // The copy in flight ends on its own (its lease went with the file), before it has asked for every part.
    await h.worker.idle();
    const count = d.mediaRequests.length;
    expect(count).toBeLessThan(8);
    expect(await h.t.db.models.FileImport.count()).toBe(0);
    // Nothing is left for any worker to take: a look for work copies nothing more.
    h.worker.wake();
    await h.worker.idle();
    expect(d.mediaRequests.length).toBe(count);
  });
});

describe('cloud imports through the original upload call (auth_file_url)', () => {
  it("imports a picked Drive link and sends it with the form's other files", async () => {
    const d = await drive();
    const h = await harness(d);
    const data = randomBytes(PART + 10);
    d.files.set('f-legacy', { name: 'legacy.mov', mimeType: 'video/mp4', data });
    const picks = {
      'legacy.mov': { link: `${d.url}/drive/v3/files/f-legacy?alt=media`, token: 'picker-token' },
    };
    const init = await h.client.post('/api/submitForm.php', {
      ...sponsorForm,
      action: 'init',
      auth_file_url: picks,
    });
    expect(init.status).toBe(200);
    const row = await h.t.db.models.FileImport.findOne({ where: { sourceFileId: 'f-legacy' } });
    expect(row).toMatchObject({
      provider: 'google-drive',
      status: expect.stringMatching(/queued|running|complete/),
    });
    const done = await h.waitFor(row!.fileId, isComplete);
    expect(done.sha256).toBe(sha256(data));
    const sent = await h.client.post('/api/submitForm.php', {
      ...sponsorForm,
      action: 'send',
      auth_file_url: picks,
    });
    expect(sent.status).toBe(200);
    expect(await h.t.db.models.FileImport.count()).toBe(1);
  });
});

describe.runIf(
  onPostgres('cloud imports on one PostgreSQL shared by two processes (an import copied exactly once)'),
)('cloud imports on one PostgreSQL shared by two processes', () => {
  it('never copies the same import twice', async () => {
    const d = await drive();
    const h = await harness(d, { dialect: 'postgres' });
    // A second process: its own connection pool and its own worker on the same database and storage.
    const peerDb = await openDatabase(h.t.config, h.t.logger);
    const peer = startImportWorker({ config: h.t.config, db: peerDb, logger: h.t.logger, pollMs: 20 });
    cleanups.push(async () => {
      await peer.stop();
      await peerDb.close();
    });
    d.delayMs = 30;
    const files = Array.from({ length: 6 }, (_, i) => ({
      id: `f-${i}`,
      data: randomBytes(PART + 100 * (i + 1)),
    }));
    for (const f of files) d.files.set(f.id, { name: `${f.id}.mov`, mimeType: 'video/mp4', data: f.data });
    const started = await Promise.all(
      files.map((f) => h.start({ provider: 'google-drive', fileId: f.id, name: `${f.id}.mov` })),
    );
    for (const [i, s] of started.entries()) {
      expect((await h.waitFor(s.file.id, isComplete)).sha256).toBe(sha256(files[i]!.data));
    }
    const all = d.mediaRequests.map((r) => `${r.id} ${r.range}`);
    expect(all).toHaveLength(12);
    expect(new Set(all).size).toBe(12);
  });
});

/** A port that was free a moment ago: the entry point takes PORT from the environment. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function serverProcess(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join('dist', 'server.js')], {
    cwd: API_DIR,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child };
    if (Date.now() > until) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('cloud imports across a kill -9', () => {
  it('the restarted server resumes from the stored parts, not from zero', { timeout: 120_000 }, async () => {
    const d = await drive();
    const data = await tempDir();
    cleanups.push(data.remove);
    const env = {
      DATA_DIR: data.dir,
      WEB_DIST_DIR: data.dir,
      SESSION_SECRET: TEST_SECRET,
      GOOGLE_API_URL: d.url,
      // The killed process's lease runs out this long after its last renewal: the restart waits for it.
      IMPORT_LEASE_SECONDS: '3',
    };
    const bytes = randomBytes(8 * PART);
    d.files.set('f-kill', { name: 'kill.mov', mimeType: 'video/mp4', data: bytes });
    d.delayMs = 250;

    const first = await serverProcess(env);
    const client = new TestBrowser(first.url);
    expect((await client.post('/api/auth/register', registration())).status).toBe(201);
    const submission = await client.post<{ submission: { id: string } }>(
      '/api/uploads/submissions',
      sponsorForm,
    );
    const started = await client.post<{ file: UploadFileInfo }>(
      `/api/uploads/submissions/${submission.body.submission.id}/imports`,
      { provider: 'google-drive', fileId: 'f-kill', name: 'kill.mov' },
    );
    expect(started.status).toBe(201);
    const fileId = started.body.file.id;
    let stored: number[] = [];
    for (const until = Date.now() + 30_000; stored.length < 2 && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 50));
      stored =
        (await client.get<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}`)).body.file
          .receivedParts ?? [];
    }
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(stored.length).toBeGreaterThanOrEqual(2);
    const before = d.mediaRequests.length;

    const second = await serverProcess(env);
    const again = new TestBrowser(second.url);
    expect(
      (await again.post('/api/auth/login', { email: 'ada@example.com', password: 'Difference Engine 1843' }))
        .status,
    ).toBe(200);
    let file: UploadFileInfo | undefined;
    for (const until = Date.now() + 90_000; Date.now() < until;) {
      file = (await again.get<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}`)).body.file;
      if (file.status === 'complete') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(file?.sha256).toBe(sha256(bytes));
    const after = d.mediaRequests.slice(before).map((r) => r.range);
    for (const part of stored) expect(after).not.toContain(`bytes=${(part - 1) * PART}-${part * PART - 1}`);
    expect(after.length).toBeLessThanOrEqual(8 - stored.length + 4);
  });
});

import { randomBytes } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IMPORT_GAVE_UP,
  IMPORT_STORAGE_GAVE_UP,
  MAX_ATTEMPTS,
  startImportWorker,
} from '../src/modules/imports/worker.js';
import { startDriveStandIn } from './helpers/cloud-standins/drive.js';
import type { DriveStandIn } from './helpers/cloud-standins/drive.js';
import { createUploadStorage } from '../src/adapters/storage/index.js';
import { WHEN_STORAGE_IS_READY } from '../src/modules/imports/service.js';
import { DIALECTS, LogCapture } from './helpers/env.js';
import { startS3FaultProxy } from './helpers/fault-proxy.js';
import { sha256, startImportHarness } from './helpers/imports.js';
import type { ImportHarness } from './helpers/imports.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';

/**
 * Soak findings 9 and 10: a cloud import whose failures are our storage's, not the provider's. An import
 * whose S3 multipart upload was lost (its id never recorded by a process killed at the wrong moment, or
 * aborted by S3 itself, as a bucket's AbortIncompleteMultipartUpload rule does to an import that waited
 * for the client for days) must start a new upload and copy again from the start, not retry a join that
 * cannot work; and an import given up because S3 kept failing says so in words, not blaming the provider.
 */

const PART = UPLOAD_PART_SIZE;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

const NO_SUCH_UPLOAD = (id: string) =>
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code>' +
  '<Message>The specified upload does not exist. The upload ID may be invalid, or the upload may have been ' +
  `aborted or completed.</Message><UploadId>${id}</UploadId></Error>`;

/**
 * An HTTP relay in front of the S3 stand-in that answers a multipart call on an upload id S3 does not
 * hold as S3 does (404 NoSuchUpload, S3 docs 'Error responses'): s3rver itself creates the folder of an
 * unknown id on UploadPart. `expireUploads()` aborts every open multipart upload, as a bucket's
 * AbortIncompleteMultipartUpload lifecycle rule does.
 */
async function startRealUploadIds(target: string) {
  const open = new Set<string>();
  let refused = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const uploadId = url.searchParams.get('uploadId');
    if (uploadId !== null && !open.has(uploadId)) {
      refused++;
      req.resume();
      res.writeHead(404, { 'content-type': 'application/xml' }).end(NO_SUCH_UPLOAD(uploadId));
      return;
    }
    const creating = req.method === 'POST' && url.searchParams.has('uploads');
    const completing = req.method === 'POST' && uploadId !== null;
    const upstream = request(
      `${target}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          if (creating) {
            const id = /<UploadId>([^<]+)<\/UploadId>/.exec(body.toString())?.[1];
            if (id) open.add(id);
          }
          if (completing && answer.statusCode === 200) open.delete(uploadId);
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    expireUploads: () => open.clear(),
    get refused() {
      return refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function s3Endpoint(): Promise<string> {
  const s3 = await startS3StandIn();
  cleanups.push(() => s3.close());
  return s3.endpoint;
}

const s3Env = (endpoint: string, drive: DriveStandIn) => ({
  GOOGLE_API_URL: drive.url,
  STORAGE_DRIVER: 's3',
  S3_BUCKET: S3_STAND_IN_BUCKET,
  S3_ENDPOINT: endpoint,
  S3_FORCE_PATH_STYLE: 'true',
  S3_REGION: 'us-east-1',
  S3_MAX_ATTEMPTS: '2',
});

async function harness(options: Parameters<typeof startImportHarness>[0]): Promise<ImportHarness> {
  const h = await startImportHarness(options);
  cleanups.push(() => h.close());
  return h;
}

async function drive(): Promise<DriveStandIn> {
  const d = await startDriveStandIn();
  cleanups.push(() => d.close());
  return d;
}

describe.each(DIALECTS)('cloud imports and our S3 storage (%s)', (dialect) => {
  it('an import whose S3 upload id was never recorded is copied into a new upload and completes', async () => {
    const d = await drive();
    const h = await harness({ dialect, env: s3Env(await s3Endpoint(), d), retryBaseMs: 5 });
    // The process that adds the import stops before its worker takes it: the state a kill -9 (or a
    // PostgreSQL cut) between the file's row and its S3 upload id leaves, made here by hand.
    await h.worker.stop();
    const data = randomBytes(2 * PART + 777);
    d.files.set('f-noid', { name: 'noid.mov', mimeType: 'video/quicktime', data });
    const started = await h.start({
      provider: 'google-drive',
      fileId: 'f-noid',
      name: 'noid.mov',
      accessToken: 't',
    });
    expect(started.status).toBe(201);
    await h.t.db.models.SubmissionFile.update({ storageUploadId: null }, { where: { id: started.file.id } });

    const worker = startImportWorker({
      config: h.t.config,
      db: h.t.db,
      logger: h.t.logger,
      pollMs: 50,
      retryBaseMs: 5,
    });
    cleanups.push(() => worker.stop());
    const done = await h.waitFor(
      started.file.id,
      (f) => f.status === 'complete' || f.import?.status === 'failed',
      60_000,
    );
    expect(done.import?.error ?? null).toBeNull();
    expect(done.status).toBe('complete');
    expect(done.sha256).toBe(sha256(data));
    expect(sha256(await h.stored(started.file.id))).toBe(sha256(data));
  }, 90_000);

  it('an import whose S3 upload was aborted while it waited for the client copies again from the start', async () => {
    const d = await drive();
    const s3 = await startRealUploadIds(await s3Endpoint());
    cleanups.push(() => s3.close());
    const h = await harness({ dialect, env: s3Env(s3.url, d), retryBaseMs: 5 });
    const data = randomBytes(3 * PART + 4321);
    d.files.set('f-lost', { name: 'lost.mov', mimeType: 'video/quicktime', data });
    d.token = 'first';
    d.expireTokenAfter = 1;
    const started = await h.start({
      provider: 'google-drive',
      fileId: 'f-lost',
      name: 'lost.mov',
      accessToken: 'first',
    });
    const waiting = await h.waitFor(started.file.id, (f) => f.import?.status === 'needs_auth');
    expect(waiting.receivedParts?.length ?? 0).toBeGreaterThanOrEqual(1);

    // Days later: the bucket's lifecycle rule has aborted the incomplete upload; the client picks again.
    s3.expireUploads();
    d.token = 'second';
    const renewed = await h.client.post(`/api/uploads/imports/${started.file.id}/token`, {
      accessToken: 'second',
    });
    expect(renewed.status).toBe(200);

    // The import is settled after the file completes (it waits, boundedly, for the server's media facts):
    // wait for the import's own end, whose note of the restart is cleared then.
    const done = await h.waitFor(
      started.file.id,
      (f) => f.import?.status === 'complete' || f.import?.status === 'failed',
      60_000,
    );
    expect(done.status).toBe('complete');
    expect(done.import?.status).toBe('complete');
    expect(done.import?.error ?? null).toBeNull();
    expect(done.sha256).toBe(sha256(data));
    expect(sha256(await h.stored(started.file.id))).toBe(sha256(data));
    expect(s3.refused).toBeGreaterThan(0);
    // The first part, stored before the abort, was asked for again: the copy started over.
    const firstPart = `bytes=0-${PART - 1}`;
    expect(d.mediaRequests.filter((r) => r.range === firstPart).length).toBeGreaterThanOrEqual(2);
  }, 90_000);

  it('a join S3 carried out but whose record was lost: the object at its key is taken, nothing copied again', async () => {
    const d = await drive();
    const s3 = await startRealUploadIds(await s3Endpoint());
    cleanups.push(() => s3.close());
    const h = await harness({ dialect, env: s3Env(s3.url, d), retryBaseMs: 5 });
    const data = randomBytes(2 * PART + 5);
    d.files.set('f-joined', { name: 'joined.mov', mimeType: 'video/quicktime', data });
    const started = await h.start({
      provider: 'google-drive',
      fileId: 'f-joined',
      name: 'joined.mov',
      accessToken: 't',
    });
    const uploadId = (await h.t.db.models.SubmissionFile.findByPk(started.file.id))?.storageUploadId;
    expect(uploadId).toBeTruthy();
    await h.waitFor(started.file.id, (f) => f.status === 'complete' && f.import?.status === 'complete');
    const asked = d.mediaRequests.length;

    // What a PostgreSQL cut (or a kill) right after S3's CompleteMultipartUpload leaves: the object whole
    // in S3, its upload id gone there, and the rows still saying 'uploading' with that id.
    await h.t.db.models.SubmissionFile.update(
      { status: 'uploading', storageUploadId: uploadId!, sha256: null, completedAt: null },
      { where: { id: started.file.id } },
    );
    await h.t.db.models.FileImport.update(
      { status: 'queued', nextAttemptAt: 0, accessToken: null },
      { where: { fileId: started.file.id } },
    );
    h.worker.wake();

    const done = await h.waitFor(
      started.file.id,
      (f) => f.status === 'complete' && f.import?.status === 'complete',
    );
    expect(done.sha256).toBe(sha256(data));
    expect(sha256(await h.stored(started.file.id))).toBe(sha256(data));
    expect(s3.refused).toBeGreaterThan(0);
    expect(d.mediaRequests.length).toBe(asked);
  }, 90_000);

  it.each(['s3', 'local'])(
    'an import whose start was killed before its storage was prepared is taken over and completes (%s)',
    async (driver) => {
      const d = await drive();
      const env = driver === 's3' ? s3Env(await s3Endpoint(), d) : { GOOGLE_API_URL: d.url };
      const h = await harness({ dialect, env, retryBaseMs: 5 });
      await h.worker.stop();
      const data = randomBytes(PART + 321);
      d.files.set('f-killed', { name: 'killed.mov', mimeType: 'video/quicktime', data });
      const started = await h.start({
        provider: 'google-drive',
        fileId: 'f-killed',
        name: 'killed.mov',
        accessToken: 't',
      });
      expect(started.status).toBe(201);
      // What a kill -9 between the rows and the storage leaves, 20 minutes on: rows still waiting for the
      // storage (not due), no S3 upload id, nothing at the storage key; the client never picked again.
      const file = (await h.t.db.models.SubmissionFile.findByPk(started.file.id))!;
      await createUploadStorage(h.t.config).remove(file.storageKey, file.storageUploadId);
      await file.update({ storageUploadId: null });
      await h.t.db.models.FileImport.update(
        { nextAttemptAt: WHEN_STORAGE_IS_READY },
        { where: { fileId: file.id } },
      );
      await h.t.db.sequelize.query('UPDATE file_imports SET created_at = :at WHERE file_id = :id', {
        replacements: { at: new Date(Date.now() - 20 * 60_000), id: file.id },
      });

      const worker = startImportWorker({
        config: h.t.config,
        db: h.t.db,
        logger: h.t.logger,
        pollMs: 50,
        retryBaseMs: 5,
      });
      cleanups.push(() => worker.stop());
      const done = await h.waitFor(
        started.file.id,
        (f) => f.status === 'complete' || f.import?.status === 'failed',
        60_000,
      );
      expect(done.import?.error ?? null).toBeNull();
      expect(done.sha256).toBe(sha256(data));
      expect(sha256(await h.stored(started.file.id))).toBe(sha256(data));
    },
    90_000,
  );

  it('S3 failing on every call: the import fails naming our storage, not the provider, and the log says why', async () => {
    const d = await drive();
    const proxy = await startS3FaultProxy({ target: await s3Endpoint() });
    cleanups.push(() => proxy.close());
    const logs = new LogCapture();
    const h = await harness({ dialect, env: s3Env(proxy.url, d), retryBaseMs: 5, logs });
    const data = randomBytes(PART + 99);
    d.files.set('f-s3', { name: 's3.mov', mimeType: 'video/quicktime', data });
    await h.worker.stop();
    const started = await h.start({
      provider: 'google-drive',
      fileId: 'f-s3',
      name: 's3.mov',
      accessToken: 't',
    });
    expect(started.status).toBe(201);
    proxy.fault = { kind: 'internal' };
    const worker = startImportWorker({
      config: h.t.config,
      db: h.t.db,
      logger: h.t.logger,
      pollMs: 50,
      retryBaseMs: 5,
    });
    cleanups.push(() => worker.stop());

    const failed = await h.waitFor(started.file.id, (f) => f.import?.status === 'failed', 60_000);
    expect(failed.import?.error).toBe(IMPORT_STORAGE_GAVE_UP);
    expect(failed.import?.error).not.toBe(IMPORT_GAVE_UP);
    const row = await h.t.db.models.FileImport.findByPk(started.file.id);
    expect(row?.attempts).toBe(MAX_ATTEMPTS);
    const gaveUp = logs.lines.find((line) => String(line.msg).startsWith('cloud import given up'));
    expect(gaveUp?.msg).toBe('cloud import given up: our upload storage kept failing');
    expect(gaveUp?.cause).toBe('storage');
    expect(JSON.stringify(gaveUp?.err)).toContain('InternalError');
  }, 90_000);
});

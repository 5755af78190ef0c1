import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { startS3FaultProxy } from './helpers/fault-proxy.js';
import type { S3FaultKind, S3FaultProxy } from './helpers/fault-proxy.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';
import { fetchTransport, memorySource, sponsorForm, storedSha, uploadClient } from './helpers/uploads.js';

/**
 * Issue 28: the S3 server failing under an upload, through a fault proxy in front of the S3 stand-in that
 * answers 503 SlowDown or 500 InternalError (S3's error XML), resets connections, or answers late.
 * Calls the SDK can repeat are retried with backoff; a part (its body is the client's request, read
 * once) answers 503 storage_unavailable and the client sends it again; a completion whose answer was lost
 * is not left half-done.
 */

const PART = UPLOAD_PART_SIZE;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

/** Every other request meets the fault (deterministic, unlike a random share). */
function everyOther(): () => number {
  let n = 0;
  return () => (n++ % 2 === 0 ? 0 : 0.99);
}

async function s3App(
  random: () => number,
  env: Record<string, string> = {},
): Promise<{ app: TestApp; proxy: S3FaultProxy; ada: TestBrowser }> {
  const s3 = await startS3StandIn();
  cleanups.push(() => s3.close());
  const proxy = await startS3FaultProxy({ target: s3.endpoint, random });
  cleanups.push(() => proxy.close());
  const app = await startTestApp({
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: S3_STAND_IN_BUCKET,
      S3_ENDPOINT: proxy.url,
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
      ...env,
    },
  });
  cleanups.push(() => app.close());
  const ada = new TestBrowser(app.url);
  expect((await ada.post('/api/auth/register', registration())).status).toBe(201);
  return { app, proxy, ada };
}

describe('S3 failing under uploads', () => {
  it.each<S3FaultKind>(['slowdown', 'internal', 'reset'])(
    '%s on every other S3 request: the upload completes intact',
    async (kind) => {
      const { app, proxy, ada } = await s3App(everyOther());
      const client = uploadClient(fetchTransport(app.url, { cookie: ada.cookieHeader()! }), { retries: 8 });
      const submission = await client.createSubmission(sponsorForm);
      proxy.fault = { kind, share: 0.5 };
      const file = memorySource(2 * PART + 999, 'keynote.mov');
      const queue = client.queue(submission.id);
      queue.add(file.source);
      const [outcome] = await queue.settled();
      expect(outcome?.state).toBe('complete');
      expect(proxy.counts.faulted).toBeGreaterThan(0);
      proxy.fault = null;
      const fileId = queue.files[0]!.fileId!;
      const row = await app.db.models.SubmissionFile.findByPk(fileId);
      expect(row?.sha256).toBe(file.sha256);
      expect(await storedSha(app, fileId)).toBe(file.sha256);
    },
    60_000,
  );

  it('a part S3 keeps refusing answers 503 storage_unavailable with Retry-After, not 500', async () => {
    const { app, proxy, ada } = await s3App(() => 0, { S3_MAX_ATTEMPTS: '2' });
    const created = await ada.post<{ submission: { id: string } }>('/api/uploads/submissions', sponsorForm);
    const file = memorySource(1000);
    const registered = await ada.post<{ file: UploadFileInfo }>(
      `/api/uploads/submissions/${created.body.submission.id}/files`,
      { name: 'a.mov', size: 1000, type: 'video/quicktime', lastModified: 1 },
    );
    expect(registered.status).toBe(201);
    proxy.fault = { kind: 'slowdown' };
    const res = await fetch(`${app.url}/api/uploads/files/${registered.body.file.id}/parts/1`, {
      method: 'PUT',
      headers: { cookie: ada.cookieHeader()!, origin: app.url, 'content-type': 'application/octet-stream' },
      body: file.bytes,
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('storage_unavailable');
  });

  it('a completion S3 carried out but whose answer was lost is finished on the retry, not left half-done', async () => {
    let slowOnce = false;
    const { app, proxy, ada } = await s3App(
      () => {
        if (!slowOnce) return 0.99;
        slowOnce = false;
        return 0;
      },
      { S3_REQUEST_TIMEOUT_SECONDS: '1' },
    );
    const created = await ada.post<{ submission: { id: string } }>('/api/uploads/submissions', sponsorForm);
    const file = memorySource(PART + 4321);
    const registered = await ada.post<{ file: UploadFileInfo }>(
      `/api/uploads/submissions/${created.body.submission.id}/files`,
      { name: 'b.mov', size: file.bytes.length, type: 'video/quicktime', lastModified: 1 },
    );
    const fileId = registered.body.file.id;
    for (const [part, bytes] of [
      [1, file.bytes.subarray(0, PART)],
      [2, file.bytes.subarray(PART)],
    ] as const) {
      const res = await fetch(`${app.url}/api/uploads/files/${fileId}/parts/${part}`, {
        method: 'PUT',
        headers: { cookie: ada.cookieHeader()!, origin: app.url, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      expect(res.status).toBe(200);
    }
    // The next S3 request, CompleteMultipartUpload, reaches S3 but its answer comes after the SDK gave up.
    proxy.fault = { kind: 'slow', slowMs: 3_000, share: 0.5 };
    slowOnce = true;
    const completed = await ada.post<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}/complete`, {
      sha256: file.sha256,
    });
    expect(proxy.counts.faulted).toBe(1);
    expect(completed.status).toBe(200);
    expect(completed.body.file.status).toBe('complete');
    proxy.fault = null;
    expect(await storedSha(app, fileId)).toBe(file.sha256);
  }, 30_000);
});

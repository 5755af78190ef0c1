import { createHash, randomBytes } from 'node:crypto';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { onPostgres } from './helpers/env.js';
import { postgresBehindProxy } from './helpers/database-proxy.js';
import { startS3FaultProxy } from './helpers/fault-proxy.js';
import type { S3FaultProxy, TcpFaultProxy } from './helpers/fault-proxy.js';
import { s3StandInEnv, startS3StandIn } from './helpers/s3-stand-in.js';
import { sponsorForm, storedSha } from './helpers/uploads.js';

/**
 * Found by the soak (#34): a registration whose S3 upload began while PostgreSQL was cut could neither
 * record the upload's id on the file's row nor take the row back. The client's retry found the row again
 * and sent its parts with no upload to go to: S3 stored each as a whole object at the file's key, each
 * replacing the last, and the completion failed on every try ("join the parts: NotImplemented"). A part
 * now begins the upload its file lacks, and the file completes intact.
 */

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

const MIB = 1024 * 1024;

async function s3Behind(): Promise<{ env: Record<string, string>; proxy: S3FaultProxy; slowNext(): void }> {
  const s3 = await startS3StandIn();
  cleanups.push(() => s3.close());
  let slow = false;
  // The next S3 call only is answered late (and carried out at once): share 0.5, random 0 for that call.
  const proxy = await startS3FaultProxy({
    target: s3.endpoint,
    random: () => {
      if (!slow) return 0.99;
      slow = false;
      return 0;
    },
  });
  cleanups.push(() => proxy.close());
  proxy.fault = { kind: 'slow', share: 0.5, slowMs: 1_500 };
  return {
    proxy,
    slowNext: () => (slow = true),
    env: s3StandInEnv(proxy.url),
  };
}

async function putPart(app: TestApp, browser: TestBrowser, fileId: string, n: number, bytes: Buffer) {
  const res = await fetch(`${app.url}/api/uploads/files/${fileId}/parts/${n}`, {
    method: 'PUT',
    headers: {
      cookie: browser.cookieHeader()!,
      origin: app.url,
      'content-type': 'application/octet-stream',
    },
    body: bytes,
  });
  return res.status;
}

/** Sends both parts of `data` at once, completes, and checks the row's and the stored object's sha-256. */
async function sendAndCheck(app: TestApp, ada: TestBrowser, fileId: string, data: Buffer): Promise<void> {
  const statuses = await Promise.all([
    putPart(app, ada, fileId, 1, data.subarray(0, UPLOAD_PART_SIZE)),
    putPart(app, ada, fileId, 2, data.subarray(UPLOAD_PART_SIZE)),
  ]);
  expect(statuses).toEqual([200, 200]);
  const done = await ada.post<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}/complete`, {});
  expect(done.status).toBe(200);
  const sha = createHash('sha256').update(data).digest('hex');
  expect(done.body.file.sha256).toBe(sha);
  expect(await storedSha(app, fileId)).toBe(sha);
}

describe.runIf(
  onPostgres('a registration caught by a PostgreSQL restart between S3 and its row still completes intact'),
)('a registration caught by a PostgreSQL restart while S3 begins its upload', () => {
  it.each(['one file', 'a batch'] as const)(
    '%s: the retry finds the file, and its parts and completion go to an upload begun for it',
    async (how) => {
      const behind = await postgresBehindProxy();
      const pg: TcpFaultProxy = behind.proxy;
      cleanups.push(() => pg.close());
      cleanups.push(() => pg.accept());
      const s3 = await s3Behind();
      const app = await startTestApp({ dialect: 'postgres', env: { ...behind.env, ...s3.env } });
      cleanups.push(() => app.close());
      const ada = new TestBrowser(app.url);
      expect((await ada.post('/api/auth/register', registration())).status).toBe(201);
      const created = await ada.post<{ submission: { id: string } }>('/api/uploads/submissions', sponsorForm);
      const submissionId = created.body.submission.id;
      const data = randomBytes(UPLOAD_PART_SIZE + MIB);
      const spec = {
        name: 'spot.mp4',
        size: data.length,
        type: 'video/mp4',
        lastModified: 1_700_000_000_000,
      };
      const register = () =>
        how === 'one file'
          ? ada.post<{ file?: UploadFileInfo }>(`/api/uploads/submissions/${submissionId}/files`, spec)
          : ada.post<{ files?: Array<{ file?: UploadFileInfo }> }>(
              `/api/uploads/submissions/${submissionId}/files/batch`,
              { files: [spec] },
            );

      // S3 begins the upload at once but answers 1.5 s late; meanwhile PostgreSQL goes away.
      s3.slowNext();
      const first = register();
      const faultedBefore = s3.proxy.counts.faulted;
      while (s3.proxy.counts.faulted === faultedBefore) await new Promise((r) => setTimeout(r, 20));
      await pg.refuse();
      const answer = await first;
      // A batch answers each file on its own: the file's item carries the refusal.
      const refused =
        answer.status >= 500
          ? answer.status
          : (answer.body as { files: Array<{ error?: { status: number } }> }).files[0]?.error?.status;
      expect(refused).toBe(503);
      await pg.accept();
      const [row] = await app.db.sequelize.query<{ id: string; storage_upload_id: string | null }>(
        'SELECT id, storage_upload_id FROM submission_files WHERE submission_id = :submissionId',
        { replacements: { submissionId }, type: QueryTypes.SELECT },
      );
      // What the fault left: the row, with no upload recorded (the condition the fix is for).
      expect(row?.storage_upload_id).toBeNull();

      let again = await register();
      for (let tries = 0; again.status >= 500 && tries < 20; tries++) {
        await new Promise((r) => setTimeout(r, 250));
        again = await register();
      }
      expect(again.status).toBeLessThan(300);
      const found =
        'file' in again.body && again.body.file
          ? again.body.file
          : (again.body as { files: Array<{ file?: UploadFileInfo }> }).files[0]?.file;
      expect(found?.id).toBe(row!.id);

      await sendAndCheck(app, ada, row!.id, data);
    },
    60_000,
  );
});

describe('a file whose row lost its S3 upload (any database)', () => {
  it('two parts sent at once begin one upload between them, and the file completes intact', async () => {
    const s3 = await s3Behind();
    const app = await startTestApp({ env: s3.env });
    cleanups.push(() => app.close());
    const ada = new TestBrowser(app.url);
    expect((await ada.post('/api/auth/register', registration())).status).toBe(201);
    const created = await ada.post<{ submission: { id: string } }>('/api/uploads/submissions', sponsorForm);
    const data = randomBytes(UPLOAD_PART_SIZE + MIB);
    const registered = await ada.post<{ file: UploadFileInfo }>(
      `/api/uploads/submissions/${created.body.submission.id}/files`,
      { name: 'spot.mp4', size: data.length, type: 'video/mp4', lastModified: 1_700_000_000_000 },
    );
    expect(registered.status).toBe(201);
    const fileId = registered.body.file.id;
    // The state a process killed between S3's answer and the row's update leaves (no fault can aim at
    // that instant): the row without its upload.
    await app.db.models.SubmissionFile.update({ storageUploadId: null }, { where: { id: fileId } });

    await sendAndCheck(app, ada, fileId, data);
  }, 60_000);
});

import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { SERVICE_BRIEFLY_UNAVAILABLE, UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { onPostgres } from './helpers/env.js';
import { postgresBehindProxy } from './helpers/database-proxy.js';
import type { TcpFaultProxy } from './helpers/fault-proxy.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';
import { sponsorForm } from './helpers/uploads.js';
import { RENEW_MS } from '../src/modules/uploads/claims.js';

/**
 * Issue 28, found by the soak: a part whose whole body arrived, caught by a PostgreSQL restart on its way
 * to being recorded, was answered 400 part_aborted ("Part N was cut off before its end."), which blames
 * the client, and which no client retries: the browser user saw a failed file. The server's own failure
 * is a 503 with Retry-After.
 */

let t: TestApp | undefined;
let proxy: TcpFaultProxy | undefined;
let s3: Awaited<ReturnType<typeof startS3StandIn>> | undefined;
afterEach(async () => {
  await proxy?.accept().catch(() => undefined);
  await t?.close();
  await proxy?.close();
  await s3?.close();
  t = undefined;
  proxy = undefined;
  s3 = undefined;
});

/** Sends a part's first half, lets `between` break something, sends the rest; resolves with the answer. */
function putInTwoHalves(
  url: string,
  cookie: string,
  bytes: Buffer,
  between: () => Promise<void>,
): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'PUT',
      headers: {
        cookie,
        origin: new URL(url).origin,
        'content-type': 'application/octet-stream',
        'content-length': String(bytes.length),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'] as string | undefined,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    const half = Math.floor(bytes.length / 2);
    req.write(bytes.subarray(0, half), () => {
      between().then(
        () => req.end(bytes.subarray(half)),
        (error: unknown) => reject(error as Error),
      );
    });
  });
}

describe.runIf(onPostgres('a part caught by a PostgreSQL restart is answered 503, not blamed on the client'))(
  'a part caught by a PostgreSQL restart',
  () => {
    it.each(['local', 's3'] as const)(
      'on %s storage: answered 503 database_unavailable with Retry-After, and the same part is taken once it is back',
      async (storage) => {
        const behind = await postgresBehindProxy();
        proxy = behind.proxy;
        t = await startTestApp({
          dialect: 'postgres',
          env: {
            ...behind.env,
            ...(storage === 's3' ? await s3Env() : {}),
          },
        });
        const ada = new TestBrowser(t.url);
        expect((await ada.post('/api/auth/register', registration())).status).toBe(201);
        const created = await ada.post<{ submission: { id: string } }>(
          '/api/uploads/submissions',
          sponsorForm,
        );
        const data = randomBytes(UPLOAD_PART_SIZE + 100);
        const registered = await ada.post<{ file: UploadFileInfo }>(
          `/api/uploads/submissions/${created.body.submission.id}/files`,
          { name: 'spot.mp4', size: data.length, type: 'video/mp4', lastModified: 1_700_000_000_000 },
        );
        const fileId = registered.body.file.id;
        const partUrl = `${t.url}/api/uploads/files/${fileId}/parts/1`;
        const gap = proxy;

        const answer = await putInTwoHalves(
          partUrl,
          ada.cookieHeader()!,
          data.subarray(0, UPLOAD_PART_SIZE),
          async () => {
            await gap.refuse();
            // Past the claim's renewal time, so the part's next bytes meet the gap too, not only its record.
            await new Promise((resolve) => setTimeout(resolve, RENEW_MS + 500));
          },
        );
        expect(answer.status).toBe(503);
        expect(answer.retryAfter).toBeDefined();
        expect(JSON.parse(answer.body)).toMatchObject({
          error: { code: 'database_unavailable', message: SERVICE_BRIEFLY_UNAVAILABLE },
        });

        await gap.accept();
        // The part's claim was given up or runs out: the same part is taken again (busy answers retried).
        for (;;) {
          const again = await putInTwoHalves(
            partUrl,
            ada.cookieHeader()!,
            data.subarray(0, UPLOAD_PART_SIZE),
            () => Promise.resolve(),
          );
          if (again.status === 200) break;
          expect([409, 503]).toContain(again.status);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      },
      60_000,
    );
  },
);

async function s3Env(): Promise<Record<string, string>> {
  s3 = await startS3StandIn();
  return {
    STORAGE_DRIVER: 's3',
    S3_BUCKET: S3_STAND_IN_BUCKET,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_REGION: 'us-east-1',
  };
}

import { rm, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { localUploadsDir } from '../src/adapters/storage/index.js';
import { mailFilesDir } from '../src/adapters/mail/index.js';
import { migrateDown } from '../src/db/index.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { DIALECTS } from './helpers/env.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';

/** GET /api/ready (issue 35 item 2): 200 when this process can take traffic, else 503 naming what failed. */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const ALL_OK = { database: 'ok', migrations: 'ok', storage: 'ok', mail: 'ok' };

async function ready(app: TestApp): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const res = await app.request('/api/ready');
  expect(res.headers.get('cache-control')).toBe('no-store');
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

describe.each(DIALECTS)('GET /api/ready on %s', (dialect) => {
  it('200 with every check ok', async () => {
    t = await startTestApp({ dialect });
    expect(await ready(t)).toEqual({
      status: 200,
      retryAfter: null,
      body: { status: 'ready', checks: ALL_OK, failing: [] },
    });
  });

  it('503 naming storage when the uploads folder cannot be written, and ready again once it can', async () => {
    t = await startTestApp({ dialect });
    const uploads = localUploadsDir(t.config);
    await rm(uploads, { recursive: true, force: true });
    await writeFile(uploads, 'a file where the folder should be');
    expect(await ready(t)).toEqual({
      status: 503,
      retryAfter: '5',
      body: { status: 'unavailable', checks: { ...ALL_OK, storage: 'failed' }, failing: ['storage'] },
    });
    await rm(uploads);
    expect((await ready(t)).status).toBe(200);
  });

  it('503 naming migrations when the schema is behind the code', async () => {
    t = await startTestApp({ dialect });
    await migrateDown(t.db);
    const answer = await ready(t);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({
      failing: ['migrations'],
      checks: { database: 'ok', migrations: 'failed' },
    });
  });

  it('503 naming mail when there is no SMTP and the mail folder cannot be written; SMTP configured is enough', async () => {
    t = await startTestApp({ dialect });
    await writeFile(mailFilesDir(t.config), 'a file where the folder should be');
    expect((await ready(t)).body).toMatchObject({ failing: ['mail'] });
    await t.close();
    t = await startTestApp({ dialect, env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    expect((await ready(t)).status).toBe(200);
  });

  it('503 naming the database once it no longer answers', async () => {
    t = await startTestApp({ dialect });
    await t.db.close();
    expect((await ready(t)).body).toMatchObject({
      status: 'unavailable',
      checks: { database: 'failed', migrations: 'failed' },
    });
  });
});

describe('GET /api/ready with S3 storage', () => {
  it('asks the bucket (HeadBucket): ready while the S3 server answers, 503 naming storage once it is gone', async () => {
    const s3 = await startS3StandIn();
    let stopped = false;
    try {
      t = await startTestApp({
        env: {
          STORAGE_DRIVER: 's3',
          S3_BUCKET: S3_STAND_IN_BUCKET,
          S3_ENDPOINT: s3.endpoint,
          S3_FORCE_PATH_STYLE: 'true',
          S3_REGION: 'us-east-1',
          S3_MAX_ATTEMPTS: '1',
        },
      });
      expect((await ready(t)).status).toBe(200);
      await s3.close();
      stopped = true;
      expect((await ready(t)).body).toMatchObject({ failing: ['storage'] });
    } finally {
      if (!stopped) await s3.close();
    }
  });
});

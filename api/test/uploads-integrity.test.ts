import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { partRange, planUpload, UPLOAD_PART_SIZE } from '@avp/shared';
import type { SubmissionInfo, UploadFileInfo } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUploadStorage } from '../src/adapters/storage/index.js';
import type { Env } from '../src/config.js';
import { startPeerApp, startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import type { TestDialect } from './helpers/env.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';
import { CUT, interleavedPuts, sponsorForm } from './helpers/uploads.js';
import type { RawAnswer } from './helpers/uploads.js';

/**
 * What is stored is what was recorded: a part sent twice at once with different bytes, by one process or
 * two sharing the database and storage, leaves one whole body in place, and the sha-256 the server
 * records (or accepts from the client) is the sha-256 of the stored bytes, read back from storage.
 */

const PART = UPLOAD_PART_SIZE;
const ROUNDS = 12;
const SIZE = PART + 40_000;
const PLAN = planUpload(SIZE);

let s3: Awaited<ReturnType<typeof startS3StandIn>> | undefined;
beforeAll(async () => {
  s3 = await startS3StandIn();
});
afterAll(async () => {
  await s3?.close();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type StorageDriver = 'local' | 's3';
const CASES = DIALECTS.flatMap((dialect) =>
  (['local', 's3'] as const).map((driver): [TestDialect, StorageDriver] => [dialect, driver]),
);

async function app(dialect: TestDialect, driver: StorageDriver): Promise<TestApp> {
  const env: Env =
    driver === 's3'
      ? {
          STORAGE_DRIVER: 's3',
          S3_BUCKET: S3_STAND_IN_BUCKET,
          S3_ENDPOINT: s3!.endpoint,
          S3_FORCE_PATH_STYLE: 'true',
          S3_REGION: 'us-east-1',
        }
      : {};
  const t = await startTestApp({ dialect, env });
  cleanups.push(() => t.close());
  return t;
}

async function signedUp(t: TestApp): Promise<TestBrowser> {
  const browser = new TestBrowser(t.url);
  expect((await browser.post('/api/auth/register', registration())).status).toBe(201);
  return browser;
}

async function newFile(browser: TestBrowser, lastModified: number): Promise<UploadFileInfo> {
  const created = await browser.post<{ submission: SubmissionInfo }>('/api/uploads/submissions', sponsorForm);
  const registered = await browser.post<{ file: UploadFileInfo }>(
    `/api/uploads/submissions/${created.body.submission.id}/files`,
    { name: 'clip.mov', size: SIZE, type: 'video/quicktime', lastModified },
  );
  expect(registered.status).toBe(201);
  return registered.body.file;
}

function partBytes(part: number): Buffer {
  return randomBytes(partRange(PLAN, part).size);
}

/** A copy sent while another is being stored: told to try again, or cut off while still sending. */
function expectRefused(answer: RawAnswer) {
  if (answer.status === CUT) return;
  expect(answer).toMatchObject({ status: 409, body: { error: { code: 'part_in_progress' } } });
}

function headersOf(t: { url: string }, browser: TestBrowser): Record<string, string> {
  return { cookie: browser.cookieHeader()!, origin: t.url };
}

/** One part PUT to the process at `base` (this app or its peer). */
async function put(base: string, browser: TestBrowser, fileId: string, part: number, bytes: Buffer) {
  const url = `${base}/api/uploads/files/${fileId}/parts/${part}`;
  const [answer] = await interleavedPuts(url, headersOf({ url: base }, browser), [bytes]);
  return answer!;
}

/** The file as it sits in storage, read back through the driver. */
async function stored(t: TestApp, fileId: string): Promise<Buffer> {
  const row = await t.db.models.SubmissionFile.findByPk(fileId);
  const chunks: Buffer[] = [];
  for await (const chunk of await createUploadStorage(t.config).read(row!.storageKey))
    chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (...buffers: Buffer[]) => {
  const hash = createHash('sha256');
  for (const b of buffers) hash.update(b);
  return hash.digest('hex');
};

describe.each(CASES)('upload integrity on %s with %s storage', (dialect, driver) => {
  it(`keeps one whole body when a part is sent twice at once with different bytes (${ROUNDS} rounds)`, async () => {
    const t = await app(dialect, driver);
    const ada = await signedUp(t);
    for (let round = 0; round < ROUNDS; round++) {
      const file = await newFile(ada, 1_700_000_000_000 + round);
      // Each part in turn races, with the other part stored before or after it: the running hash meets
      // the race while streaming the part it needs next, and while holding a part ahead of it.
      const racing = (round % 2) + 1;
      const other = 3 - racing;
      const otherBytes = partBytes(other);
      const early = round % 4 >= 2;
      if (early) expect((await put(t.url, ada, file.id, other, otherBytes)).status).toBe(200);
      const bodies = [partBytes(racing), partBytes(racing)];
      const answers = await interleavedPuts(
        `${t.url}/api/uploads/files/${file.id}/parts/${racing}`,
        headersOf(t, ada),
        bodies,
      );
      for (const answer of answers) if (answer.status !== 200) expectRefused(answer);
      const accepted = bodies.filter((_, i) => answers[i]!.status === 200);
      expect(accepted.length).toBeGreaterThan(0);
      if (!early) expect((await put(t.url, ada, file.id, other, otherBytes)).status).toBe(200);

      const done = await ada.post<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}/complete`, {});
      expect(done.status).toBe(200);
      const bytes = await stored(t, file.id);
      const racingRange = partRange(PLAN, racing);
      const otherRange = partRange(PLAN, other);
      const kept = bytes.subarray(racingRange.start, racingRange.end);
      // One whole body, never a mix, and one that was answered 200.
      expect(accepted.some((body) => body.equals(kept))).toBe(true);
      expect(bytes.subarray(otherRange.start, otherRange.end).equals(otherBytes)).toBe(true);
      expect(done.body.file.sha256).toBe(sha256(bytes));
    }
  }, 120_000);

  it('verifies completion against the stored bytes when another process replaced a part', async () => {
    const t = await app(dialect, driver);
    const peer = await startPeerApp(t);
    cleanups.push(() => peer.close());
    const ada = await signedUp(t);
    const [first, second, replaced] = [partBytes(1), partBytes(2), partBytes(1)];
    const file = await newFile(ada, 1_700_000_000_000);

    // This process takes both parts in order (its running hash covers them), then another process is
    // sent part 1 again with other bytes: the client's checksum of what it first sent no longer holds.
    expect((await put(t.url, ada, file.id, 1, first)).status).toBe(200);
    expect((await put(t.url, ada, file.id, 2, second)).status).toBe(200);
    expect((await put(peer.url, ada, file.id, 1, replaced)).status).toBe(200);
    const refused = await ada.post(`/api/uploads/files/${file.id}/complete`, {
      sha256: sha256(first, second),
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: { code: 'checksum_mismatch' } });

    // The file started over; the same again, completed without a checksum of the client's.
    expect((await put(t.url, ada, file.id, 1, first)).status).toBe(200);
    expect((await put(t.url, ada, file.id, 2, second)).status).toBe(200);
    expect((await put(peer.url, ada, file.id, 1, replaced)).status).toBe(200);
    const done = await ada.post<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}/complete`, {});
    expect(done.status).toBe(200);
    const bytes = await stored(t, file.id);
    expect(bytes.equals(Buffer.concat([replaced, second]))).toBe(true);
    expect(done.body.file.sha256).toBe(sha256(replaced, second));
  });

  it('a claim left by a process that died holds its part only until it runs out', async () => {
    const t = await app(dialect, driver);
    const ada = await signedUp(t);
    const file = await newFile(ada, 1_700_000_000_000);
    const [first, second] = [partBytes(1), partBytes(2)];
    expect((await put(t.url, ada, file.id, 2, second)).status).toBe(200);
    // What a process killed while storing part 1 leaves behind: its claim, still running.
    await t.db.sequelize.query(
      'INSERT INTO upload_claims (file_id, part_number, token, expires_at) VALUES (:id, 1, :token, :at)',
      { replacements: { id: file.id, token: randomUUID(), at: Date.now() + 60_000 } },
    );
    const busy = await fetch(`${t.url}/api/uploads/files/${file.id}/parts/1`, {
      method: 'PUT',
      headers: { ...headersOf(t, ada), 'content-type': 'application/octet-stream' },
      body: first,
    });
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await busy.json()).toMatchObject({ error: { code: 'part_in_progress' } });
    // Nor can the file be completed while a part is (as far as anyone knows) being written.
    await t.db.models.FilePart.create({
      fileId: file.id,
      partNumber: 1,
      size: first.length,
      createdAt: new Date(),
    });
    const completing = await ada.post(`/api/uploads/files/${file.id}/complete`, {});
    expect(completing.status).toBe(409);
    expect(completing.body).toMatchObject({ error: { code: 'part_in_progress' } });

    // Once its lease has run out, the next writer of the part takes the claim over.
    await t.db.sequelize.query('UPDATE upload_claims SET expires_at = :at WHERE file_id = :id', {
      replacements: { id: file.id, at: Date.now() - 1 },
    });
    expect((await put(t.url, ada, file.id, 1, first)).status).toBe(200);
    const done = await ada.post<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}/complete`, {
      sha256: sha256(first, second),
    });
    expect(done.status).toBe(200);
    expect((await stored(t, file.id)).equals(Buffer.concat([first, second]))).toBe(true);
  });

  it('a write whose claim passed to another while it streamed records nothing and is told to try again', async () => {
    const t = await app(dialect, driver);
    const ada = await signedUp(t);
    const file = await newFile(ada, 1_700_000_000_000);
    const [first, second] = [partBytes(1), partBytes(2)];
    expect((await put(t.url, ada, file.id, 2, second)).status).toBe(200);

    // Half of part 1 arrives; then its claim passes to another writer, as when this one's lease runs out.
    const req = request(`${t.url}/api/uploads/files/${file.id}/parts/1`, {
      method: 'PUT',
      headers: {
        ...headersOf(t, ada),
        'content-type': 'application/octet-stream',
        'content-length': first.length,
      },
    });
    const answer = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        );
      });
    });
    req.write(first.subarray(0, first.length / 2));
    const claimed = async () =>
      (
        await t.db.sequelize.query(
          'SELECT token FROM upload_claims WHERE file_id = :id AND part_number = 1',
          {
            replacements: { id: file.id },
            type: QueryTypes.SELECT,
          },
        )
      ).length > 0;
    while (!(await claimed())) await new Promise((r) => setTimeout(r, 20));
    await t.db.sequelize.query(
      'UPDATE upload_claims SET token = :token WHERE file_id = :id AND part_number = 1',
      {
        replacements: { id: file.id, token: randomUUID() },
      },
    );
    req.end(first.subarray(first.length / 2));
    expect(await answer).toMatchObject({ status: 409, body: { error: { code: 'part_in_progress' } } });
    const status = await ada.get<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}`);
    expect(status.body.file.receivedParts).toEqual([2]);

    // Once the other writer's claim runs out, part 1 is stored and the file completes as sent.
    await t.db.sequelize.query('UPDATE upload_claims SET expires_at = :at WHERE file_id = :id', {
      replacements: { id: file.id, at: Date.now() - 1 },
    });
    expect((await put(t.url, ada, file.id, 1, first)).status).toBe(200);
    const done = await ada.post<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}/complete`, {
      sha256: sha256(first, second),
    });
    expect(done.status).toBe(200);
    expect((await stored(t, file.id)).equals(Buffer.concat([first, second]))).toBe(true);
  });

  it('the same bytes sent twice at once are stored once; the refused copy is told to try again', async () => {
    const t = await app(dialect, driver);
    const ada = await signedUp(t);
    const file = await newFile(ada, 1_700_000_000_000);
    const [first, second] = [partBytes(1), partBytes(2)];
    const answers = await interleavedPuts(
      `${t.url}/api/uploads/files/${file.id}/parts/1`,
      headersOf(t, ada),
      [first, first],
    );
    // Overlapping, the second is refused (the shared client retries it); one after the other, both land.
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const answer of answers.filter((a) => a.status !== 200)) expectRefused(answer);
    // Sent again later, it is simply stored again.
    expect((await put(t.url, ada, file.id, 1, first)).status).toBe(200);
    expect((await put(t.url, ada, file.id, 2, second)).status).toBe(200);
    const done = await ada.post<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}/complete`, {
      sha256: sha256(first, second),
    });
    expect(done.status).toBe(200);
  });
});

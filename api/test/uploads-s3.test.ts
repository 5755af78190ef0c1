import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../src/adapters/storage/index.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { startS3FaultProxy } from './helpers/fault-proxy.js';
import type { S3FaultProxy } from './helpers/fault-proxy.js';
import { s3StandInEnv, startS3StandIn } from './helpers/s3-stand-in.js';
import { memorySource, nodeClient, sponsorForm } from './helpers/uploads.js';

const PART = UPLOAD_PART_SIZE;

describe('upload protocol with STORAGE_DRIVER=s3 (s3rver standing in for S3)', () => {
  let s3: Awaited<ReturnType<typeof startS3StandIn>>;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3StandIn();
    t = await startTestApp({
      env: s3StandInEnv(s3.endpoint),
    });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('maps parts 1:1 onto a multipart upload, verifies the sha-256 and serves Range downloads', async () => {
    const ada = new TestBrowser(t.url);
    expect((await ada.post('/api/auth/register', registration())).status).toBe(201);
    const client = nodeClient(t.url, { cookie: ada.cookieHeader()! });
    const submission = await client.createSubmission(sponsorForm);
    const big = memorySource(PART * 2 + 77, 'promo.mp4');
    const empty = memorySource(0, 'empty.txt');
    const queue = client.queue(submission.id);
    queue.add(big.source);
    queue.add(empty.source);
    const outcomes = await queue.settled();
    expect(outcomes.map((o) => o.state)).toEqual(['complete', 'complete']);
    const [bigId, emptyId] = queue.files.map((f) => f.fileId!);
    const row = await t.db.models.SubmissionFile.findByPk(bigId);
    expect(row).toMatchObject({ sha256: big.sha256, storageKey: `submissions/${submission.id}/${bigId}` });
    expect(await t.db.models.FilePart.count({ where: { fileId: bigId! } })).toBe(3);

    // The object in the bucket is the file, byte for byte.
    const storage = new S3Storage({ ...t.config });
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read(row!.storageKey)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(big.bytes)).toBe(true);

    // A wrong-size part is refused before S3 sees it; a removed file's multipart upload is abandoned.
    const extra = memorySource(PART + 1, 'extra.mov');
    const registered = await client.registerFile(submission.id, extra.source);
    const short = await fetch(`${t.url}/api/uploads/files/${registered.id}/parts/1`, {
      method: 'PUT',
      headers: { cookie: ada.cookieHeader()!, origin: t.url, 'content-type': 'application/octet-stream' },
      body: extra.bytes.subarray(0, 10),
    });
    expect(short.status).toBe(400);
    await client.putPart(registered.id, 2, extra.bytes.subarray(PART));
    await client.removeFile(registered.id);
    expect(await t.db.models.SubmissionFile.findByPk(registered.id)).toBeNull();

    const sent = await client.submit(submission.id, [bigId!, emptyId!]);
    expect(sent.files.map((f: UploadFileInfo) => f.sha256)).toEqual([big.sha256, empty.sha256]);

    const password = 'Staff passphrase 9';
    await upsertStaffAccount(t.db, {
      email: 'grace@example.com',
      password,
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    const staff = new TestBrowser(t.url);
    await staff.post('/api/auth/login', { email: 'grace@example.com', password });
    const res = await fetch(`${t.url}/api/uploads/inbox/files/${bigId}/download`, {
      headers: { cookie: staff.cookieHeader()!, range: `bytes=${PART}-${PART + 99}` },
    });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).equals(big.bytes.subarray(PART, PART + 100))).toBe(true);
  });
});

describe('batch registration with STORAGE_DRIVER=s3', () => {
  let s3: Awaited<ReturnType<typeof startS3StandIn>>;
  let proxy: S3FaultProxy;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3StandIn();
    proxy = await startS3FaultProxy({ target: s3.endpoint });
    t = await startTestApp({
      env: s3StandInEnv(proxy.url),
    });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await s3?.close();
  });

  it("begins a batch's uploads a few at a time, not one after another", async () => {
    const ada = new TestBrowser(t.url);
    expect((await ada.post('/api/auth/register', registration())).status).toBe(201);
    const client = nodeClient(t.url, { cookie: ada.cookieHeader()! });
    const submission = await client.createSubmission(sponsorForm);
    const sources = Array.from({ length: 20 }, (_, i) => memorySource(1_000 + i, `promo-${i}.mp4`));
    // Each of S3's answers (CreateMultipartUpload, one per file) held back a little, as a distant S3's are.
    proxy.fault = { kind: 'slow', slowMs: 30 };
    const before = proxy.counts.forwarded;
    const items = (await client.registerFiles(
      submission.id,
      sources.map((s) => s.source),
    ))!;
    proxy.fault = null;
    expect(items.map((item) => ('file' in item ? item.file.status : item.error.code))).toEqual(
      sources.map(() => 'uploading'),
    );
    expect(proxy.counts.forwarded - before).toBe(20);
    // Eight at once, at most: the batch's storage work overlaps, and S3 is not flooded by one call.
    expect(proxy.inFlight.most).toBeGreaterThan(1);
    expect(proxy.inFlight.most).toBeLessThanOrEqual(8);
    // Each begun upload takes its bytes.
    const [first] = items;
    const file = 'file' in first! ? first.file : null;
    expect(file).not.toBeNull();
    expect((await client.putPart(file!.id, 1, sources[0]!.bytes))?.size).toBe(1_000);
  });
});

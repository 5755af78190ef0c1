import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { UPLOAD_BATCH_MAX, UPLOAD_PART_SIZE } from '@avp/shared';
import type { BatchRegistrationItem, SubmissionInfo, UploadFileInfo } from '@avp/shared';
import { QueryTypes } from 'sequelize';
import { afterEach, describe, expect, it } from 'vitest';
import { claimWrite } from '../src/modules/uploads/claims.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import type { TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { registeredClient, signedInStaff } from './helpers/staff.js';
import { fetchTransport, memorySource, sponsorForm, uploadClient } from './helpers/uploads.js';

/**
 * Many small files (issue #34): registering many files in one call (POST …/files/batch), completing a file
 * with the part PUT that makes it whole (?sha256=), and the shared client using both, beside the
 * per-file protocol older clients speak, which keeps working.
 */

const PART = UPLOAD_PART_SIZE;
type Err = { error: { code: string; message: string; fields?: Record<string, string> } };
type Batch = { files: BatchRegistrationItem[] } & Err;
type PartBody = { partNumber: number; size: number; file?: UploadFileInfo } & Err;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function newSubmission(browser: TestBrowser, form: object = sponsorForm): Promise<string> {
  const created = await browser.post<{ submission: SubmissionInfo }>('/api/uploads/submissions', form);
  expect(created.status).toBe(201);
  return created.body.submission.id;
}

const still = (i: number, size = 1_000, lastModified: number | null = 1_700_000_000_000) => ({
  name: `still-${i}.jpg`,
  size,
  type: 'image/jpeg',
  lastModified,
});

function batch(browser: TestBrowser, submissionId: string, files: unknown) {
  return browser.post<Batch>(`/api/uploads/submissions/${submissionId}/files/batch`, { files });
}

const fileOf = (item: BatchRegistrationItem | undefined) => {
  if (!item || !('file' in item)) throw new Error(`no file: ${JSON.stringify(item)}`);
  return item.file;
};

async function putPart(
  app: TestApp,
  browser: TestBrowser,
  fileId: string,
  part: number,
  bytes: Buffer,
  sha?: string,
) {
  const res = await fetch(
    `${app.url}/api/uploads/files/${fileId}/parts/${part}${sha === undefined ? '' : `?sha256=${sha}`}`,
    {
      method: 'PUT',
      headers: {
        cookie: browser.cookieHeader()!,
        origin: app.url,
        'content-type': 'application/octet-stream',
      },
      body: bytes,
    },
  );
  return { status: res.status, body: (await res.json()) as PartBody };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(DIALECTS)('many small files on %s', (dialect) => {
  it('registers many files in one call, in order, and a second call resumes them', async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const submissionId = await newSubmission(ada);
    const first = await batch(ada, submissionId, [still(1), still(2, PART + 1), still(3, 5, null)]);
    expect(first.status).toBe(200);
    expect(first.body.files.map((f) => ('created' in f ? f.created : f))).toEqual([true, true, true]);
    const files = first.body.files.map(fileOf);
    expect(files.map((f) => [f.name, f.size, f.partCount, f.status, f.receivedParts])).toEqual([
      ['still-1.jpg', 1_000, 1, 'uploading', []],
      ['still-2.jpg', PART + 1, 2, 'uploading', []],
      ['still-3.jpg', 5, 1, 'uploading', []],
    ]);

    // A part arrives; then the same files named again (a reload): the ones with a time resume, with the
    // parts the server holds; one named twice in a batch is one file.
    expect((await putPart(t, ada, files[1]!.id, 1, randomBytes(PART))).status).toBe(200);
    const again = await batch(ada, submissionId, [still(2, PART + 1), still(1), still(4), still(4)]);
    expect(again.status).toBe(200);
    const resumed = again.body.files.map(fileOf);
    expect(again.body.files.map((f) => 'created' in f && f.created)).toEqual([false, false, true, false]);
    expect(resumed[0]).toMatchObject({ id: files[1]!.id, receivedParts: [1] });
    expect(resumed[1]!.id).toBe(files[0]!.id);
    expect(resumed[3]!.id).toBe(resumed[2]!.id);

    // The submission lists them in the order named, and the one-file route still works beside it.
    const single = await ada.post<{ file: UploadFileInfo }>(
      `/api/uploads/submissions/${submissionId}/files`,
      still(5),
    );
    expect(single.status).toBe(201);
    const listed = await ada.get<{ submission: SubmissionInfo }>(`/api/uploads/submissions/${submissionId}`);
    expect(listed.body.submission.files.map((f) => f.name)).toEqual([
      'still-1.jpg',
      'still-2.jpg',
      'still-3.jpg',
      'still-4.jpg',
      'still-5.jpg',
    ]);
  });

  it('refuses bad input as a whole, and a file too large or over the quota on its own', async () => {
    t = await startTestApp({
      dialect,
      env: { UPLOAD_QUOTA_BYTES: String(PART * 3), UPLOAD_MAX_BYTES: String(PART * 2) },
    });
    const ada = await registeredClient(t);
    const submissionId = await newSubmission(ada);
    const count = async () =>
      (await ada.get<{ submission: SubmissionInfo }>(`/api/uploads/submissions/${submissionId}`)).body
        .submission.files.length;

    expect((await batch(ada, submissionId, [])).status).toBe(400);
    const tooMany = await batch(
      ada,
      submissionId,
      Array.from({ length: UPLOAD_BATCH_MAX + 1 }, (_, i) => still(i)),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('validation_failed');
    const oneBad = await batch(ada, submissionId, [still(1), { ...still(2), size: -1 }]);
    expect(oneBad.status).toBe(400);
    expect((await batch(ada, submissionId, 'files')).status).toBe(400);
    const version = await batch(ada, submissionId, [{ ...still(1), replaces: submissionId }]);
    expect(version.status).toBe(400);
    expect(await count()).toBe(0);

    // Within the quota in the order named; the rest are refused each with the one-file route's answer.
    const mixed = await batch(ada, submissionId, [
      still(1, PART * 2),
      still(2, PART * 2 + 1),
      still(3, PART),
      still(4, PART),
      still(5, 1),
    ]);
    expect(mixed.status).toBe(200);
    expect(mixed.body.files.map((f) => ('error' in f ? [f.error.status, f.error.code] : 'ok'))).toEqual([
      'ok',
      [413, 'file_too_large'],
      'ok',
      [413, 'upload_quota_exceeded'],
      [413, 'upload_quota_exceeded'],
    ]);
    const quota = mixed.body.files[3]!;
    expect('error' in quota && quota.error.message).toBe(
      'Your unfinished uploads would exceed the 18 MB limit (18 MB already in progress, and this file ' +
        'is 6 MB). Finish or remove some before adding more.',
    );
    expect(await count()).toBe(2);
  });

  it("answers another client's submission 404 and a sent one 409, registering nothing", async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const eve = await registeredClient(t, { email: 'eve@example.com' });
    const adas = await newSubmission(ada);
    const theirs = await batch(eve, adas, [still(1)]);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('submission_not_found');
    expect((await batch(eve, 'not-a-uuid', [still(1)])).status).toBe(404);
    expect(
      (await ada.get<{ submission: SubmissionInfo }>(`/api/uploads/submissions/${adas}`)).body.submission
        .files,
    ).toEqual([]);

    const file = fileOf((await batch(ada, adas, [still(1, 5)])).body.files[0]);
    const bytes = randomBytes(5);
    expect((await putPart(t, ada, file.id, 1, bytes, sha256(bytes))).status).toBe(200);
    expect((await ada.post(`/api/uploads/submissions/${adas}/submit`, {})).status).toBe(200);
    const sent = await batch(ada, adas, [still(2)]);
    expect(sent.status).toBe(409);
    expect(sent.body.error.code).toBe('already_submitted');
  });

  it('a closed event takes no new file in a batch, while files already in the submission resume', async () => {
    t = await startTestApp({ dialect });
    const { staff } = await signedInStaff(t);
    const made = await staff.post<{ event: { id: string } }>('/api/staff/upload-events', {
      name: 'Closing Soon',
      startsOn: '2099-03-03',
      endsOn: '2099-03-05',
      timeZone: 'America/New_York',
      deadline: '2099-03-01T17:00',
      specs: {},
    });
    expect(made.status).toBe(201);
    const ada = await registeredClient(t);
    const submissionId = await newSubmission(ada, { ...sponsorForm, event_name: 'Closing Soon' });
    const early = await batch(ada, submissionId, [still(1)]);
    expect(early.status).toBe(200);
    await t.db.models.UploadEvent.update(
      { deadline: new Date(Date.now() - 60_000) },
      { where: { id: made.body.event.id } },
    );
    const late = await batch(ada, submissionId, [still(1), still(2)]);
    expect(late.status).toBe(422);
    expect(late.body.error.code).toBe('uploads_closed');
    expect(late.body.error.message).toMatch(/^Uploads for Closing Soon closed on /);
    const resumed = await batch(ada, submissionId, [still(1)]);
    expect(resumed.status).toBe(200);
    expect(fileOf(resumed.body.files[0]).id).toBe(fileOf(early.body.files[0]).id);
  });

  it('completes a one-part file with its part PUT; a wrong sha-256 completes nothing', async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const eve = await registeredClient(t, { email: 'eve@example.com' });
    const submissionId = await newSubmission(ada);
    const [a, b, c] = (
      await batch(ada, submissionId, [still(1, 1_000), still(2, 1_000), still(3, PART + 10)])
    ).body.files.map(fileOf);
    const bytes = randomBytes(1_000);
    const status = async (id: string) =>
      (await ada.get<{ file: UploadFileInfo }>(`/api/uploads/files/${id}`)).body.file;

    // Not the owner: 404, nothing stored or completed.
    const foreign = await putPart(t, eve, a!.id, 1, bytes, sha256(bytes));
    expect(foreign.status).toBe(404);
    expect(await status(a!.id)).toMatchObject({ status: 'uploading', receivedParts: [] });

    // A malformed checksum is refused before a byte is stored.
    const malformed = await putPart(t, ada, a!.id, 1, bytes, 'abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('validation_failed');
    expect(await status(a!.id)).toMatchObject({ status: 'uploading', receivedParts: [] });

    // The wrong checksum: the mismatch, and the file starts over, not complete.
    const wrong = await putPart(t, ada, a!.id, 1, bytes, sha256(randomBytes(8)));
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toEqual({
      code: 'checksum_mismatch',
      message: 'The file received does not match its checksum.',
    });
    expect(await status(a!.id)).toMatchObject({ status: 'uploading', sha256: null, receivedParts: [] });

    // The right one: complete in the same request; the same PUT again answers the same.
    const right = await putPart(t, ada, a!.id, 1, bytes, sha256(bytes).toUpperCase());
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({
      partNumber: 1,
      size: 1_000,
      file: { status: 'complete', sha256: sha256(bytes) },
    });
    const repeated = await putPart(t, ada, a!.id, 1, bytes, sha256(bytes));
    expect(repeated.status).toBe(200);
    expect(repeated.body).toMatchObject({ partNumber: 1, size: 1_000, file: { status: 'complete' } });
    expect((await putPart(t, ada, a!.id, 1, bytes, sha256(randomBytes(8)))).status).toBe(422);
    expect(await status(a!.id)).toMatchObject({ status: 'complete', sha256: sha256(bytes) });

    // Without the checksum a part is only stored, as before; completion is its own call.
    const plain = await putPart(t, ada, b!.id, 1, bytes);
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ partNumber: 1, size: 1_000 });
    expect((await status(b!.id)).status).toBe('uploading');
    expect((await ada.post(`/api/uploads/files/${b!.id}/complete`, { sha256: sha256(bytes) })).status).toBe(
      200,
    );

    // A file of two parts: the checksum with a part while another is missing stores it and waits.
    const whole = randomBytes(PART + 10);
    const early = await putPart(t, ada, c!.id, 2, whole.subarray(PART), sha256(whole));
    expect(early.status).toBe(200);
    expect(early.body.file).toBeUndefined();
    expect(await status(c!.id)).toMatchObject({ status: 'uploading', receivedParts: [2] });
    const last = await putPart(t, ada, c!.id, 1, whole.subarray(0, PART), sha256(whole));
    expect(last.status).toBe(200);
    expect(last.body.file).toMatchObject({ status: 'complete', sha256: sha256(whole) });
  });

  it("claims a part, or a completion, of the caller's own file in the statement that finds it", async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const eve = await registeredClient(t, { email: 'eve@example.com' });
    const submissionId = await newSubmission(ada);
    const [c] = (await batch(ada, submissionId, [still(1, PART + 10)])).body.files.map(fileOf);
    const whole = randomBytes(PART + 10);
    const seen: string[] = [];
    let recording = false;
    t.db.sequelize.addHook('afterQuery', (_options, query) => {
      if (recording) seen.push((query as { sql?: string }).sql ?? '');
    });
    const during = async <T>(work: () => Promise<T>): Promise<T> => {
      seen.length = 0;
      recording = true;
      try {
        return await work();
      } finally {
        recording = false;
      }
    };
    // The first statement of the write that touches the file or its claims claims it, and finds it the
    // caller's own in doing so: no look at the file before.
    const firstOnTheFile = () => seen.find((sql) => /submission_files|upload_claims/.test(sql)) ?? '';

    // Another client's write: 404, as before, and no claim taken on a file not its own.
    const foreign = await during(() => putPart(t!, eve, c!.id, 1, whole.subarray(0, PART)));
    expect(foreign.status).toBe(404);
    const claims = () =>
      t!.db.sequelize.query('SELECT file_id FROM upload_claims', { type: QueryTypes.SELECT });
    expect(await claims()).toEqual([]);

    const first = await during(() => putPart(t!, ada, c!.id, 1, whole.subarray(0, PART)));
    expect(first).toEqual({ status: 200, body: { partNumber: 1, size: PART } });
    expect(firstOnTheFile()).toMatch(/INSERT INTO upload_claims/);
    expect(firstOnTheFile()).toMatch(/s\.user_id/);
    // The session, the claim, the look under it, the record, and on SQLite the claim given back.
    expect(seen).toHaveLength(dialect === 'postgres' ? 4 : 5);

    // A part another write holds is refused as before (the claim found taken, the slower look answers).
    const held = await claimWrite(t.db, c!.id, 2);
    const refused = await putPart(t, ada, c!.id, 2, whole.subarray(PART));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('part_in_progress');
    await held!.release();
    expect((await putPart(t, ada, c!.id, 2, whole.subarray(PART))).status).toBe(200);

    const done = await during(() =>
      ada.post<{ file: UploadFileInfo }>(`/api/uploads/files/${c!.id}/complete`, { sha256: sha256(whole) }),
    );
    expect(done.status).toBe(200);
    expect(done.body.file).toMatchObject({ status: 'complete', sha256: sha256(whole) });
    expect(firstOnTheFile()).toMatch(/INSERT INTO upload_claims/);
    expect(firstOnTheFile()).toMatch(/s\.user_id/);
    // Complete: the same call again answers from the slower look, as before.
    expect((await ada.post(`/api/uploads/files/${c!.id}/complete`, { sha256: sha256(whole) })).status).toBe(
      200,
    );
    expect(await claims()).toEqual([]);
  });

  it('a part PUT with the checksum cut off mid-part completes nothing; sent again whole, it completes', async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const submissionId = await newSubmission(ada);
    const file = fileOf((await batch(ada, submissionId, [still(1, 200_000)])).body.files[0]);
    const bytes = randomBytes(200_000);
    const url = new URL(`${t.url}/api/uploads/files/${file.id}/parts/1?sha256=${sha256(bytes)}`);
    await new Promise<void>((resolve) => {
      const req = request(url, {
        method: 'PUT',
        headers: {
          cookie: ada.cookieHeader()!,
          origin: t!.url,
          'content-type': 'application/octet-stream',
          'content-length': String(bytes.length),
        },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(bytes.subarray(0, 100_000), () => setTimeout(() => req.destroy(), 100));
    });
    const after = await ada.get<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}`);
    expect(after.body.file).toMatchObject({ status: 'uploading', receivedParts: [] });
    // Once the server has let the cut part go (a moment, or its claim's lease), the whole part completes.
    let answer = await putPart(t, ada, file.id, 1, bytes, sha256(bytes));
    for (let i = 0; i < 30 && answer.status === 409; i++) {
      await new Promise((r) => setTimeout(r, 500));
      answer = await putPart(t, ada, file.id, 1, bytes, sha256(bytes));
    }
    expect(answer.status).toBe(200);
    expect(answer.body.file).toMatchObject({ status: 'complete', sha256: sha256(bytes) });
  });

  it('a one-part file sent with its checksum keeps every other write of it out until it is complete', async () => {
    t = await startTestApp({ dialect });
    const app = t;
    const ada = await registeredClient(t);
    const submissionId = await newSubmission(ada);
    const [a, b] = (await batch(ada, submissionId, [still(1, 200_000), still(2, 200_000)])).body.files.map(
      fileOf,
    );
    const bytes = randomBytes(200_000);
    const status = async (id: string) =>
      (await ada.get<{ file: UploadFileInfo }>(`/api/uploads/files/${id}`)).body.file;

    // Half of the part sent, the rest held back: the file is being written and completed in that request.
    const url = new URL(`${t.url}/api/uploads/files/${a!.id}/parts/1?sha256=${sha256(bytes)}`);
    const req = request(url, {
      method: 'PUT',
      headers: {
        cookie: ada.cookieHeader()!,
        origin: t.url,
        'content-type': 'application/octet-stream',
        'content-length': String(bytes.length),
      },
    });
    const answered = new Promise<{ status: number; body: PartBody }>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as PartBody }));
      });
    });
    req.write(bytes.subarray(0, 100_000));
    const claimedNow = async (id: string) =>
      (
        await app.db.sequelize.query('SELECT 1 FROM upload_claims WHERE file_id = :id', {
          replacements: { id },
          type: QueryTypes.SELECT,
        })
      ).length > 0;
    for (let i = 0; i < 100 && !(await claimedNow(a!.id)); i++) await new Promise((r) => setTimeout(r, 20));

    // The same part without the checksum, with it, and a completion: each told to try again, none stored.
    const plain = await putPart(t, ada, a!.id, 1, randomBytes(200_000));
    expect(plain.status).toBe(409);
    expect(plain.body.error.code).toBe('completion_in_progress');
    const again = await putPart(t, ada, a!.id, 1, bytes, sha256(bytes));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('completion_in_progress');
    const completion = await ada.post<Err>(`/api/uploads/files/${a!.id}/complete`, { sha256: sha256(bytes) });
    expect(completion.status).toBe(409);
    expect(completion.body.error.code).toBe('completion_in_progress');

    req.end(bytes.subarray(100_000));
    const first = await answered;
    expect(first.status).toBe(200);
    expect(first.body.file).toMatchObject({ status: 'complete', sha256: sha256(bytes) });
    expect(await status(a!.id)).toMatchObject({ status: 'complete', sha256: sha256(bytes) });
    expect(
      await app.db.sequelize.query('SELECT part_number FROM file_parts WHERE file_id = :id', {
        replacements: { id: a!.id },
        type: QueryTypes.SELECT,
      }),
    ).toEqual([{ part_number: 1 }]);

    // A part of the wrong size is refused, and the claim it found the file with let go at once.
    const short = await putPart(t, ada, b!.id, 1, bytes.subarray(0, 1_000), sha256(bytes));
    expect(short.status).toBe(400);
    expect(short.body.error.code).toBe('bad_part_size');
    expect(await claimedNow(b!.id)).toBe(false);

    // A part write of the file under way (its claim live): the part with the checksum waits for it.
    const busy = (await claimWrite(t.db, b!.id, 1))!;
    const refused = await putPart(t, ada, b!.id, 1, bytes, sha256(bytes));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('part_in_progress');
    expect(await status(b!.id)).toMatchObject({ status: 'uploading', receivedParts: [] });
    await busy.release();
    const done = await putPart(t, ada, b!.id, 1, bytes, sha256(bytes));
    expect(done.status).toBe(200);
    expect(done.body.file).toMatchObject({ status: 'complete', sha256: sha256(bytes) });
  });

  it('the shared client sends a folder of small files in a handful of requests', async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const requests: string[] = [];
    const inner = fetchTransport(t.url, { cookie: ada.cookieHeader()! });
    const client = uploadClient(async (req) => {
      requests.push(`${req.method} ${req.path.replace(/[0-9a-f-]{36}/g, ':id').replace(/\?.*$/, '')}`);
      return inner(req);
    });
    const submission = await client.createSubmission(sponsorForm);
    const queue = client.queue(submission.id);
    const sources = Array.from({ length: 12 }, (_, i) =>
      memorySource(i === 5 ? PART + 3 : 2_000 + i, `still-${i}.jpg`),
    );
    const uploads = sources.map((s) => queue.add(s.source));
    const outcomes = await queue.settled();
    expect(outcomes.map((o) => o.state)).toEqual(sources.map(() => 'complete'));
    outcomes.forEach((o, i) => expect(o.state === 'complete' && o.file.sha256).toBe(sources[i]!.sha256));
    const sent = await client.submit(
      submission.id,
      uploads.map((u) => u.fileId!),
    );
    expect(sent.files.map((f) => f.name)).toEqual(sources.map((s) => s.source.name));
    // The answer is built from the files the call read before sending (#34): the same as a fresh read.
    expect(sent).toEqual(await client.getSubmission(submission.id));
    // One batch registration, a bundle of the small files before the two-part file and one of those
    // after it (each file completed in it), and the two parts of the two-part file, its last part sent
    // with its sha-256 once the first was stored: the server completed it in that request.
    const count = (r: string) => requests.filter((x) => x === r).length;
    expect(count('POST /api/uploads/submissions/:id/files/batch')).toBe(1);
    expect(count('POST /api/uploads/submissions/:id/files')).toBe(0);
    expect(count('POST /api/uploads/bundles')).toBe(2);
    expect(count('PUT /api/uploads/files/:id/parts/1') + count('PUT /api/uploads/files/:id/parts/2')).toBe(2);
    expect(count('POST /api/uploads/files/:id/complete')).toBe(0);
  });
});

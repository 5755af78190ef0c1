import { stat } from 'node:fs/promises';
import path from 'node:path';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { InboxSubmission, SubmissionInfo, UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { localUploadsDir } from '../src/adapters/storage/index.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { startUploadCleanup } from '../src/modules/uploads/index.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS, LogCapture } from './helpers/env.js';
import { memorySource, nodeClient, sponsorForm } from './helpers/uploads.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PART = UPLOAD_PART_SIZE;

async function signedUp(app: TestApp, email = 'ada@example.com'): Promise<TestBrowser> {
  const browser = new TestBrowser(app.url);
  const { status } = await browser.post('/api/auth/register', registration({ email }));
  expect(status).toBe(201);
  return browser;
}

async function staffBrowser(app: TestApp): Promise<TestBrowser> {
  const password = 'Staff passphrase 9';
  await upsertStaffAccount(app.db, {
    email: 'grace@example.com',
    password,
    firstName: 'Grace',
    lastName: 'Hopper',
  });
  const browser = new TestBrowser(app.url);
  expect((await browser.post('/api/auth/login', { email: 'grace@example.com', password })).status).toBe(200);
  return browser;
}

/** A raw part PUT, as the client sends it. */
function putPart(app: TestApp, browser: TestBrowser, fileId: string, part: number, bytes: Uint8Array) {
  return fetch(`${app.url}/api/uploads/files/${fileId}/parts/${part}`, {
    method: 'PUT',
    headers: {
      cookie: browser.cookieHeader() ?? '',
      origin: app.url,
      'content-type': 'application/octet-stream',
    },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
}

async function newFile(browser: TestBrowser, size: number, extra: Record<string, unknown> = {}) {
  const created = await browser.post<{ submission: SubmissionInfo }>('/api/uploads/submissions', sponsorForm);
  expect(created.status).toBe(201);
  const id = created.body.submission.id;
  const registered = await browser.post<{ file: UploadFileInfo }>(`/api/uploads/submissions/${id}/files`, {
    name: 'clip.mov',
    size,
    type: 'video/quicktime',
    lastModified: 1_700_000_000_000,
    ...extra,
  });
  expect(registered.status).toBe(201);
  return { submissionId: id, file: registered.body.file };
}

describe.each(DIALECTS)('upload protocol on %s', (dialect) => {
  it('takes two files through the shared client, submits, mails, and serves them to staff with Range', async () => {
    t = await startTestApp({ dialect });
    const ada = await signedUp(t);
    const client = nodeClient(t.url, { cookie: ada.cookieHeader()! });
    const submission = await client.createSubmission(sponsorForm);
    const big = memorySource(PART * 2 + 1234, 'keynote "final".mov');
    const small = memorySource(999, 'logo.png');
    const queue = client.queue(submission.id);
    queue.add(big.source);
    queue.add(small.source);
    const outcomes = await queue.settled();
    expect(outcomes.map((o) => o.state)).toEqual(['complete', 'complete']);
    expect(queue.progress()).toMatchObject({ percent: 100, sentBytes: big.bytes.length + 999 });
    const ids = queue.files.map((f) => f.fileId!);
    const sent = await client.submit(submission.id, ids);
    expect(sent.status).toBe('submitted');
    expect(sent.files.map((f) => [f.name, f.sha256])).toEqual([
      ['keynote "final".mov', big.sha256],
      ['logo.png', small.sha256],
    ]);

    // The bytes sit under DATA_DIR/uploads at a path of server ids, never the user's file name.
    const stored = path.join(localUploadsDir(t.config), 'submissions', submission.id, ids[0]!);
    expect((await stat(stored)).size).toBe(big.bytes.length);

    const mails = await t.db.models.MailOutbox.findAll({ order: [['id', 'ASC']] });
    expect(mails.map((m) => m.toAddress)).toEqual([t.config.STAFF_EMAIL, 'ada@example.com']);
    expect(mails[0]!.textBody).toContain(`/staff/uploads?submission=${submission.id}`);
    expect(mails[1]!.textBody).toContain('logo.png');

    const staff = await staffBrowser(t);
    const inbox = await staff.get<{ submissions: InboxSubmission[] }>(
      '/api/uploads/inbox?form_type=sponsor&handled=no',
    );
    expect(inbox.body.submissions).toHaveLength(1);
    expect(inbox.body.submissions[0]).toMatchObject({
      formType: 'sponsor',
      fields: { event_name: 'Expo 2027', sponsor_company: 'Acme AV' },
      client: { email: 'ada@example.com', company: 'Analytical Engines Ltd' },
      handledAt: null,
    });
    expect(
      (await staff.get<{ submissions: unknown[] }>('/api/uploads/inbox?form_type=event')).body.submissions,
    ).toEqual([]);

    const download = `${t.url}/api/uploads/inbox/files/${ids[0]}/download`;
    const cookie = staff.cookieHeader()!;
    const whole = await fetch(download, { headers: { cookie } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition')).toBe('attachment; filename="keynote \\"final\\".mov"');
    expect(Buffer.from(await whole.arrayBuffer()).equals(big.bytes)).toBe(true);
    const part = await fetch(download, { headers: { cookie, range: `bytes=${PART - 2}-${PART + 1}` } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes ${PART - 2}-${PART + 1}/${big.bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(big.bytes.subarray(PART - 2, PART + 2))).toBe(true);
    expect((await fetch(download, { headers: { cookie, range: 'bytes=-3' } })).status).toBe(206);
    expect((await fetch(download, { headers: { cookie, range: `bytes=${big.bytes.length}-` } })).status).toBe(
      416,
    );

    const handled = await staff.put(`/api/uploads/inbox/${submission.id}/handled`, { handled: true });
    expect(handled.status).toBe(200);
    expect(
      (await staff.get<{ submissions: unknown[] }>('/api/uploads/inbox?handled=no')).body.submissions,
    ).toEqual([]);
    expect(
      (await staff.get<{ submissions: unknown[] }>('/api/uploads/inbox?handled=yes')).body.submissions,
    ).toHaveLength(1);
    expect(await t.db.models.AuditLog.count({ where: { action: 'upload_mark_handled' } })).toBe(1);
  });

  it('names a download after its file, non-ASCII letters included, and answers Range as before', async () => {
    t = await startTestApp({ dialect });
    const ada = await signedUp(t);
    const client = nodeClient(t.url, { cookie: ada.cookieHeader()! });
    const submission = await client.createSubmission(sponsorForm);
    const accented = memorySource(10, 'Café menu – 2027.pdf');
    const queue = client.queue(submission.id);
    queue.add(accented.source);
    await queue.settled();
    const [id] = queue.files.map((f) => f.fileId!);
    await client.submit(submission.id, [id!]);
    const cookie = (await staffBrowser(t)).cookieHeader()!;
    const download = (range?: string) =>
      fetch(`${t!.url}/api/uploads/inbox/files/${id}/download`, {
        headers: { cookie, ...(range === undefined ? {} : { range }) },
      });

    const whole = await download();
    expect(whole.headers.get('content-disposition')).toBe(
      `attachment; filename="Caf? menu ? 2027.pdf"; filename*=UTF-8''Caf%C3%A9%20menu%20%E2%80%93%202027.pdf`,
    );
    expect(whole.headers.get('content-type')).toBe('application/octet-stream');
    // A suffix longer than the file selects all of it (RFC 9110 §14.1.3).
    const suffix = await download('bytes=-100');
    expect([suffix.status, suffix.headers.get('content-range')]).toEqual([206, 'bytes 0-9/10']);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(accented.bytes)).toBe(true);
    // Several ranges, another unit or a malformed header: the whole file.
    for (const range of ['bytes=0-1,4-5', 'bytes=0-1,100-', 'items=0-1', 'bytes=abc']) {
      const res = await download(range);
      expect([range, res.status, (await res.arrayBuffer()).byteLength]).toEqual([range, 200, 10]);
    }
    for (const range of ['bytes=5-2', 'bytes=-0', 'bytes=10-']) {
      const res = await download(range);
      expect([range, res.status, res.headers.get('content-range')]).toEqual([range, 416, 'bytes */10']);
    }
  });

  it('accepts parts out of order and twice; refuses wrong sizes, missing parts and a wrong checksum', async () => {
    t = await startTestApp({ dialect });
    const ada = await signedUp(t);
    const { bytes, sha256 } = memorySource(PART * 2 + 10);
    const { file } = await newFile(ada, bytes.length);
    expect(file).toMatchObject({ partSize: PART, partCount: 3, receivedParts: [] });
    const slice = (n: number) => bytes.subarray((n - 1) * PART, Math.min(n * PART, bytes.length));

    expect((await putPart(t, ada, file.id, 3, slice(3))).status).toBe(200);
    expect((await putPart(t, ada, file.id, 1, slice(1))).status).toBe(200);
    expect((await putPart(t, ada, file.id, 1, slice(1))).status).toBe(200);
    // Wrong size: a short part, and a last part of a full part's length.
    const short = await putPart(t, ada, file.id, 2, slice(2).subarray(1));
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ error: { code: 'bad_part_size' } });
    expect((await putPart(t, ada, file.id, 3, slice(1))).status).toBe(400);
    expect((await putPart(t, ada, file.id, 4, slice(3))).status).toBe(400);

    const status = await ada.get<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}`);
    expect(status.body.file.receivedParts).toEqual([1, 3]);
    const early = await ada.post(`/api/uploads/files/${file.id}/complete`, { sha256 });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: { code: 'parts_missing' } });

    expect((await putPart(t, ada, file.id, 2, slice(2))).status).toBe(200);
    const wrong = await ada.post(`/api/uploads/files/${file.id}/complete`, { sha256: 'a'.repeat(64) });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ error: { code: 'checksum_mismatch' } });
    // A mismatch starts the file over: every part must come again.
    expect(
      (await ada.get<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}`)).body.file.receivedParts,
    ).toEqual([]);
    for (const n of [2, 3, 1]) expect((await putPart(t, ada, file.id, n, slice(n))).status).toBe(200);
    const done = await ada.post<{ file: UploadFileInfo }>(`/api/uploads/files/${file.id}/complete`, {
      sha256,
    });
    expect(done.status).toBe(200);
    expect(done.body.file).toMatchObject({ status: 'complete', sha256, size: bytes.length });
  });

  it('logs a stored part at debug only, a refused part at warn and the completion at info', async () => {
    const logs = new LogCapture();
    t = await startTestApp({ dialect, logs });
    const ada = await signedUp(t);
    const { bytes, sha256 } = memorySource(PART + 10);
    const { file } = await newFile(ada, bytes.length);
    const stored = await putPart(t, ada, file.id, 1, bytes.subarray(0, PART));
    const refused = await putPart(t, ada, file.id, 2, bytes.subarray(0, 9));
    expect([stored.status, refused.status]).toEqual([200, 400]);
    expect((await putPart(t, ada, file.id, 2, bytes.subarray(PART))).status).toBe(200);
    expect((await ada.post(`/api/uploads/files/${file.id}/complete`, { sha256 })).status).toBe(200);

    const lineOf = (res: Response) =>
      logs.lines.find((l) => l.msg === 'request completed' && l.reqId === res.headers.get('x-request-id'));
    // pino's levels: 20 debug, 30 info, 40 warn.
    expect(lineOf(stored)).toMatchObject({ level: 20, res: { statusCode: 200 } });
    expect(lineOf(refused)).toMatchObject({ level: 40, res: { statusCode: 400 } });
    const completions = logs.lines.filter(
      (l) => l.msg === 'request completed' && (l.req as { url: string }).url.endsWith('/complete'),
    );
    expect(completions).toMatchObject([{ level: 30, res: { statusCode: 200 } }]);
  });

  it("answers 404 for another user's submission and file, 401 signed out, 413 above the size limit", async () => {
    t = await startTestApp({ dialect, env: { UPLOAD_MAX_BYTES: String(PART * 3) } });
    const ada = await signedUp(t);
    const { submissionId, file } = await newFile(ada, 100);
    const eve = await signedUp(t, 'eve@example.com');
    const submissionMissing = { error: { code: 'submission_not_found', message: 'No such submission.' } };
    const fileMissing = { error: { code: 'file_not_found', message: 'No such file.' } };
    const asked = await eve.get(`/api/uploads/submissions/${submissionId}`);
    expect([asked.status, asked.body]).toEqual([404, submissionMissing]);
    const added = await eve.post(`/api/uploads/submissions/${submissionId}/files`, { name: 'x', size: 1 });
    expect([added.status, added.body]).toEqual([404, submissionMissing]);
    const looked = await eve.get(`/api/uploads/files/${file.id}`);
    expect([looked.status, looked.body]).toEqual([404, fileMissing]);
    const put = await putPart(t, eve, file.id, 1, new Uint8Array(100));
    expect([put.status, await put.json()]).toEqual([404, fileMissing]);
    const completed = await eve.post(`/api/uploads/files/${file.id}/complete`, {});
    expect([completed.status, completed.body]).toEqual([404, fileMissing]);
    const sent = await eve.post(`/api/uploads/submissions/${submissionId}/submit`, {});
    expect([sent.status, sent.body]).toEqual([404, submissionMissing]);

    const anonymous = new TestBrowser(t.url);
    expect((await anonymous.post('/api/uploads/submissions', sponsorForm)).status).toBe(401);
    expect((await putPart(t, anonymous, file.id, 1, new Uint8Array(100))).status).toBe(401);

    const tooBig = await ada.post(`/api/uploads/submissions/${submissionId}/files`, {
      name: 'huge.mov',
      size: PART * 3 + 1,
    });
    expect(tooBig.status).toBe(413);
    const invalid = await ada.post('/api/uploads/submissions', { form_type: 'sponsor', event_name: ' ' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      error: {
        fields: {
          event_name: 'Please enter an event name.',
          sponsor_company: 'Please enter a sponsor company.',
        },
      },
    });
    const json = await fetch(`${t.url}/api/uploads/files/${file.id}/parts/1`, {
      method: 'PUT',
      headers: { cookie: ada.cookieHeader()!, origin: t.url, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
  });

  it('resumes the same file (name, size, last-modified) in the same unfinished submission, also by bearer token', async () => {
    t = await startTestApp({ dialect });
    await signedUp(t);
    const login = await new TestBrowser(t.url, null).post<{ token: string }>('/api/auth/login', {
      email: 'ada@example.com',
      password: 'Difference Engine 1843',
      token: true,
    });
    expect(login.status).toBe(200);
    const client = nodeClient(t.url, { bearer: login.body.token });
    const submission = await client.createSubmission(sponsorForm);
    const { source, bytes, sha256 } = memorySource(PART + 5);
    const first = await client.registerFile(submission.id, source);
    await client.putPart(first.id, 2, bytes.subarray(PART));

    // After a reload: the page continues the submission and the same file is chosen again.
    const again = await client.createSubmission({
      ...sponsorForm,
      sponsor_company: 'Acme AV Inc',
      resume_id: submission.id,
    });
    expect(again).toMatchObject({ id: submission.id, fields: { sponsor_company: 'Acme AV Inc' } });
    const upload = client.file(submission.id, source);
    upload.start();
    const outcome = await upload.settled();
    expect(outcome).toMatchObject({ state: 'complete', file: { id: first.id, sha256 } });
    const other = await client.registerFile(submission.id, { ...source, lastModified: 1 });
    expect(other.id).not.toBe(first.id);
    await client.removeFile(other.id);
    expect((await client.getSubmission(submission.id)).files.map((f) => f.id)).toEqual([first.id]);
  });

  it('cleans up unfinished uploads older than the retention period, bytes included', async () => {
    t = await startTestApp({ dialect });
    const ada = await signedUp(t);
    const stale = await newFile(ada, 10);
    const fresh = await newFile(ada, 10);
    const old = new Date(Date.now() - 8 * 86_400_000);
    await t.db.sequelize.query('UPDATE submissions SET updated_at = :old WHERE id = :id', {
      replacements: { old, id: stale.submissionId },
    });
    // Two jobs, as two processes would run them: each stale submission is removed exactly once.
    const jobs = [1, 2].map(() => startUploadCleanup({ config: t!.config, db: t!.db, logger: t!.logger }));
    const counts = await Promise.all(jobs.map((job) => job.runOnce()));
    await Promise.all(jobs.map((job) => job.stop()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await t.db.models.Submission.findByPk(stale.submissionId)).toBeNull();
    expect(await t.db.models.SubmissionFile.findByPk(stale.file.id)).toBeNull();
    await expect(
      stat(path.join(localUploadsDir(t.config), 'submissions', stale.submissionId)),
    ).rejects.toThrow();
    expect(await t.db.models.Submission.findByPk(fresh.submissionId)).not.toBeNull();
  });
});

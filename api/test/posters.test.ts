import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { InboxFile, InboxPage, UploadFileInfo } from '@avp/shared';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createUploadStorage } from '../src/adapters/storage/index.js';
import { scheduleProbe } from '../src/modules/uploads/media-probe.js';
import { posterKey, postersSettled, schedulePoster } from '../src/modules/uploads/posters.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration } from './helpers/browser.js';
import type { TestBrowser } from './helpers/browser.js';
import { DIALECTS, LogCapture } from './helpers/env.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';
import { registeredClient, signedInStaff } from './helpers/staff.js';

/**
 * Posters (issue #31): after a file completes, ffmpeg draws a small JPEG from the stored bytes in the
 * background (local disk, or S3 by a ranged read); the inbox links it and staff fetch it. A file ffmpeg
 * cannot decode gets none, answered 204, with nothing logged above debug. The inbox's preview is the
 * download served inline with the file's type and Range.
 */

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/media/', import.meta.url));
const VIDEO = 'h264-1280x720-25-aac.mp4';
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

async function start(options: Parameters<typeof startTestApp>[0]) {
  const t = await startTestApp(options);
  cleanups.push(() => t.close());
  const { staff } = await signedInStaff(t);
  const client = await registeredClient(t);
  return { t, staff, client };
}

/** Sends these files (one part each) in a new sponsor submission and sends it; answers the file ids. */
async function send(
  t: TestApp,
  who: TestBrowser,
  files: Array<{ name: string; type: string; bytes: Buffer }>,
) {
  const made = await who.post<{ submission: { id: string } }>('/api/uploads/submissions', {
    form_type: 'sponsor',
    event_name: 'Expo 2027',
    sponsor_company: 'Acme AV',
  });
  const id = made.body.submission.id;
  const ids: string[] = [];
  for (const f of files) {
    const sha256 = createHash('sha256').update(f.bytes).digest('hex');
    const reg = await who.post<{ file: UploadFileInfo }>(`/api/uploads/submissions/${id}/files`, {
      name: f.name,
      size: f.bytes.length,
      type: f.type,
      lastModified: 1_700_000_000_000,
      sha256,
    });
    expect(reg.status).toBe(201);
    const file = reg.body.file;
    for (let part = 1; part <= file.partCount; part += 1) {
      const put = await fetch(`${t.url}/api/uploads/files/${file.id}/parts/${part}`, {
        method: 'PUT',
        headers: { cookie: who.cookieHeader()!, origin: t.url, 'content-type': 'application/octet-stream' },
        body: f.bytes.subarray((part - 1) * file.partSize, part * file.partSize),
      });
      expect(put.status).toBe(200);
    }
    expect((await who.post(`/api/uploads/files/${file.id}/complete`, { sha256 })).status).toBe(200);
    ids.push(file.id);
  }
  expect((await who.post(`/api/uploads/submissions/${id}/submit`, { files: ids })).status).toBe(200);
  return ids;
}

async function inboxFile(staff: TestBrowser, id: string): Promise<InboxFile> {
  const page = (await staff.get<InboxPage>('/api/uploads/inbox')).body;
  return page.groups.flatMap((g) => g.companies.flatMap((c) => c.files)).find((f) => f.id === id)!;
}

async function expectPosters(t: TestApp, staff: TestBrowser, client: TestBrowser, logs: LogCapture) {
  const video = await readFile(`${FIXTURES}${VIDEO}`);
  const [videoId, pngId, textId] = await send(t, client, [
    { name: VIDEO, type: 'video/mp4', bytes: video },
    { name: 'logo.png', type: 'image/png', bytes: PNG_1X1 },
    { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('not a picture of anything\n') },
  ]);
  await postersSettled([videoId!, pngId!, textId!]);

  for (const id of [videoId!, pngId!]) {
    const file = await inboxFile(staff, id);
    expect(file.posterUrl).toBe(`/api/uploads/inbox/files/${id}/poster`);
    const res = await fetch(`${t.url}${file.posterUrl}`, { headers: { cookie: staff.cookieHeader()! } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const jpeg = Buffer.from(await res.arrayBuffer());
    expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(jpeg.length).toBeLessThan(200_000);
    // Clients never see it.
    expect((await client.get(file.posterUrl!)).status).toBe(403);
  }

  // The text file: no poster, a 204 for its address, nothing above debug in the log.
  const text = await inboxFile(staff, textId!);
  expect(text.posterUrl).toBeNull();
  expect(text.previewUrl).toBeNull();
  expect((await staff.get(`/api/uploads/inbox/files/${textId}/poster`)).status).toBe(204);
  expect((await t.db.models.SubmissionFile.findByPk(textId!))!.posterState).toBe('none');
  expect(logs.lines.filter((l) => Number(l.level) >= 40 && /poster/i.test(String(l.msg)))).toEqual([]);

  // An SVG can carry script: no preview, and ?inline=1 still answers an attachment of octet-stream.
  const [svgId] = await send(t, client, [
    {
      name: 'logo.svg',
      type: 'image/svg+xml',
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    },
  ]);
  expect((await inboxFile(staff, svgId!)).previewUrl).toBeNull();
  const svg = await fetch(`${t.url}/api/uploads/inbox/files/${svgId}/download?inline=1`, {
    headers: { cookie: staff.cookieHeader()! },
  });
  expect(svg.headers.get('content-type')).toBe('application/octet-stream');
  expect(svg.headers.get('content-disposition')).toMatch(/^attachment/);

  // The preview: the video served inline, typed, with Range.
  const file = await inboxFile(staff, videoId!);
  const preview = await fetch(`${t.url}${file.previewUrl}`, {
    headers: { cookie: staff.cookieHeader()!, range: 'bytes=0-99' },
  });
  expect(preview.status).toBe(206);
  expect(preview.headers.get('content-type')).toBe('video/mp4');
  expect(preview.headers.get('content-disposition')).toMatch(/^inline/);
  expect(Buffer.from(await preview.arrayBuffer())).toEqual(video.subarray(0, 100));
}

describe.each(DIALECTS)('posters on local disk (%s)', (dialect) => {
  it('a video and an image get a JPEG poster; a text file gets none and nothing fails', async () => {
    const logs = new LogCapture();
    const { t, staff, client } = await start({ dialect, logs });
    await expectPosters(t, staff, client, logs);
  });
});

describe.each(DIALECTS)('a poster already made (%s)', (dialect) => {
  it('stays when the facts are read and the poster marked again for a file with no picture', async () => {
    const { t, staff, client } = await start({ dialect });
    const [textId] = await send(t, client, [
      { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('not a picture of anything\n') },
    ]);
    await postersSettled([textId!]);
    expect((await inboxFile(staff, textId!)).posterUrl).toBeNull();

    // Another process made a poster for it meanwhile: the JPEG stored beside the file, the row marked made.
    const storage = createUploadStorage(t.config);
    const row = (await t.db.models.SubmissionFile.findByPk(textId!))!;
    const key = posterKey(row.storageKey);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9]);
    const uploadId = await storage.begin(key, jpeg.length, 'image/jpeg');
    const etag = await storage.writePart({
      key,
      uploadId,
      partNumber: 1,
      offset: 0,
      size: jpeg.length,
      body: Readable.from([jpeg]),
    });
    await storage.finish({ key, uploadId, parts: [{ partNumber: 1, etag }], size: jpeg.length });
    await row.update({ posterState: 'made', posterKey: key });

    // This process reads the facts (stored already: no picture) and marks the poster, as a completion does.
    const deps = { config: t.config, db: t.db, logger: t.logger, storage };
    const expectKept = async () => {
      const file = await inboxFile(staff, textId!);
      expect(file.posterUrl).toBe(`/api/uploads/inbox/files/${textId}/poster`);
      const res = await fetch(`${t.url}${file.posterUrl}`, { headers: { cookie: staff.cookieHeader()! } });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(jpeg);
    };
    const probed = scheduleProbe(deps, textId!);
    await schedulePoster(deps, textId!);
    await probed;
    await expectKept();
    // With no reading under way here (the poster looks the facts up itself), it stays too.
    await schedulePoster(deps, textId!);
    await expectKept();
  });
});

describe('posters on S3', () => {
  it('are drawn from the stored object and kept beside it in the bucket', async () => {
    const s3 = await startS3StandIn();
    cleanups.push(() => s3.close());
    const logs = new LogCapture();
    const { t, staff, client } = await start({
      logs,
      env: {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: S3_STAND_IN_BUCKET,
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_REGION: 'us-east-1',
      },
    });
    await expectPosters(t, staff, client, logs);
  });
});

describe('legacy uploads take part like any file', () => {
  it('a file finished through submitForm.php gets its poster and is reviewed in the inbox', async () => {
    const { t, staff } = await start({});
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${t.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: t.url },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const login = await post('/api/login.php', {
      email: 'ada@example.com',
      password: Buffer.from(String(registration().password)).toString('base64'),
    });
    const bytes = await readFile(`${FIXTURES}${VIDEO}`);
    const fields = {
      form_type: 'sponsor',
      event_name: 'Expo 2027',
      sponsor_company: 'Acme AV',
      token: login.token,
    };
    expect(
      await post('/api/submitForm.php', { ...fields, action: 'init', files: { [VIDEO]: bytes.length } }),
    ).toMatchObject({ success: true });
    await post('/api/submitForm.php', {
      ...fields,
      action: 'part',
      file_name: VIDEO,
      file: bytes.toString('base64'),
    });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(
      await post('/api/submitForm.php', { ...fields, action: 'finish', file_name: VIDEO, sha256 }),
    ).toMatchObject({
      success: true,
      status: 'complete',
    });
    expect(await post('/api/submitForm.php', { ...fields, action: 'send' })).toMatchObject({ success: true });
    const row = (await t.db.models.SubmissionFile.findOne({ where: { name: VIDEO } }))!;
    await postersSettled([row.id]);
    const file = await inboxFile(staff, row.id);
    expect(file.posterUrl).toBe(`/api/uploads/inbox/files/${row.id}/poster`);
    const reviewed = await staff.put<{ file: InboxFile }>(`/api/uploads/inbox/files/${row.id}/review`, {
      state: 'accepted',
    });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body.file.review.state).toBe('accepted');
  });
});

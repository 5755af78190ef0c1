import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { MEDIA_UNREADABLE, mayBeKnownFormat, SNIFF_BYTES, UPLOAD_PART_SIZE } from '@avp/shared';
import type {
  InboxFileMedia,
  InboxSubmission,
  MediaFacts,
  MediaReadResult,
  UploadFileInfo,
  UploadSource,
} from '@avp/shared';
import { readMediaFacts } from '@avp/shared/media-reader';
import { afterEach, describe, expect, it } from 'vitest';
import { startImportWorker } from '../src/modules/imports/index.js';
import { POSTER_READ_BYTES, postersSettled } from '../src/modules/uploads/posters.js';
import { probesSettled, useFactsReader } from '../src/modules/uploads/media-probe.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration } from './helpers/browser.js';
import type { TestBrowser } from './helpers/browser.js';
import { startDriveStandIn } from './helpers/cloud-standins/drive.js';
import { DIALECTS, LogCapture, TEST_SECRET } from './helpers/env.js';
import { loadConfig } from '../src/config.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';
import { nodeClient } from './helpers/uploads.js';
import { registeredClient, signedInStaff } from './helpers/staff.js';

/**
 * The server's own reading of each completed file (issue #30, media-probe.ts) on the committed fixtures
 * (test/fixtures/media): through the browser protocol on local disk and on S3 (ranged GETs only, never
 * the whole object), through the legacy submitForm.php calls and a cloud import; an unreadable file and
 * a reader that never answers stored as unreadable without failing the upload; a client report that
 * disagrees with the server's reading logged; the inbox and the staff notice showing facts and issues.
 */

const FIXTURES = fileURLToPath(new URL('../../test/fixtures/media/', import.meta.url));
const fixture = (name: string) => readFile(`${FIXTURES}${name}`);
const WRONG_SIZE = 'h264-1280x720-25-aac.mp4';
const FITS = 'h264-1920x1080-29.97-aac-faststart.mp4';
const RESOLUTION_ISSUE = 'The screens need 1920×1080; this file is 1280×720.';
const WAIT_MS = 30_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  useFactsReader(undefined);
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

const spec = (onMismatch: 'block' | 'warn') => ({
  containers: [],
  videoCodecs: ['H.264'],
  resolutions: [{ width: 1920, height: 1080 }],
  frameRates: [],
  minDurationSeconds: null,
  maxDurationSeconds: null,
  audio: null,
  maxSizeBytes: null,
  onMismatch,
});

async function start(options: Parameters<typeof startTestApp>[0] = {}) {
  const t = await startTestApp(options);
  cleanups.push(() => t.close());
  const { staff } = await signedInStaff(t);
  const made = await staff.post('/api/staff/upload-events', {
    name: 'Expo 2099',
    startsOn: '2099-03-03',
    endsOn: '2099-03-05',
    timeZone: 'America/New_York',
    deadline: '2099-03-01T17:00',
    specs: { creative: null, event: null, sponsor: spec('warn') },
  });
  expect(made.status).toBe(201);
  const client = await registeredClient(t);
  return { t, staff, client };
}

const FORM = { form_type: 'sponsor' as const, event_name: 'expo 2099', sponsor_company: 'Acme AV' };

function bufferSource(name: string, bytes: Buffer, facts?: MediaFacts | null): UploadSource {
  return {
    name,
    size: bytes.length,
    type: 'video/mp4',
    lastModified: 1_700_000_000_000,
    read: async (s, e) => bytes.subarray(s, e),
    ...(facts === undefined ? {} : { facts }),
  } as UploadSource;
}

/** Sends files through the shared upload client (the browser protocol) and answers their ids. */
async function upload(t: TestApp, client: TestBrowser, files: UploadSource[]) {
  const uploads = nodeClient(t.url, { cookie: client.cookieHeader()! });
  const submission = await uploads.createSubmission(FORM);
  const queue = uploads.queue(submission.id);
  for (const file of files) queue.add(file);
  const outcomes = await queue.settled();
  expect(outcomes.map((o) => o.state)).toEqual(files.map(() => 'complete'));
  return { submissionId: submission.id, fileIds: queue.files.map((f) => f.fileId!) };
}

const serverRow = (t: TestApp, fileId: string) =>
  t.db.models.MediaFacts.findOne({ where: { fileId, source: 'server' } });

/** Sends the submission, then reads what staff see of its files in the inbox. */
async function submittedFiles(client: TestBrowser, staff: TestBrowser, submissionId: string) {
  expect((await client.post(`/api/uploads/submissions/${submissionId}/submit`, {})).status).toBe(200);
  const inbox = await staff.get<{ submissions: InboxSubmission[] }>('/api/uploads/inbox');
  return inbox.body.submissions[0]!.files as Array<UploadFileInfo & InboxFileMedia>;
}

const mediaOf = (files: Array<UploadFileInfo & InboxFileMedia>) =>
  files.map((f) => [f.name, f.factsText, f.factsSource, f.check]);
/** The two fixtures as staff see them, by whose reading. */
const WRONG_SIZE_SEEN = [
  WRONG_SIZE,
  '1280×720 · H.264 · 25 fps · 0:02 · AAC 48 kHz stereo',
  'server',
  { verdict: 'warn', issues: [RESOLUTION_ISSUE] },
];
const fitsSeen = (by: 'server' | 'client') => [
  FITS,
  '1920×1080 · H.264 · 29.97 fps · 0:02 · AAC 48 kHz stereo',
  by,
  { verdict: 'ok', issues: [] },
];

describe.each(DIALECTS)('the server reads each completed file (%s, local disk)', (dialect) => {
  it('stores its facts, checks them against the spec, tells staff in the inbox and the notice', async () => {
    const logs = new LogCapture();
    const { t, staff, client } = await start({ dialect, logs });
    const wrong = await fixture(WRONG_SIZE);
    const fits = await fixture(FITS);
    // The client claims the wrong file is 1080p: the server's own reading decides, and the lie is logged.
    const claimed: MediaFacts = {
      kind: 'video',
      container: 'MP4',
      videoCodec: 'H.264',
      width: 1920,
      height: 1080,
      fps: 25,
      durationSeconds: 2,
      audio: { codec: 'AAC', channels: 2, sampleRate: 48000 },
      sizeBytes: wrong.length,
    };
    const { submissionId, fileIds } = await upload(t, client, [
      bufferSource(WRONG_SIZE, wrong, claimed),
      bufferSource(FITS, fits),
    ]);
    await probesSettled(fileIds, WAIT_MS);
    const [wrongRow, fitsRow] = await Promise.all(fileIds.map((id) => serverRow(t, id)));
    expect(wrongRow).toMatchObject({
      readable: true,
      container: 'MP4',
      videoCodec: 'H.264',
      width: 1280,
      height: 720,
      audioCodec: 'AAC',
      verdict: 'warn',
    });
    expect(wrongRow!.issues).toEqual([RESOLUTION_ISSUE]);
    expect(Number(wrongRow!.bytesRead)).toBeGreaterThan(0);
    expect(fitsRow).toMatchObject({ width: 1920, height: 1080, verdict: 'ok' });
    const disagreement = logs.lines.find((l) => String(l.msg).includes('disagree'));
    expect(disagreement).toMatchObject({ fileId: fileIds[0], differ: ['width', 'height'] });

    const files = await submittedFiles(client, staff, submissionId);
    expect(mediaOf(files)).toEqual([WRONG_SIZE_SEEN, fitsSeen('server')]);
    expect(files.map((f) => f.specApplies)).toEqual([true, true]);
    const [notice] = await t.db.models.MailOutbox.findAll({ order: [['id', 'ASC']] });
    expect(notice!.textBody).toContain(
      `1280×720 · H.264 · 25 fps · 0:02 · AAC 48 kHz stereo\n  1 issue:\n    - ${RESOLUTION_ISSUE}`,
    );
    expect(notice!.textBody).toContain(
      '1920×1080 · H.264 · 29.97 fps · 0:02 · AAC 48 kHz stereo\n  Meets spec',
    );
  });

  it("shows staff the uploader's reading, marked as theirs, of a file the server has not read yet", async () => {
    const { t, staff, client } = await start({ dialect, env: { MEDIA_PROBE_NOTICE_WAIT_SECONDS: '0' } });
    const wrong = await fixture(WRONG_SIZE);
    const fits = await fixture(FITS);
    // The server reads the first file; its reading of the second is still under way when staff look.
    let finish = (_: MediaReadResult) => undefined as void;
    const held = new Promise<MediaReadResult>((resolve) => (finish = resolve));
    // Let go before the app closes (which waits for its readings), even when an expectation fails.
    cleanups.push(async () => finish({ facts: null, bytesRead: 0, raw: null }));
    useFactsReader((input) => (input.size === wrong.length ? readMediaFacts(input) : held));
    const claimed = (bytes: Buffer, width: number, height: number, fps: number): MediaFacts => ({
      kind: 'video',
      container: 'MP4',
      videoCodec: 'H.264',
      width,
      height,
      fps,
      durationSeconds: 2,
      audio: { codec: 'AAC', channels: 2, sampleRate: 48000 },
      sizeBytes: bytes.length,
    });
    const { submissionId, fileIds } = await upload(t, client, [
      bufferSource(WRONG_SIZE, wrong, claimed(wrong, 1920, 1080, 25)),
      bufferSource(FITS, fits, claimed(fits, 1920, 1080, 29.97)),
    ]);
    await probesSettled([fileIds[0]!], WAIT_MS);
    expect(await serverRow(t, fileIds[1]!)).toBeNull();

    // Both files have the uploader's reading; the first also the server's, which wins.
    const files = await submittedFiles(client, staff, submissionId);
    expect(mediaOf(files)).toEqual([WRONG_SIZE_SEEN, fitsSeen('client')]);
    const [notice] = await t.db.models.MailOutbox.findAll({ order: [['id', 'ASC']] });
    expect(notice!.textBody).toContain(
      `1280×720 · H.264 · 25 fps · 0:02 · AAC 48 kHz stereo\n  1 issue:\n    - ${RESOLUTION_ISSUE}`,
    );
    expect(notice!.textBody).toContain(
      "1920×1080 · H.264 · 29.97 fps · 0:02 · AAC 48 kHz stereo (the uploader's reading)\n  Meets spec",
    );
  });

  it('stores an unreadable file, and a reader that never answers, as unreadable; the upload completes', async () => {
    const logs = new LogCapture();
    const { t, staff, client } = await start({ dialect, logs, env: { MEDIA_PROBE_TIMEOUT_SECONDS: '1' } });
    const text = await fixture('not-a-video.mp4');
    const first = await upload(t, client, [bufferSource('not-a-video.mp4', text)]);
    await probesSettled(first.fileIds, WAIT_MS);
    expect(await serverRow(t, first.fileIds[0]!)).toMatchObject({ readable: false, verdict: 'unreadable' });

    useFactsReader(() => new Promise(() => undefined));
    const fits = await fixture(FITS);
    const second = await upload(t, client, [bufferSource('stuck.mp4', fits)]);
    await probesSettled(second.fileIds, WAIT_MS);
    expect(await serverRow(t, second.fileIds[0]!)).toMatchObject({ readable: false, verdict: 'unreadable' });
    expect(logs.lines.find((l) => l.timedOut === true)).toMatchObject({ fileId: second.fileIds[0] });
    expect(await t.db.models.SubmissionFile.findByPk(second.fileIds[0])).toMatchObject({
      status: 'complete',
    });

    const [sent] = await submittedFiles(client, staff, first.submissionId);
    expect(sent).toMatchObject({
      factsText: MEDIA_UNREADABLE,
      check: { verdict: 'unreadable', issues: [] },
    });
  });
});

describe('MEDIA_PROBE_CONCURRENCY', () => {
  it.each([1, 2])(
    'reads at most %i completed files at once in a process, and every one in the end',
    async (limit) => {
      const { t, client } = await start({ env: { MEDIA_PROBE_CONCURRENCY: String(limit) } });
      let reading = 0;
      let most = 0;
      let read = 0;
      useFactsReader(async ({ size }) => {
        reading++;
        most = Math.max(most, reading);
        await new Promise((r) => setTimeout(r, 150));
        reading--;
        read++;
        return { facts: null, bytesRead: Math.min(size, 1024), raw: null };
      });
      const fits = await fixture(FITS);
      const sent = await upload(
        t,
        client,
        ['a', 'b', 'c', 'd', 'e'].map((name) => bufferSource(`${name}.mp4`, fits)),
      );
      await probesSettled(sent.fileIds, WAIT_MS);
      expect(read).toBe(5);
      expect(most).toBe(limit);
      for (const fileId of sent.fileIds)
        expect(await serverRow(t, fileId)).toMatchObject({ readable: false });
    },
  );
});

describe('settings', () => {
  it('MEDIA_PROBE_NOTICE_WAIT_SECONDS defaults to 2, may be 0 (never wait), and is bounded', () => {
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET })).toMatchObject({
      MEDIA_PROBE_NOTICE_WAIT_SECONDS: 2,
      MEDIA_PROBE_CONCURRENCY: 2,
    });
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET, MEDIA_PROBE_NOTICE_WAIT_SECONDS: '0' })).toMatchObject({
      MEDIA_PROBE_NOTICE_WAIT_SECONDS: 0,
    });
    expect(() => loadConfig({ SESSION_SECRET: TEST_SECRET, MEDIA_PROBE_NOTICE_WAIT_SECONDS: '61' })).toThrow(
      /MEDIA_PROBE_NOTICE_WAIT_SECONDS/,
    );
  });
});

/** An MP4 whose moov comes first, its mdat grown by `extra` zero bytes: a large file with small metadata. */
function grownMp4(mp4: Buffer, extra: number): Buffer {
  let offset = 0;
  while (offset < mp4.length) {
    const size = mp4.readUInt32BE(offset);
    const type = mp4.toString('latin1', offset + 4, offset + 8);
    if (type === 'mdat') {
      if (offset + size !== mp4.length) throw new Error('mdat is not the last box');
      const grown = Buffer.concat([mp4, Buffer.alloc(extra)]);
      grown.writeUInt32BE(size + extra, offset);
      return grown;
    }
    offset += size;
  }
  throw new Error('no mdat');
}

/** An HTTP proxy in front of the S3 stand-in that records each GET of an object: its Range and bytes. */
async function recordingProxy(target: string) {
  const gets: { path: string; range: string | undefined; bytes: number }[] = [];
  const server = createServer((req, res) => {
    const url = new URL(target);
    const out = request(
      { host: url.hostname, port: url.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const record =
          req.method === 'GET' && !/[?&](uploadId|partNumber|list-type|uploads)=/.test(String(req.url))
            ? { path: String(req.url), range: req.headers.range, bytes: 0 }
            : null;
        if (record) gets.push(record);
        answer.on('data', (chunk: Buffer) => {
          if (record) record.bytes += chunk.length;
          res.write(chunk);
        });
        answer.on('end', () => res.end());
      },
    );
    req.pipe(out);
    out.on('error', () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    gets,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A server storing on the S3 stand-in through a proxy that records every GET (its path, range and bytes). */
async function startOnRecordedS3() {
  const s3 = await startS3StandIn();
  cleanups.push(() => s3.close());
  const proxy = await recordingProxy(s3.endpoint);
  cleanups.push(() => proxy.close());
  const { t, client } = await start({
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: S3_STAND_IN_BUCKET,
      S3_ENDPOINT: proxy.url,
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
    },
  });
  return { proxy, t, client };
}

describe('the server reads a file stored on S3 by ranged GETs', () => {
  it('reads the facts of a 24 MB file without ever fetching the whole object', async () => {
    const { proxy, t, client } = await startOnRecordedS3();
    const big = grownMp4(await fixture(FITS), 24 * 1024 * 1024);
    const { fileIds } = await upload(t, client, [bufferSource('big.mp4', big)]);
    await probesSettled(fileIds, WAIT_MS);
    const row = await serverRow(t, fileIds[0]!);
    expect(row).toMatchObject({ readable: true, width: 1920, height: 1080, verdict: 'ok' });
    const reads = proxy.gets.filter((g) => g.path.split('?')[0]!.endsWith(fileIds[0]!));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((g) => g.range === undefined)).toEqual([]);
    // The poster (#31) copies the file's first POSTER_READ_BYTES in one ranged GET of its own, still
    // flowing while this test looks (how much of it has passed depends on timing): the probe's are the rest.
    const posterRange = `bytes=0-${Math.min(big.length, POSTER_READ_BYTES) - 1}`;
    const probeReads = reads.filter((g) => g.range !== posterRange);
    const served = probeReads.reduce((sum, g) => sum + g.bytes, 0);
    expect(Number(row!.bytesRead)).toBeGreaterThan(0);
    expect(Number(row!.bytesRead)).toBeLessThanOrEqual(served);
    expect(served).toBeLessThan(big.length / 4);
    console.log(`S3 probe of a ${big.length}-byte file: ${probeReads.length} ranged GETs, ${served} bytes`);
  });
});

/**
 * Random bytes whose head the sniff is sure of: about one random head in 700 holds, by chance, what could
 * be a sync pattern (two MPEG audio frames, start codes), and is rightly handed to MediaInfoLib.
 */
function noMediaBytes(size: number): Buffer {
  for (;;) {
    const bytes = randomBytes(size);
    if (!mayBeKnownFormat(bytes.subarray(0, SNIFF_BYTES))) return bytes;
  }
}

describe('a file that can be no media (random bytes) on S3', () => {
  it('is judged by the head its completion saw stored, or else by the head read back, and no further', async () => {
    const { proxy, t, client } = await startOnRecordedS3();
    // One part: completed with it, its head seen on the way. Two parts: completed by a call of its own.
    const files = [bufferSource('renamed.mp4', noMediaBytes(3 * 1024 * 1024))];
    files.push(bufferSource('parts.mp4', noMediaBytes(UPLOAD_PART_SIZE + 5)));
    const { fileIds } = await upload(t, client, files);
    await probesSettled(fileIds, WAIT_MS);
    await postersSettled(fileIds);
    for (const [i, id] of fileIds.entries()) {
      const row = await serverRow(t, id);
      expect(row).toMatchObject({ readable: false, verdict: 'unreadable', issues: [] });
      expect(Number(row!.bytesRead)).toBe(i === 0 ? 0 : SNIFF_BYTES);
      expect(await t.db.models.SubmissionFile.findByPk(id)).toMatchObject({
        status: 'complete',
        posterState: 'none',
        posterKey: null,
      });
    }
    // No GET of the first: the sniff looked at the head its completion saw. One ranged GET of the
    // second's head. No reader in a worker, no copy for ffmpeg.
    const gets = (id: string) => proxy.gets.filter((g) => g.path.split('?')[0]!.endsWith(id));
    expect(gets(fileIds[0]!)).toEqual([]);
    expect(gets(fileIds[1]!).map((g) => [g.range, g.bytes])).toEqual([
      [`bytes=0-${SNIFF_BYTES - 1}`, SNIFF_BYTES],
    ]);
  });
});

describe('legacy uploads and cloud imports get their facts the same way', () => {
  it('submitForm.php: a file finished through the original calls is read', async () => {
    const { t } = await start();
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
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
      password: b64(registration().password as string),
    });
    const token = String(login.token);
    const bytes = await fixture(WRONG_SIZE);
    expect(bytes.length).toBeLessThan(UPLOAD_PART_SIZE);
    const fields = { ...FORM, token };
    const init = await post('/api/submitForm.php', {
      ...fields,
      action: 'init',
      files: { [WRONG_SIZE]: bytes.length },
    });
    expect(init.success).toBe(true);
    await post('/api/submitForm.php', {
      ...fields,
      action: 'part',
      file_name: WRONG_SIZE,
      file: bytes.toString('base64'),
    });
    const finished = await post('/api/submitForm.php', {
      ...fields,
      action: 'finish',
      file_name: WRONG_SIZE,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(finished).toMatchObject({ success: true, status: 'complete' });
    const file = await t.db.models.SubmissionFile.findOne({ where: { name: WRONG_SIZE } });
    await probesSettled([file!.id], WAIT_MS);
    expect(await serverRow(t, file!.id)).toMatchObject({ width: 1280, height: 720, verdict: 'warn' });
  });

  it('a cloud import: the copied file is read once complete', async () => {
    const drive = await startDriveStandIn();
    cleanups.push(() => drive.close());
    const { t, client } = await start({ env: { GOOGLE_API_URL: drive.url } });
    const worker = startImportWorker({ config: t.config, db: t.db, logger: t.logger, pollMs: 50 });
    cleanups.push(() => worker.stop());
    drive.files.set('f-spot', { name: 'spot.mp4', mimeType: 'video/mp4', data: await fixture(WRONG_SIZE) });
    const created = await client.post<{ submission: { id: string } }>('/api/uploads/submissions', FORM);
    const started = await client.post<{ file: { id: string } }>(
      `/api/uploads/submissions/${created.body.submission.id}/imports`,
      { provider: 'google-drive', fileId: 'f-spot', name: 'spot.mp4', accessToken: 'token-1' },
    );
    expect(started.status).toBe(201);
    const fileId = started.body.file.id;
    const until = Date.now() + WAIT_MS;
    while ((await t.db.models.SubmissionFile.findByPk(fileId))?.status !== 'complete') {
      if (Date.now() > until) throw new Error('the import did not complete');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await probesSettled([fileId], WAIT_MS);
    expect(await serverRow(t, fileId)).toMatchObject({ width: 1280, height: 720, verdict: 'warn' });
  });
});

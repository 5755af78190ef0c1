import { connect } from 'node:net';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { SubmissionInfo, UploadFileInfo } from '@avp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { sponsorForm } from './helpers/uploads.js';

/**
 * Malformed requests to the upload routes answer a 4xx with the error body, never a 5xx: part numbers
 * out of range or not numbers, Content-Length missing, wrong or absurd, other content types, ids that
 * are not ids, and JSON bodies of the wrong shape.
 */

const PART = UPLOAD_PART_SIZE;
const SIZE = PART + 10;

/** One request written by hand on a socket, for headers fetch would not send; answers the status. */
function rawStatus(url: string, head: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let text = '';
    socket.on('data', (data: Buffer) => {
      text += data.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (status) {
        resolve(Number(status[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without an answer: ${JSON.stringify(text)}`)));
  });
}

describe.each(DIALECTS)('malformed upload requests on %s', (dialect) => {
  let t: TestApp;
  let ada: TestBrowser;
  let file: UploadFileInfo;
  let submissionId: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    ada = new TestBrowser(t.url);
    expect((await ada.post('/api/auth/register', registration())).status).toBe(201);
    const created = await ada.post<{ submission: SubmissionInfo }>('/api/uploads/submissions', sponsorForm);
    submissionId = created.body.submission.id;
    const registered = await ada.post<{ file: UploadFileInfo }>(
      `/api/uploads/submissions/${submissionId}/files`,
      {
        name: 'clip.mov',
        size: SIZE,
        lastModified: 1,
      },
    );
    file = registered.body.file;
    auth = { cookie: ada.cookieHeader()!, origin: t.url };
  });
  afterAll(async () => {
    await t?.close();
  });

  const part = (n: string, init: { headers?: Record<string, string>; body?: Uint8Array } = {}) =>
    fetch(`${t.url}/api/uploads/files/${file.id}/parts/${n}`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/octet-stream', ...init.headers },
      body: (init.body ?? new Uint8Array(PART)) as Uint8Array<ArrayBuffer>,
    });

  it.each(['0', '3', '-1', 'abc', '1e0', '1.0', '0x1', '99999999999999999999', '%20', '%00', '1%2F2'])(
    'part number %j: 400 bad_part_number',
    async (n) => {
      const res = await part(n);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'bad_part_number' } });
    },
  );

  it('a part number that is not valid percent-encoding: 400', async () => {
    const res = await part('%E0%A4%A');
    expect(res.status).toBe(400);
  });

  it.each([
    ['text/plain', 415],
    // The JSON parser meets it first: a part is far over its limit.
    ['application/json', 413],
    ['multipart/form-data; boundary=x', 415],
    ['application/octet-stream; charset=binary', 200],
  ])('content type %s: %i', async (type, status) => {
    expect((await part('1', { headers: { 'content-type': type } })).status).toBe(status);
  });

  it('bodies shorter or longer than the part: 400 bad_part_size', async () => {
    for (const body of [new Uint8Array(10), new Uint8Array(PART + 1), new Uint8Array(0)]) {
      const res = await part('1', { body });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'bad_part_size' } });
    }
  });

  it.each([
    ['no Content-Length (chunked)', 'Transfer-Encoding: chunked\r\n', [411]],
    ['a Content-Length past 2^53', 'Content-Length: 99999999999999999999\r\n', [400]],
    ['a Content-Length past 2^64', 'Content-Length: 999999999999999999999999999\r\n', [400]],
    ['a negative Content-Length', 'Content-Length: -5\r\n', [400]],
    ['two different Content-Lengths', `Content-Length: ${PART}\r\nContent-Length: 5\r\n`, [400]],
    ['a Content-Length of a huge body', 'Content-Length: 1099511627776\r\n', [400]],
  ])('%s: %j', async (_name, header, statuses) => {
    const { host } = new URL(t.url);
    const head =
      `PUT /api/uploads/files/${file.id}/parts/1 HTTP/1.1\r\nHost: ${host}\r\nCookie: ${auth.cookie}\r\n` +
      `Origin: ${t.url}\r\nContent-Type: application/octet-stream\r\n${header}\r\n`;
    expect(statuses).toContain(await rawStatus(t.url, head));
  });

  it.each([
    ['not-a-uuid', 404],
    ['00000000-0000-0000-0000-000000000000', 404],
    ["1' OR '1'='1", 404],
  ])('file id %j: %i', async (id, status) => {
    const res = await fetch(`${t.url}/api/uploads/files/${encodeURIComponent(id)}/parts/1`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(PART),
    });
    expect(res.status).toBe(status);
    expect((await ada.post(`/api/uploads/files/${encodeURIComponent(id)}/complete`, {})).status).toBe(status);
    expect((await ada.get(`/api/uploads/files/${encodeURIComponent(id)}`)).status).toBe(status);
  });

  it.each([
    { size: -1 },
    { size: 1.5 },
    { size: '10' },
    { size: 2 ** 53 },
    { size: 1e300 },
    { size: null },
    { name: '', size: 1 },
    { name: 7, size: 1 },
    { lastModified: -1 },
    { lastModified: '2024-01-01' },
    { lastModified: 2 ** 60 },
    { sha256: 'xyz' },
    { type: { a: 1 } },
  ])('registration %j: 400', async (fields) => {
    const res = await ada.post(`/api/uploads/submissions/${submissionId}/files`, {
      name: 'x.mov',
      size: 1,
      ...fields,
    });
    expect(res.status).toBe(400);
  });

  it.each([
    ['malformed JSON', 'application/json', '{"name":'],
    ['a JSON array', 'application/json', '[]'],
    ['a JSON string', 'application/json', '"x"'],
    ['plain text', 'text/plain', 'name=x&size=1'],
    ['no body at all', undefined, undefined],
  ])('registration with %s: 400', async (_name, type, body) => {
    const res = await fetch(`${t.url}/api/uploads/submissions/${submissionId}/files`, {
      method: 'POST',
      headers: { ...auth, ...(type ? { 'content-type': type } : {}) },
      body,
    });
    expect(res.status).toBe(400);
  });

  it.each([{ sha256: 'xyz' }, { sha256: 123 }, { sha256: null }, []])('completion %j: 400', async (body) => {
    expect((await ada.post(`/api/uploads/files/${file.id}/complete`, body)).status).toBe(400);
  });

  it.each([
    { files: 'all' },
    { files: [1, 2] },
    { files: Array.from({ length: 10_001 }, () => 'x') },
    { files: ['x'] },
  ])('submission %#: 400', async (body) => {
    expect((await ada.post(`/api/uploads/submissions/${submissionId}/submit`, body)).status).toBe(400);
  });

  it.each([{ resume_id: 'abc' }, { resume_id: 5 }, { form_type: 'video' }, { event_name: '' }])(
    'new submission %j: 400',
    async (fields) => {
      expect((await ada.post('/api/uploads/submissions', { ...sponsorForm, ...fields })).status).toBe(400);
    },
  );
});

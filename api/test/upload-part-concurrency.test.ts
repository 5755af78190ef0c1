import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { sponsorForm } from './helpers/uploads.js';

/**
 * UPLOAD_PART_CONCURRENCY: the part writes one process stores at once. A file of two parts, its first part
 * sent half-way and held there over a raw socket while the second is sent whole: with one slot the second
 * waits its turn (answered only after the first), with the default it is stored beside it.
 */

const TEST_SECRET = 'a'.repeat(48);
const METRICS_TOKEN = 'part-concurrency-metrics-token';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The order the two parts are answered in, part 1 held half-sent until part 2 answers or `holdMs` passes. */
async function answerOrder(app: TestApp, holdMs: number): Promise<number[]> {
  const browser = new TestBrowser(app.url);
  expect((await browser.post('/api/auth/register', registration())).status).toBe(201);
  const created = await browser.post<{ submission: { id: string } }>('/api/uploads/submissions', sponsorForm);
  const data = randomBytes(UPLOAD_PART_SIZE + 10);
  const registered = await browser.post<{ file: UploadFileInfo }>(
    `/api/uploads/submissions/${created.body.submission.id}/files`,
    { name: 'clip.mov', size: data.length, type: 'video/quicktime', lastModified: 1_700_000_000_000 },
  );
  const fileId = registered.body.file.id;
  const order: number[] = [];

  const { port } = new URL(app.url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  let first = '';
  const firstAnswered = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      first += chunk.toString('latin1');
      if (/\r\n\r\n/.test(first)) {
        order.push(1);
        resolve();
      }
    });
  });
  socket.write(
    [
      `PUT /api/uploads/files/${fileId}/parts/1 HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Cookie: ${browser.cookieHeader()}`,
      `Origin: ${app.url}`,
      'Content-Type: application/octet-stream',
      `Content-Length: ${UPLOAD_PART_SIZE}`,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(data.subarray(0, UPLOAD_PART_SIZE / 2));
  // Part 1 is being received (its write began) before part 2 is sent.
  for (;;) {
    const metrics = await fetch(`${app.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    if (/^avp_uploads_active 1$/m.test(await metrics.text())) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  const second = fetch(`${app.url}/api/uploads/files/${fileId}/parts/2`, {
    method: 'PUT',
    headers: {
      cookie: browser.cookieHeader() ?? '',
      origin: app.url,
      'content-type': 'application/octet-stream',
    },
    body: data.subarray(UPLOAD_PART_SIZE),
  }).then((res) => {
    order.push(2);
    return res.status;
  });
  await Promise.race([second, new Promise((resolve) => setTimeout(resolve, holdMs))]);
  socket.write(data.subarray(UPLOAD_PART_SIZE / 2, UPLOAD_PART_SIZE));
  await firstAnswered;
  expect(first).toMatch(/^HTTP\/1\.1 200 /);
  expect(await second).toBe(200);
  socket.end();

  // Both parts stored whole: the file completes with its sha-256.
  const sha256 = createHash('sha256').update(data).digest('hex');
  const completed = await browser.post<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}/complete`, {
    sha256,
  });
  expect(completed.body.file.sha256).toBe(sha256);
  return order;
}

describe('UPLOAD_PART_CONCURRENCY', () => {
  it('defaults to 8, takes a value, and refuses 0 with a line naming it', () => {
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET }).UPLOAD_PART_CONCURRENCY).toBe(8);
    expect(
      loadConfig({ SESSION_SECRET: TEST_SECRET, UPLOAD_PART_CONCURRENCY: '2' }).UPLOAD_PART_CONCURRENCY,
    ).toBe(2);
    expect(() => loadConfig({ SESSION_SECRET: TEST_SECRET, UPLOAD_PART_CONCURRENCY: '0' })).toThrow(
      /UPLOAD_PART_CONCURRENCY: must be an integer between 1 and \d+ \(got "0"\)/,
    );
  });

  it('at 1, a part waits for the one being stored before its own bytes are taken', async () => {
    t = await startTestApp({ env: { UPLOAD_PART_CONCURRENCY: '1', METRICS_TOKEN } });
    expect(await answerOrder(t, 500)).toEqual([1, 2]);
  }, 30_000);

  it('at the default, a second part is stored beside one that is still arriving', async () => {
    t = await startTestApp({ env: { METRICS_TOKEN } });
    expect(await answerOrder(t, 10_000)).toEqual([2, 1]);
  }, 30_000);
});

import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS, LogCapture } from './helpers/env.js';
import { sponsorForm } from './helpers/uploads.js';

/**
 * Issue 28 'No stall without a timeout', on the server: a part PUT whose client sends the headers and
 * half the body, then nothing (a laptop closed mid-part). The server ends the request after
 * UPLOAD_PART_IDLE_SECONDS and gives its write claim up, so the same part sent again is taken at once.
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe.each(DIALECTS)('a part body that stops arriving (%s)', (dialect) => {
  it('is ended after the idle timeout, nothing recorded, and the same part is taken again at once', async () => {
    const logs = new LogCapture();
    t = await startTestApp({ dialect, env: { UPLOAD_PART_IDLE_SECONDS: '1' }, logs });
    const app = t;
    const browser = new TestBrowser(app.url);
    expect((await browser.post('/api/auth/register', registration())).status).toBe(201);
    const created = await browser.post<{ submission: { id: string } }>(
      '/api/uploads/submissions',
      sponsorForm,
    );
    const data = randomBytes(3 * 1024 * 1024);
    const registered = await browser.post<{ file: UploadFileInfo }>(
      `/api/uploads/submissions/${created.body.submission.id}/files`,
      { name: 'clip.mov', size: data.length, type: 'video/quicktime', lastModified: 1_700_000_000_000 },
    );
    const fileId = registered.body.file.id;
    const partPath = `/api/uploads/files/${fileId}/parts/1`;

    // Headers and half the body over a raw socket, then silence, the socket left open.
    const { port } = new URL(app.url);
    const socket = connect(Number(port), '127.0.0.1');
    let answered = '';
    socket.on('data', (chunk: Buffer) => (answered += chunk.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(
      [
        `PUT ${partPath} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Cookie: ${browser.cookieHeader()}`,
        `Origin: ${app.url}`,
        'Content-Type: application/octet-stream',
        `Content-Length: ${data.length}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(data.subarray(0, data.length / 2));
    // The server ends the stalled request (without the timeout this never happens and the test times out).
    await closed;
    expect(answered).toBe('');
    const during = await browser.get<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}`);
    expect(during.body.file.receivedParts).toEqual([]);

    // The same part, whole, straight away: its claim was given up, so no 409 part_in_progress.
    const again = await fetch(`${app.url}${partPath}`, {
      method: 'PUT',
      headers: {
        cookie: browser.cookieHeader() ?? '',
        origin: app.url,
        'content-type': 'application/octet-stream',
      },
      body: data,
    });
    expect(again.status).toBe(200);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const completed = await browser.post<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}/complete`, {
      sha256,
    });
    expect(completed.status).toBe(200);
    expect(completed.body.file.status).toBe('complete');
    expect(completed.body.file.sha256).toBe(sha256);
    // Staff can tell from the log why the request ended.
    expect(logs.lines.some((line) => line.msg === 'request body idle: the request was ended')).toBe(true);
  }, 30_000);
});

import { rm, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { localUploadsDir } from '../src/adapters/storage/index.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { postgresBehindProxy } from './helpers/database-proxy.js';
import { LogCapture, TEST_DATABASE_URL } from './helpers/env.js';
import { sponsorForm } from './helpers/uploads.js';

/**
 * Errors for operators (issue 35 item 5): a 5xx from a real fault is logged on exactly one error line
 * carrying the request id, the route pattern, the error code and the cause, and the answer carries the
 * same id (body and header), so what a client shows leads to that line. Refusals (4xx) are not errors.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

interface Answer {
  status: number;
  id: string | null;
  body: { error?: { code?: string; requestId?: string } };
}

async function answer(res: Response): Promise<Answer> {
  return {
    status: res.status,
    id: res.headers.get('x-request-id'),
    body: (await res.json()) as Answer['body'],
  };
}

/** The lines logged for one request, by its id (pino-http's reqId; a request's own lines carry it too). */
const linesOf = (logs: LogCapture, id: string | null) => logs.lines.filter((line) => line.reqId === id);
const errorLines = (logs: LogCapture, id: string | null) =>
  linesOf(logs, id).filter((line) => Number(line.level) >= 50);

async function signedIn(t: TestApp): Promise<TestBrowser> {
  const browser = new TestBrowser(t.url);
  expect((await browser.post('/api/auth/register', registration())).status).toBe(201);
  return browser;
}

/** pino-http writes the line once the answer has gone out: wait for it rather than sleep. */
async function lineFor(logs: LogCapture, id: string | null): Promise<void> {
  const until = Date.now() + 5_000;
  while (!linesOf(logs, id).some((line) => line.msg !== undefined && line.res !== undefined)) {
    if (Date.now() > until) throw new Error(`no request line for ${id}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a 5xx is one log line that the answer leads to', () => {
  it.skipIf(!TEST_DATABASE_URL)(
    'PostgreSQL cut: 503 database_unavailable, its id in body and header, one error line with route, code and cause',
    async () => {
      const { proxy, env } = await postgresBehindProxy();
      cleanups.push(() => proxy.close());
      const logs = new LogCapture();
      const t = await startTestApp({ dialect: 'postgres', env, logs });
      cleanups.push(() => t.close());
      cleanups.push(() => proxy.accept());
      const ada = await signedIn(t);
      await proxy.refuse();

      const res = await answer(
        await fetch(`${t.url}/api/account`, { headers: { cookie: ada.cookieHeader()! } }),
      );
      expect(res.status).toBe(503);
      expect(res.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body.error).toMatchObject({ code: 'database_unavailable', requestId: res.id });
      await lineFor(logs, res.id);
      const lines = errorLines(logs, res.id);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 50,
        reqId: res.id,
        route: '/api/account',
        code: 'database_unavailable',
        cause: expect.stringMatching(/ECONNREFUSED|connect|Connection/i),
        msg: expect.stringMatching(/^database unavailable/),
        err: { message: expect.any(String) },
        res: { statusCode: 503 },
      });
      // The route is the pattern, never the path with its ids.
      const part = await fetch(`${t.url}/api/uploads/files/0b6f4a8e-1c1e-4a57-9a51-4f9d8a6c2b10/parts/3`, {
        method: 'PUT',
        headers: { cookie: ada.cookieHeader()!, origin: t.url, 'content-type': 'application/octet-stream' },
        body: 'x',
      });
      const partId = part.headers.get('x-request-id');
      expect(part.status).toBe(503);
      await lineFor(logs, partId);
      expect(errorLines(logs, partId)).toMatchObject([
        { route: '/api/uploads/files/:fileId/parts/:partNumber', code: 'database_unavailable' },
      ]);
    },
  );

  it('upload storage unwritable: the completion answers 500 with its id, logged once with route, code and cause', async () => {
    const logs = new LogCapture();
    const t = await startTestApp({ logs });
    cleanups.push(() => t.close());
    const ada = await signedIn(t);
    const submission = await ada.post<{ submission: { id: string } }>(
      '/api/uploads/submissions',
      sponsorForm,
    );
    const registered = await ada.post<{ file: { id: string } }>(
      `/api/uploads/submissions/${submission.body.submission.id}/files`,
      { name: 'clip.mov', size: 1000 },
    );
    const fileId = registered.body.file.id;
    const part = await fetch(`${t.url}/api/uploads/files/${fileId}/parts/1`, {
      method: 'PUT',
      headers: { cookie: ada.cookieHeader()!, origin: t.url, 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(1000, 7),
    });
    expect(part.status).toBe(200);
    // Where the uploads are is a file now, not a folder: the stored part cannot be read back or joined.
    const uploads = localUploadsDir(t.config);
    await rm(uploads, { recursive: true, force: true });
    await writeFile(uploads, 'not a folder');
    cleanups.push(() => rm(uploads));

    const res = await answer(
      await fetch(`${t.url}/api/uploads/files/${fileId}/complete`, {
        method: 'POST',
        headers: { cookie: ada.cookieHeader()!, origin: t.url, 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ code: 'internal', message: 'Internal server error', requestId: res.id });
    await lineFor(logs, res.id);
    const lines = errorLines(logs, res.id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      reqId: res.id,
      route: '/api/uploads/files/:fileId/complete',
      code: 'internal',
      cause: expect.stringMatching(/ENOTDIR/),
      err: { stack: expect.any(String) },
      res: { statusCode: 500 },
    });
    expect(JSON.stringify(lines[0]?.route)).not.toContain(fileId);
  });

  it('/api/ready 503: one error line naming each failed check and why, nothing of it in the answer', async () => {
    const logs = new LogCapture();
    const t = await startTestApp({ logs });
    cleanups.push(() => t.close());
    const uploads = localUploadsDir(t.config);
    await rm(uploads, { recursive: true, force: true });
    await writeFile(uploads, 'not a folder');
    cleanups.push(() => rm(uploads));

    const res = await fetch(`${t.url}/api/ready`);
    const id = res.headers.get('x-request-id');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', migrations: 'ok', storage: 'failed', mail: 'ok' },
      failing: ['storage'],
    });
    await lineFor(logs, id);
    expect(linesOf(logs, id)).toMatchObject([
      {
        level: 50,
        route: '/api/ready',
        code: 'not_ready',
        msg: 'not ready: storage failed',
        cause: expect.stringMatching(/^Error: storage: .*(ENOTDIR|EEXIST)/),
      },
    ]);
  });

  it('refusals (4xx) are not logged as errors and carry no request id in the body', async () => {
    const logs = new LogCapture();
    const t = await startTestApp({ logs });
    cleanups.push(() => t.close());
    const refusals = [
      await fetch(`${t.url}/api/no-such-route`),
      await fetch(`${t.url}/api/account`),
      await fetch(`${t.url}/api/auth/login`, {
        method: 'POST',
        headers: { origin: t.url, 'content-type': 'application/json' },
        body: '{"broken": ',
      }),
    ];
    expect(refusals.map((res) => res.status)).toEqual([404, 401, 400]);
    for (const res of refusals) {
      const { id, body } = await answer(res);
      expect(body.error?.requestId).toBeUndefined();
      await lineFor(logs, id);
      expect(linesOf(logs, id).length).toBeGreaterThan(0);
      expect(errorLines(logs, id)).toEqual([]);
    }
  });
});

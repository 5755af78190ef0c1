import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { PriorityGate, priorityGateFor } from '../src/http/priority-gate.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { sponsorForm } from './helpers/uploads.js';

/**
 * UPLOAD_YIELD_MAX_MS (http/priority-gate.ts): while an interactive request waits for its answer, the
 * bytes of parts being received wait too. A sign-in is held open over a raw socket (its body half-sent)
 * while the rest of a part is sent over another: the part is answered only after the sign-in, unless the
 * hold runs out first. No clock is asserted, only the order of the answers; a hold that lasts long enough
 * for the order to be seen either way is chosen through the setting.
 */

const TEST_SECRET = 'a'.repeat(48);
const METRICS_TOKEN = 'priority-gate-metrics-token';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A raw HTTP/1.1 request; `answered` resolves with the status line once the answer's head arrives. */
function rawRequest(app: TestApp, head: string[]): { socket: Socket; answered: Promise<string> } {
  const { port } = new URL(app.url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  let text = '';
  const answered = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (/\r\n\r\n/.test(text)) resolve(text.split('\r\n', 1)[0]!);
    });
  });
  socket.write([...head, '', ''].join('\r\n'));
  return { socket, answered };
}

/**
 * The order a part and a sign-in are answered in: the part half-sent, then the sign-in's body half-sent,
 * then the rest of the part; the sign-in's body is finished once the part is answered or `holdMs` passes.
 */
async function answerOrder(app: TestApp, holdMs: number): Promise<string[]> {
  const browser = new TestBrowser(app.url);
  const account = registration();
  expect((await browser.post('/api/auth/register', account)).status).toBe(201);
  const created = await browser.post<{ submission: { id: string } }>('/api/uploads/submissions', sponsorForm);
  const data = randomBytes(UPLOAD_PART_SIZE);
  const registered = await browser.post<{ file: UploadFileInfo }>(
    `/api/uploads/submissions/${created.body.submission.id}/files`,
    { name: 'clip.mov', size: data.length, type: 'video/quicktime', lastModified: 1_700_000_000_000 },
  );
  const fileId = registered.body.file.id;
  const { port } = new URL(app.url);
  const order: string[] = [];

  const part = rawRequest(app, [
    `PUT /api/uploads/files/${fileId}/parts/1 HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Cookie: ${browser.cookieHeader()}`,
    `Origin: ${app.url}`,
    'Content-Type: application/octet-stream',
    `Content-Length: ${data.length}`,
  ]);
  part.socket.write(data.subarray(0, data.length / 2));
  // The part is being received (its write began) before the sign-in arrives.
  for (;;) {
    const metrics = await fetch(`${app.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    if (/^avp_uploads_active 1$/m.test(await metrics.text())) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  const body = Buffer.from(JSON.stringify({ email: account.email, password: account.password }));
  const signIn = rawRequest(app, [
    'POST /api/auth/login HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    `Origin: ${app.url}`,
    'Content-Type: application/json',
    `Content-Length: ${body.length}`,
  ]);
  signIn.socket.write(body.subarray(0, 10));
  const signInAnswered = signIn.answered.then((status) => {
    order.push('sign-in');
    return status;
  });
  // The sign-in is under way (its headers read, its answer awaited) before the rest of the part goes.
  const gate = priorityGateFor(app.config);
  while (gate.counts.interactive < 1) await new Promise((resolve) => setTimeout(resolve, 10));
  const partAnswered = part.answered.then((status) => {
    order.push('part');
    return status;
  });
  part.socket.write(data.subarray(data.length / 2));

  await Promise.race([partAnswered, new Promise((resolve) => setTimeout(resolve, holdMs))]);
  signIn.socket.write(body.subarray(10));
  expect(await signInAnswered).toMatch(/^HTTP\/1\.1 200 /);
  expect(await partAnswered).toMatch(/^HTTP\/1\.1 200 /);
  part.socket.end();
  signIn.socket.end();

  // The held bytes were hashed and stored whole: the file completes with its sha-256.
  const sha256 = createHash('sha256').update(data).digest('hex');
  const completed = await browser.post<{ file: UploadFileInfo }>(`/api/uploads/files/${fileId}/complete`, {
    sha256,
  });
  expect(completed.body.file.sha256).toBe(sha256);
  return order;
}

describe('PriorityGate', () => {
  it('counts a request until its answer begins: a stream that goes on after its headers no longer holds parts', async () => {
    const gate = new PriorityGate(60_000);
    const app = express();
    app.use(gate.middleware);
    let answerSlow = () => undefined as void;
    app.get('/slow', (_req, res) => {
      answerSlow = () => void res.json({ ok: true });
    });
    app.get('/stream', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: hello\n\n');
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(gate.turn()).toBeUndefined();
      const stream = await fetch(`${url}/stream`);
      expect(stream.status).toBe(200);
      expect(gate.counts.interactive).toBe(0);
      expect(gate.turn()).toBeUndefined();

      const slow = fetch(`${url}/slow`);
      while (gate.counts.interactive < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      const order: string[] = [];
      const held = gate.turn()!.then(() => order.push('part'));
      expect(gate.counts.held).toBe(1);
      // A turn of the loop or several, for a wrongly released part to show up first.
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('answer');
      answerSlow();
      await held;
      expect((await slow).status).toBe(200);
      expect(order).toEqual(['answer', 'part']);
      expect(gate.counts).toMatchObject({ interactive: 0, held: 0, holds: 1, fullHolds: 0 });
      await stream.body?.cancel();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('UPLOAD_YIELD_MAX_MS', () => {
  it('defaults to 200, takes 0 to turn it off, and refuses a negative value with a line naming it', () => {
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET }).UPLOAD_YIELD_MAX_MS).toBe(200);
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET, UPLOAD_YIELD_MAX_MS: '0' }).UPLOAD_YIELD_MAX_MS).toBe(0);
    expect(() => loadConfig({ SESSION_SECRET: TEST_SECRET, UPLOAD_YIELD_MAX_MS: '-1' })).toThrow(
      /UPLOAD_YIELD_MAX_MS: must be an integer between 0 and \d+ \(got "-1"\)/,
    );
  });

  it('a part being received waits while a sign-in waits for its answer, and is stored whole after it', async () => {
    t = await startTestApp({ env: { UPLOAD_YIELD_MAX_MS: '10000', METRICS_TOKEN } });
    expect(await answerOrder(t, 1_000)).toEqual(['sign-in', 'part']);
  }, 30_000);

  it('a hold ends after UPLOAD_YIELD_MAX_MS: a request that never answers cannot stop the uploads', async () => {
    t = await startTestApp({ env: { UPLOAD_YIELD_MAX_MS: '200', METRICS_TOKEN } });
    expect(await answerOrder(t, 20_000)).toEqual(['part', 'sign-in']);
  }, 40_000);

  it('at 0, parts never wait', async () => {
    t = await startTestApp({ env: { UPLOAD_YIELD_MAX_MS: '0', METRICS_TOKEN } });
    expect(await answerOrder(t, 20_000)).toEqual(['part', 'sign-in']);
  }, 40_000);
});

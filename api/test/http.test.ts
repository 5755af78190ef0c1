import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, errorHandler } from '../src/http/errors.js';
import { requestLogger } from '../src/http/request-log.js';
import { createLogger } from '../src/logger.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { LogCapture } from './helpers/env.js';

const json = (body: string) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('the API through HTTP', () => {
  let t: TestApp;
  const logs = new LogCapture();
  beforeAll(async () => {
    t = await startTestApp({ logs });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers an unknown /api route with a JSON 404', async () => {
    const res = await t.request('/api/no/such/thing?x=1', { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      error: { code: 'not_found', message: 'No such API route: DELETE /api/no/such/thing' },
    });
  });

  it('answers malformed JSON with 400 bad_json', async () => {
    const res = await t.request('/api/health', json('{"broken": '));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'bad_json', message: 'The request body is not valid JSON.' },
    });
  });

  it('answers a body over 1 MB with 413', async () => {
    const res = await t.request('/api/anything', json(JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 1) })));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: { code: 'payload_too_large', message: 'The request body is too large.' },
    });
  });

  it('echoes a safe X-Request-Id and replaces an unsafe one, logging it as reqId', async () => {
    const kept = await t.request('/api/health', { headers: { 'X-Request-Id': 'lb-1234.abcd' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-1234.abcd');
    const replaced = await t.request('/api/health', { headers: { 'X-Request-Id': 'bad id\twith spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
    const fresh = await t.request('/api/missing');
    const id = fresh.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = logs.lines.find((entry) => entry.reqId === id);
    expect(line).toMatchObject({ reqId: id, msg: 'request completed', res: { statusCode: 404 } });
  });

  it('sends the security headers and hides the framework', async () => {
    const res = await t.request('/api/health');
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "script-src 'self' 'wasm-unsafe-eval'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "object-src 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('the error handler', () => {
  let server: Server;
  let base: string;
  const logs = new LogCapture();
  let nodeEnv: 'production' | 'development' = 'production';

  beforeAll(async () => {
    // A tiny app around the real request logger and error handler, with routes that fail on purpose.
    const app = express();
    app.use(requestLogger(createLogger({ LOG_LEVEL: 'info' }, logs)));
    app.get('/zod', () => {
      z.object({
        email: z.email('Invalid email address.'),
        items: z.array(z.number()).min(1, 'Add an item.'),
      }).parse({
        email: 'nope',
        items: [],
      });
    });
    app.get('/refused', () => {
      throw new AppError(409, 'conflict', 'This email already exists.', { email: 'taken' });
    });
    app.get('/boom', () => {
      throw new Error('database password is hunter2');
    });
    app.get('/async-boom', async () => {
      await Promise.resolve();
      throw new Error('async failure');
    });
    app.use((err: unknown, req: express.Request, res: express.Response, next: express.NextFunction) =>
      errorHandler({ NODE_ENV: nodeEnv })(err, req, res, next),
    );
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  afterEach(() => {
    nodeEnv = 'production';
  });

  it('turns zod errors into 400 validation_failed with path → first message', async () => {
    const res = await fetch(`${base}/zod`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: 'validation_failed',
        message: 'Some fields are missing or invalid.',
        fields: { email: 'Invalid email address.', items: 'Add an item.' },
      },
    });
  });

  it('sends an AppError as it is', async () => {
    const res = await fetch(`${base}/refused`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: { code: 'conflict', message: 'This email already exists.', fields: { email: 'taken' } },
    });
  });

  it('hides unexpected errors outside development and logs them with the request id', async () => {
    for (const path of ['/boom', '/async-boom']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(500);
      const text = await res.text();
      const id = res.headers.get('x-request-id');
      expect(JSON.parse(text)).toEqual({
        error: { code: 'internal', message: 'Internal server error', requestId: id },
      });
      expect(text).not.toMatch(/hunter2|async failure|at /);
      const line = logs.lines.find((entry) => entry.reqId === id);
      expect(line).toMatchObject({
        level: 50,
        reqId: id,
        err: { type: 'Error', message: expect.stringMatching(/hunter2|async failure/) },
      });
    }
  });

  it('adds the stack in development only', async () => {
    nodeEnv = 'development';
    const body = (await (await fetch(`${base}/boom`)).json()) as { error: { stack?: string } };
    expect(body.error.stack).toMatch(/database password is hunter2\n\s+at /);
  });
});

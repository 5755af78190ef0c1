import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { errorHandler } from '../src/http/errors.js';
import { databaseRateLimitStore, rateLimit, setRateLimitStore, storedKey } from '../src/http/rate-limit.js';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';
import { DIALECTS } from './helpers/env.js';

let t: TestDatabase | undefined;
let server: Server | undefined;
afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  }
  await t?.cleanup();
  t = undefined;
});

describe.each(DIALECTS)('rateLimit() and its database counters on %s', (dialect) => {
  it('counts within a window and starts again at 1 once it has passed', async () => {
    t = await openTestDatabase(dialect);
    const store = databaseRateLimitStore(t.db);
    const t0 = new Date('2030-01-01T10:00:00.000Z');
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    expect(await store.hit('k', 60, t0)).toEqual({ count: 1, resetAt: at(60) });
    expect(await store.hit('k', 60, at(30))).toEqual({ count: 2, resetAt: at(60) });
    expect(await store.hit('other', 60, at(30))).toEqual({ count: 1, resetAt: at(90) });
    expect(await store.hit('k', 60, at(59.999))).toEqual({ count: 3, resetAt: at(60) });
    expect(await store.hit('k', 60, at(60))).toEqual({ count: 1, resetAt: at(120) });
  });

  it('is atomic: hits arriving together each get their own count', async () => {
    t = await openTestDatabase(dialect);
    const store = databaseRateLimitStore(t.db);
    const now = new Date();
    const hits = await Promise.all(Array.from({ length: 20 }, () => store.hit('burst', 60, now)));
    expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it('answers 429 rate_limited with the message and Retry-After past max; an empty key is not counted', async () => {
    t = await openTestDatabase(dialect);
    const app = express();
    setRateLimitStore(app, databaseRateLimitStore(t.db));
    app.post(
      '/thing',
      rateLimit({
        name: 'thing',
        windowSeconds: 600,
        max: 2,
        key: (req) => req.get('x-who') ?? '',
        message: 'Slow down, please.',
      }),
      (_req, res) => {
        res.json({ ok: true });
      },
    );
    app.use(errorHandler({ NODE_ENV: 'test' }));
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/thing`;
    const post = (who?: string) => fetch(url, { method: 'POST', headers: who ? { 'x-who': who } : {} });

    expect((await post('a')).status).toBe(200);
    expect((await post('a')).status).toBe(200);
    const over = await post('a');
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({ error: { code: 'rate_limited', message: 'Slow down, please.' } });
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect((await post('b')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await post()).status).toBe(200);
    expect(await t.db.models.RateLimit.findByPk('thing:a')).toMatchObject({ count: 3 });
  });

  it('stores long keys, and keys with control characters, hashed, within the column', () => {
    expect(storedKey('login', 'ada@example.com')).toBe('login:ada@example.com');
    const long = storedKey('login', `${'x'.repeat(300)}@example.com`);
    expect(long).toMatch(/^login:sha256:[0-9a-f]{64}$/);
    expect(storedKey('login', 'ada\u0000@example.com')).toMatch(/^login:sha256:[0-9a-f]{64}$/);
    expect(storedKey('login', 'ada\n@example.com')).not.toBe(storedKey('login', 'ada\u0000@example.com'));
  });

  it('binds the key as a value: quotes, SQL and NUL in a request are counted, never run', async () => {
    t = await openTestDatabase(dialect);
    const store = databaseRateLimitStore(t.db);
    const now = new Date();
    const hostile = [
      "x'); DELETE FROM rate_limits; --",
      ':now :key $1 ? \\',
      'Ada “quoted” 𝒜',
      // PostgreSQL refuses NUL in any text, bound or not: storedKey hashes such keys (above).
      ...(dialect === 'sqlite' ? ['a\u0000b@example.com'] : []),
    ];
    for (const key of hostile) {
      expect(await store.hit(key, 60, now), key).toMatchObject({ count: 1 });
      expect(await store.hit(key, 60, now), key).toMatchObject({ count: 2 });
    }
    expect(await t.db.models.RateLimit.count()).toBe(hostile.length);
    expect(await t.db.models.RateLimit.findByPk(hostile[0]!)).toMatchObject({ count: 2 });
  });

  it('takes a hit back within its window, and forgets a counter', async () => {
    t = await openTestDatabase(dialect);
    const store = databaseRateLimitStore(t.db);
    const t0 = new Date('2030-01-01T10:00:00.000Z');
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    await store.hit('k', 60, t0);
    await store.hit('k', 60, at(1));
    await store.undo('k', at(2));
    expect(await store.hit('k', 60, at(3))).toEqual({ count: 2, resetAt: at(60) });
    // A window that has ended is left alone: the next hit starts a new one anyway.
    await store.undo('k', at(61));
    expect(await t.db.models.RateLimit.findByPk('k')).toMatchObject({ count: 2 });
    await store.clear('k');
    expect(await store.hit('k', 60, at(62))).toEqual({ count: 1, resetAt: at(122) });
  });
});

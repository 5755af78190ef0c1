import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { DIALECTS } from './helpers/env.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe.each(DIALECTS)('GET /api/health on %s', (dialect) => {
  it('reports every component and 200 when all work', async () => {
    t = await startTestApp({ dialect });
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      status: 'ok',
      db: dialect,
      storage: 'local',
      mail: 'files',
      payments: 'test-gateway',
    });
  });

  it('names the configured mail and payment modes', async () => {
    t = await startTestApp({
      dialect,
      env: {
        SMTP_URL: 'smtp://127.0.0.1:2525',
        STRIPE_SECRET_KEY: 'sk_test_abc',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      },
    });
    expect(await (await t.request('/api/health')).json()).toMatchObject({ mail: 'smtp', payments: 'stripe' });
  });

  it('stays 200 while the data folder cannot be written: liveness; /api/ready names storage', async () => {
    t = await startTestApp({
      dialect,
      // Tests run as root, which ignores permission bits; a path below a regular file fails for anyone.
      configure: (config) => ({ ...config, DATA_DIR: path.join(config.DATA_DIR, 'blocker', 'var') }),
    });
    await writeFile(path.join(t.dataDir, 'blocker'), 'a file where a folder should be');
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', storage: 'local' });
    const ready = await t.request('/api/ready');
    expect(ready.status).toBe(503);
    // The mail folder lives in the data folder too.
    expect(await ready.json()).toMatchObject({ status: 'unavailable', failing: ['storage', 'mail'] });
  });

  it('stays 200 while the database is gone, without asking it; /api/ready names the database', async () => {
    t = await startTestApp({ dialect });
    await t.db.close();
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', db: dialect });
    const ready = await t.request('/api/ready');
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { failing: string[] }).failing).toContain('database');
  });
});

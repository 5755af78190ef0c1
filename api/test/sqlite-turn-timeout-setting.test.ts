import { SERVICE_BRIEFLY_UNAVAILABLE } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, startTestApp } from './helpers/app.js';
import { CONTACT_FORM } from './helpers/contact.js';
import type { TestApp, TestDatabase } from './helpers/app.js';

let t: TestDatabase | undefined;
let app: TestApp | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
  await app?.close();
  app = undefined;
});

describe('SQLITE_TURN_TIMEOUT_SECONDS', () => {
  it('sets how long a write waits for its turn behind this process’s other writers before it fails', async () => {
    t = await openTestDatabase('sqlite', { env: { SQLITE_TURN_TIMEOUT_SECONDS: '1' } });
    const { sequelize } = t.db;
    const holding = await sequelize.transaction();
    try {
      const started = Date.now();
      const write = sequelize.query("UPDATE submission_files SET name = name WHERE id = 'none'");
      await expect(write).rejects.toThrow('SQLite: no turn to write within 1000 ms');
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    } finally {
      await holding.rollback();
    }
    // The turn given back, the next write goes ahead.
    await sequelize.query("UPDATE submission_files SET name = name WHERE id = 'none'");
  });

  it('answers a request whose write found no turn in time 503 with Retry-After, the database busy, not the request wrong', async () => {
    app = await startTestApp({ dialect: 'sqlite', env: { SQLITE_TURN_TIMEOUT_SECONDS: '1' } });
    const holding = await app.db.sequelize.transaction();
    try {
      const res = await app.request('/api/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...CONTACT_FORM, variant: 'newsletter', message: '' }),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await res.json()).toMatchObject({
        error: { code: 'database_unavailable', message: SERVICE_BRIEFLY_UNAVAILABLE },
      });
    } finally {
      await holding.rollback();
    }
  });
});

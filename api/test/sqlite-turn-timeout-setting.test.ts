import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';

let t: TestDatabase | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
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
});

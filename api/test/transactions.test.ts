import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';
import { DIALECTS } from './helpers/env.js';

describe.each(DIALECTS)('concurrent transactions (%s)', (dialect) => {
  let handle: TestDatabase | undefined;
  afterEach(async () => {
    await handle?.cleanup();
    handle = undefined;
  });

  async function rateRows(db: TestDatabase['db']): Promise<number> {
    const [rows] = await db.sequelize.query('SELECT COUNT(*) AS n FROM rate_limits');
    return Number((rows as Array<{ n: number | string }>)[0]?.n);
  }

  it('commits twenty transactions started at once, none lost and none failing', async () => {
    handle = await openTestDatabase(dialect);
    const { db } = handle;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        db.sequelize.transaction(async (transaction) => {
          await db.sequelize.query('INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 1, ?)', {
            replacements: [`k${i}`, new Date('2030-01-01T00:00:00Z')],
            transaction,
          });
          // Read back inside the transaction so each one holds its connection across several statements.
          await db.sequelize.query('SELECT count FROM rate_limits WHERE key = ?', {
            replacements: [`k${i}`],
            transaction,
          });
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await rateRows(db)).toBe(20);
  });

  it('lets the next transaction run after an unmanaged one rolls back or a managed one throws', async () => {
    handle = await openTestDatabase(dialect);
    const { db } = handle;
    const unmanaged = await db.sequelize.transaction();
    await db.sequelize.query("INSERT INTO rate_limits (key, count, reset_at) VALUES ('gone', 1, ?)", {
      replacements: [new Date()],
      transaction: unmanaged,
    });
    const waiting = db.sequelize.transaction(async (transaction) => {
      await db.sequelize.query("INSERT INTO rate_limits (key, count, reset_at) VALUES ('kept', 1, ?)", {
        replacements: [new Date()],
        transaction,
      });
    });
    await unmanaged.rollback();
    await waiting;
    await expect(
      db.sequelize.transaction(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const [rows] = await db.sequelize.query('SELECT key FROM rate_limits ORDER BY key');
    expect(rows).toEqual([{ key: 'kept' }]);
  });

  it('runs a savepoint inside its parent transaction', async () => {
    handle = await openTestDatabase(dialect);
    const { db } = handle;
    await db.sequelize.transaction(async (parent) => {
      await db.sequelize.query("INSERT INTO rate_limits (key, count, reset_at) VALUES ('outer', 1, ?)", {
        replacements: [new Date()],
        transaction: parent,
      });
      await expect(
        db.sequelize.transaction({ transaction: parent }, async (savepoint) => {
          await db.sequelize.query("INSERT INTO rate_limits (key, count, reset_at) VALUES ('inner', 1, ?)", {
            replacements: [new Date()],
            transaction: savepoint,
          });
          throw new Error('undo the inner insert');
        }),
      ).rejects.toThrow('undo the inner insert');
    });
    const [rows] = await db.sequelize.query('SELECT key FROM rate_limits ORDER BY key');
    expect(rows).toEqual([{ key: 'outer' }]);
  });
});

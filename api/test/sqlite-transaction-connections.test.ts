import { QueryTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';

/**
 * SQLite transactions reuse the connection of the one before (db/sqlite-transaction-connections.ts,
 * issue #34 part 4) when it ended cleanly, and never one whose COMMIT failed: that one may still be inside
 * its transaction, holding the write lock.
 */

let t: TestDatabase | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const connectionOf = (transaction: Transaction) =>
  (transaction as unknown as { connection: object }).connection;

async function numbers(t: TestDatabase): Promise<number[]> {
  const rows = await t.db.sequelize.query<{ n: number }>('SELECT n FROM kept ORDER BY n', {
    type: QueryTypes.SELECT,
  });
  return rows.map((r) => Number(r.n));
}

describe('SQLite transaction connections', () => {
  it('are kept for the next transaction after a commit or a rollback, and work as new', async () => {
    t = await openTestDatabase('sqlite', { migrate: false });
    const { sequelize } = t.db;
    await sequelize.query('CREATE TABLE kept (n INTEGER NOT NULL)');
    const seen: object[] = [];
    await sequelize.transaction(async (transaction) => {
      seen.push(connectionOf(transaction));
      await sequelize.query('INSERT INTO kept (n) VALUES (1)', { transaction });
    });
    await expect(
      sequelize.transaction(async (transaction) => {
        seen.push(connectionOf(transaction));
        await sequelize.query('INSERT INTO kept (n) VALUES (2)', { transaction });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // Several at once take turns, on the one kept connection.
    await Promise.all(
      [3, 4, 5].map((n) =>
        sequelize.transaction(async (transaction) => {
          seen.push(connectionOf(transaction));
          await sequelize.query('INSERT INTO kept (n) VALUES (:n)', { replacements: { n }, transaction });
        }),
      ),
    );
    expect(await numbers(t)).toEqual([1, 3, 4, 5]);
    expect(new Set(seen).size).toBe(1);
  });

  it('closes a connection whose COMMIT failed, and the next transaction gets a new one', async () => {
    t = await openTestDatabase('sqlite', { migrate: false });
    const { sequelize } = t.db;
    await sequelize.query('CREATE TABLE kept (n INTEGER NOT NULL)');
    let first: object | undefined;
    await sequelize.transaction(async (transaction) => {
      first = connectionOf(transaction);
    });
    // The transaction's own COMMIT, sent behind Sequelize's back, makes Sequelize's COMMIT fail.
    await expect(
      sequelize.transaction(async (transaction) => {
        expect(connectionOf(transaction)).toBe(first);
        await sequelize.query('INSERT INTO kept (n) VALUES (1)', { transaction });
        await sequelize.query('COMMIT', { transaction });
      }),
    ).rejects.toThrow(/no transaction is active/);
    let next: object | undefined;
    await sequelize.transaction(async (transaction) => {
      next = connectionOf(transaction);
      await sequelize.query('INSERT INTO kept (n) VALUES (2)', { transaction });
    });
    expect(next).not.toBe(first);
    expect(await numbers(t)).toEqual([1, 2]);
  });
});

import { QueryTypes } from 'sequelize';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDown, migrateUp } from '../src/db/index.js';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';
import { DIALECTS } from './helpers/env.js';

let t: TestDatabase | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/**
 * Migration 0011 (#33): every staff account that existed before roles becomes an owner (nobody who could
 * do everything is locked out by the upgrade), clients get no role; and its down() leaves users whole.
 */
describe.each(DIALECTS)('migration 0011-staff-roles on %s', (dialect) => {
  it('makes existing staff owners and no one else', async () => {
    t = await openTestDatabase(dialect);
    const { db } = t;
    await migrateDown(db, '0011-staff-roles');
    const user = (email: string, role: string) =>
      db.models.User.create({
        email,
        passwordHash: 'x',
        firstName: 'A',
        lastName: 'B',
        role: role as 'staff',
      });
    const staff = await user('old-staff@example.com', 'staff');
    const client = await user('client@example.com', 'client');
    await migrateUp(db);
    const rows = await db.sequelize.query<{ user_id: number; role: string }>(
      'SELECT user_id, role FROM staff_roles ORDER BY user_id',
      { type: QueryTypes.SELECT },
    );
    expect(rows.map((row) => [Number(row.user_id), row.role])).toEqual([[staff.id, 'owner']]);
    expect(rows.some((row) => Number(row.user_id) === client.id)).toBe(false);

    await migrateDown(db, '0011-staff-roles');
    expect(await db.models.User.count()).toBe(2);
  });
});

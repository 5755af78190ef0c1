import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/index.js';
import { staffRoleModels } from '../src/db/models/staff-roles.js';
import { createLogger } from '../src/logger.js';
import { tempDir } from './helpers/env.js';

const API_DIR = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

/**
 * `npm run admin -- create` makes the first owner (#33): the account it creates, or an account it turns
 * into staff, holds the owner role; a staff member who has roles keeps exactly those (resetting a finance
 * member's password from the server does not make them an owner). The prompting itself is cli.test.ts's.
 */
describe('admin create and staff roles', () => {
  let data: { dir: string; remove(): Promise<void> };
  beforeAll(async () => {
    data = await tempDir();
  });
  afterAll(async () => {
    await data?.remove();
  });

  async function admin(email: string, password: string) {
    const { stdout } = await run(
      process.execPath,
      [
        path.join('dist', 'cli', 'admin.js'),
        ...['create', '--email', email, '--first', 'Pat', '--last', 'Lee', '--password', password],
      ],
      { cwd: API_DIR, env: { PATH: process.env.PATH ?? '', DATA_DIR: data.dir }, timeout: 60_000 },
    );
    return stdout;
  }

  async function withDb<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
    const db = await openDatabase(loadConfig({ DATA_DIR: data.dir }), createLogger({ LOG_LEVEL: 'silent' }));
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  }

  const rolesOf = (email: string) =>
    withDb(async (db) => {
      const user = await db.models.User.findOne({ where: { email } });
      const rows = await staffRoleModels(db.sequelize).StaffRole.findAll({ where: { userId: user!.id } });
      return rows.map((row) => row.role).sort();
    });

  it('makes the first account an owner, and leaves a member with roles as they are', async () => {
    expect(await admin('first@example.com', 'first passphrase 1')).toMatch(/^Created staff account first@/);
    expect(await rolesOf('first@example.com')).toEqual(['owner']);

    await withDb(async (db) => {
      const { StaffRole } = staffRoleModels(db.sequelize);
      const user = await db.models.User.create({
        email: 'fin@example.com',
        passwordHash: 'x',
        firstName: 'Fin',
        lastName: 'Ance',
        role: 'staff',
      });
      await StaffRole.create({ userId: user.id, role: 'finance', createdAt: new Date() });
    });
    expect(await admin('fin@example.com', 'finance passphrase 2')).toMatch(/^Updated staff account fin@/);
    expect(await rolesOf('fin@example.com')).toEqual(['finance']);
  });
});

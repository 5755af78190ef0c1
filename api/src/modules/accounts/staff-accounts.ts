import { isValidEmail } from '@avp/shared';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import { normaliseEmail } from '../../db/models/index.js';
import type { UserInstance } from '../../db/models/index.js';
import { hashPassword, MIN_PASSWORD_LENGTH } from './passwords.js';
import { ensureSomeStaffRole } from './roles.js';

export const staffAccountInput = z.object({
  email: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .refine(isValidEmail, 'must be a valid e-mail address'),
  password: z
    .string({ error: 'is required' })
    .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`),
  firstName: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(100, 'must be at most 100 characters'),
  lastName: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(100, 'must be at most 100 characters'),
});
export type StaffAccountInput = z.input<typeof staffAccountInput>;

/**
 * Creates a staff account, or turns the account with that e-mail into a staff account with the given name
 * and a new password (so a forgotten admin password is reset the same way it was set). A staff account
 * with no role becomes an owner (#33: the first owner comes from `npm run admin -- create`).
 */
export async function upsertStaffAccount(
  db: Database,
  input: StaffAccountInput,
): Promise<{ user: UserInstance; created: boolean }> {
  const { email, password, firstName, lastName } = staffAccountInput.parse(input);
  const passwordHash = await hashPassword(password);
  return db.sequelize.transaction(async (transaction) => {
    const existing = await db.models.User.findOne({ where: { email: normaliseEmail(email) }, transaction });
    if (existing) {
      await existing.update({ passwordHash, firstName, lastName, role: 'staff' }, { transaction });
      await ensureSomeStaffRole(db, existing.id, transaction);
      return { user: existing, created: false };
    }
    const user = await db.models.User.create(
      { email, passwordHash, firstName, lastName, role: 'staff' },
      { transaction },
    );
    await ensureSomeStaffRole(db, user.id, transaction);
    return { user, created: true };
  });
}

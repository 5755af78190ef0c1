import { createHash, randomInt } from 'node:crypto';
import type { Transaction } from 'sequelize';
import type { Database } from '../../db/index.js';
import { secondFactorModels } from '../../db/models/second-factors.js';

/**
 * Recovery codes: ten single-use codes shown once when two-step sign-in is turned on (or the set is
 * renewed), for the day the authenticator app is gone. Each is 10 characters from a 31-letter alphabet
 * without look-alikes (49 bits), shown as xxxxx-xxxxx; only its sha-256 is stored, which is enough for
 * codes of that strength (no dictionary to try). Typing is forgiving: case, spaces and dashes are ignored.
 */

export const RECOVERY_CODE_COUNT = 10;
// No i, l, o, 0 or 1, which read alike.
const LETTERS = 'abcdefghjkmnpqrstuvwxyz23456789';

function newCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += LETTERS[randomInt(LETTERS.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The form a code is hashed in: lowercase letters and digits only. */
export function normaliseRecoveryCode(value: string): string {
  return value.toLowerCase().replace(/[\s-]+/g, '');
}

export function looksLikeRecoveryCode(value: string): boolean {
  return /^[a-z0-9]{10}$/.test(normaliseRecoveryCode(value));
}

function hashCode(value: string): string {
  return createHash('sha256').update(normaliseRecoveryCode(value)).digest('hex');
}

/** A new set of codes for the account, replacing any earlier set. Returns the codes, to be shown once. */
export async function newRecoveryCodes(
  db: Database,
  userId: number,
  transaction?: Transaction,
): Promise<string[]> {
  const { RecoveryCode } = secondFactorModels(db.sequelize);
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  const now = new Date();
  await RecoveryCode.destroy({ where: { userId }, transaction });
  await RecoveryCode.bulkCreate(
    [...codes].map((code) => ({ userId, codeHash: hashCode(code), createdAt: now })),
    { transaction },
  );
  return [...codes];
}

/** Spends the code when it is one of the account's unused ones; true when it was. */
export async function useRecoveryCode(db: Database, userId: number, value: string): Promise<boolean> {
  if (!looksLikeRecoveryCode(value)) return false;
  const { RecoveryCode } = secondFactorModels(db.sequelize);
  // Conditional on still being unused: two requests with one code cannot both pass.
  const [spent] = await RecoveryCode.update(
    { usedAt: new Date() },
    { where: { userId, codeHash: hashCode(value), usedAt: null } },
  );
  return spent === 1;
}

export async function recoveryCodesLeft(db: Database, userId: number): Promise<number> {
  const { RecoveryCode } = secondFactorModels(db.sequelize);
  return RecoveryCode.count({ where: { userId, usedAt: null } });
}

export async function removeRecoveryCodes(
  db: Database,
  userId: number,
  transaction?: Transaction,
): Promise<void> {
  const { RecoveryCode } = secondFactorModels(db.sequelize);
  await RecoveryCode.destroy({ where: { userId }, transaction });
}

import { generateSecret, generateURI, verify } from 'otplib';
import { Op } from 'sequelize';
import type { Transaction } from 'sequelize';
import { openSecret, sealSecret } from '../../adapters/payments/secret-box.js';
import type { Database } from '../../db/index.js';
import { secondFactorModels } from '../../db/models/second-factors.js';

/**
 * TOTP (RFC 6238, otplib 13) as a second factor: 6 digits, 30-second steps, SHA-1 (what authenticator apps
 * expect). The secret is sealed at rest with the same AES-256-GCM helper as the stores' payment keys (a key
 * derived from SESSION_SECRET), so a copy of the database alone cannot compute codes. A code is accepted
 * one step either side of now (clock drift), and never twice: the step of the last code accepted is kept
 * and only a later one passes, by a conditional update that two requests racing with one code cannot both
 * win.
 */

const PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = 30;
const CODE = /^\d{6}$/;

export interface TotpEnrolment {
  /** Base32, for typing into an authenticator app. */
  secret: string;
  /** otpauth:// URI (what a QR code would carry). */
  uri: string;
}

export function isTotpCode(value: string): boolean {
  return CODE.test(value);
}

/** A new, unconfirmed secret for the account (replacing an unconfirmed one); null when one is confirmed. */
export async function enrolTotp(
  db: Database,
  secretKey: string,
  user: { id: number; email: string },
  issuer: string,
): Promise<TotpEnrolment | null> {
  const { TotpSecret } = secondFactorModels(db.sequelize);
  const existing = await TotpSecret.findByPk(user.id);
  if (existing?.confirmedAt) return null;
  const secret = generateSecret();
  const sealed = sealSecret(secret, secretKey);
  if (existing) await existing.update({ secretSealed: sealed, createdAt: new Date(), lastStep: null });
  else await TotpSecret.create({ userId: user.id, secretSealed: sealed, createdAt: new Date() });
  return { secret, uri: generateURI({ issuer, label: user.email, secret }) };
}

/**
 * Checks `code` against the account's secret (confirmed or, with `pending`, not yet) and spends it.
 * true only when the code is right for a step after the last one accepted.
 */
export async function checkTotp(
  db: Database,
  secretKey: string,
  userId: number,
  code: string,
  options: { pending?: boolean; transaction?: Transaction } = {},
): Promise<boolean> {
  if (!isTotpCode(code)) return false;
  const { TotpSecret } = secondFactorModels(db.sequelize);
  const row = await TotpSecret.findByPk(userId, { transaction: options.transaction });
  if (row === null || (options.pending === true) === (row.confirmedAt !== null)) return false;
  let secret: string;
  try {
    secret = openSecret(row.secretSealed, secretKey);
  } catch {
    return false;
  }
  const result = await verify({
    secret,
    token: code,
    period: PERIOD_SECONDS,
    epochTolerance: TOLERANCE_SECONDS,
    ...(row.lastStep === null ? {} : { afterTimeStep: row.lastStep }),
  });
  if (!result.valid || !('timeStep' in result)) return false;
  const step = result.timeStep;
  const [spent] = await TotpSecret.update(
    { lastStep: step, ...(options.pending === true ? { confirmedAt: new Date() } : {}) },
    {
      where: {
        userId,
        [Op.or]: [{ lastStep: null }, { lastStep: { [Op.lt]: step } }],
      },
      transaction: options.transaction,
    },
  );
  return spent === 1;
}

export async function hasConfirmedTotp(db: Database, userId: number): Promise<boolean> {
  const { TotpSecret } = secondFactorModels(db.sequelize);
  return (await TotpSecret.count({ where: { userId, confirmedAt: { [Op.ne]: null } } })) > 0;
}

export async function removeTotp(db: Database, userId: number, transaction?: Transaction): Promise<boolean> {
  const { TotpSecret } = secondFactorModels(db.sequelize);
  return (await TotpSecret.destroy({ where: { userId }, transaction })) > 0;
}

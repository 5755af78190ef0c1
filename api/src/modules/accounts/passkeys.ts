import { createHash } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { Op } from 'sequelize';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { secondFactorModels } from '../../db/models/second-factors.js';
import type { PasskeyInstance, WebauthnChallengeAttributes } from '../../db/models/second-factors.js';
import { AppError } from '../../http/errors.js';

/**
 * Passkeys (WebAuthn, @simplewebauthn/server 14) for clients and staff: registered from the account page
 * as discoverable credentials (so the browser's autofill can offer them at sign-in), used to sign in with
 * no password, as the second step after a password, and to renew a fresh sign-in.
 *
 * Each ceremony's challenge is a row (webauthn_challenges, named by the challenge's sha-256) that lives
 * two minutes and is spent by the first answer that names it, so any API process can check an answer to
 * a challenge another made, and an answer cannot be replayed. User verification (a PIN or biometrics on
 * the authenticator) is required: a passkey is then two factors by itself.
 */

export type WebauthnConfig = Pick<
  Config,
  'PUBLIC_URL' | 'WEBAUTHN_RP_ID' | 'WEBAUTHN_RP_NAME' | 'WEBAUTHN_ORIGINS'
>;

export const CHALLENGE_TTL_MS = 2 * 60 * 1000;
export const PASSKEY_NOT_ACCEPTED = 'That passkey was not accepted. Please try again.';
export const PASSKEY_NAME_REQUIRED = 'Please give the passkey a name.';

/** The relying party: WEBAUTHN_RP_ID or PUBLIC_URL's host; WEBAUTHN_ORIGINS or PUBLIC_URL's origin. */
export function relyingParty(config: WebauthnConfig): { id: string; name: string; origins: string[] } {
  const publicUrl = new URL(config.PUBLIC_URL);
  const origins = config.WEBAUTHN_ORIGINS.length > 0 ? config.WEBAUTHN_ORIGINS : [publicUrl.origin];
  return {
    id: config.WEBAUTHN_RP_ID ?? publicUrl.hostname,
    name: config.WEBAUTHN_RP_NAME,
    origins: origins.map((origin) => new URL(origin).origin),
  };
}

const challengeId = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

async function saveChallenge(
  db: Database,
  challenge: string,
  purpose: WebauthnChallengeAttributes['purpose'],
  userId: number | null,
): Promise<void> {
  const { WebauthnChallenge } = secondFactorModels(db.sequelize);
  const now = Date.now();
  await WebauthnChallenge.destroy({ where: { expiresAt: { [Op.lte]: new Date(now) } } });
  await WebauthnChallenge.create({
    id: challengeId(challenge),
    userId,
    purpose,
    challenge,
    expiresAt: new Date(now + CHALLENGE_TTL_MS),
  });
}

/** The challenge the answer's clientDataJSON names, read without trusting anything else in it. */
function answeredChallenge(response: { response?: { clientDataJSON?: unknown } }): string | undefined {
  const data = response.response?.clientDataJSON;
  if (typeof data !== 'string') return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Spends the challenge the answer names: true when it was outstanding for this purpose (and this user,
 * when one is given) and not expired. A challenge is spent whatever the verification then finds.
 */
async function spendChallenge(
  db: Database,
  challenge: string | undefined,
  purpose: WebauthnChallengeAttributes['purpose'],
  userId: number | null,
): Promise<boolean> {
  if (challenge === undefined) return false;
  const { WebauthnChallenge } = secondFactorModels(db.sequelize);
  const spent = await WebauthnChallenge.destroy({
    where: {
      id: challengeId(challenge),
      purpose,
      expiresAt: { [Op.gt]: new Date() },
      ...(userId === null ? {} : { userId }),
    },
  });
  return spent === 1;
}

const notAccepted = () => new AppError(400, 'passkey_not_accepted', PASSKEY_NOT_ACCEPTED);

const credentialShape = z.object({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.object({ clientDataJSON: z.string().max(8192) }).passthrough(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().optional(),
});

function parseCredential<T>(value: unknown): T {
  const parsed = credentialShape.passthrough().safeParse(value);
  if (!parsed.success) throw notAccepted();
  return parsed.data as T;
}

export const passkeyNameInput = z.object({
  name: z
    .string({ error: PASSKEY_NAME_REQUIRED })
    .trim()
    .min(1, PASSKEY_NAME_REQUIRED)
    .max(100, 'A passkey name has at most 100 characters.'),
});

const transportsOf = (row: PasskeyInstance): AuthenticatorTransport[] | undefined => {
  if (row.transports === null) return undefined;
  try {
    return JSON.parse(row.transports) as AuthenticatorTransport[];
  } catch {
    return undefined;
  }
};

export interface PasskeyView {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function passkeyView(row: PasskeyInstance): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function listPasskeys(db: Database, userId: number): Promise<PasskeyInstance[]> {
  const { Passkey } = secondFactorModels(db.sequelize);
  return Passkey.findAll({
    where: { userId },
    order: [
      ['createdAt', 'ASC'],
      ['id', 'ASC'],
    ],
  });
}

export async function countPasskeys(db: Database, userId: number): Promise<number> {
  const { Passkey } = secondFactorModels(db.sequelize);
  return Passkey.count({ where: { userId } });
}

export async function registrationOptions(
  db: Database,
  config: WebauthnConfig,
  user: { id: number; email: string; firstName: string; lastName: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(config);
  const existing = await listPasskeys(db, user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
    // The user handle: the account's id, no personal data.
    userID: new TextEncoder().encode(String(user.id)),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({
      id: row.credentialId,
      ...(transportsOf(row) ? { transports: transportsOf(row) } : {}),
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_TTL_MS,
  });
  await saveChallenge(db, options.challenge, 'register', user.id);
  return options;
}

/** Checks the browser's answer to a registration challenge and stores the new passkey. */
export async function registerPasskey(
  db: Database,
  config: WebauthnConfig,
  userId: number,
  name: string,
  body: unknown,
): Promise<PasskeyInstance> {
  const response = parseCredential<RegistrationResponseJSON>(body);
  if (!(await spendChallenge(db, answeredChallenge(response), 'register', userId))) throw notAccepted();
  const rp = relyingParty(config);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: () => true, // spent above: it was ours, for this user, and in time
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw notAccepted();
  }
  if (!verification.verified) throw notAccepted();
  const { credential } = verification.registrationInfo;
  const { Passkey } = secondFactorModels(db.sequelize);
  if ((await Passkey.count({ where: { credentialId: credential.id } })) > 0) {
    throw new AppError(409, 'passkey_exists', 'This passkey is already registered.');
  }
  return Passkey.create({
    userId,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ? JSON.stringify(credential.transports) : null,
    name,
    createdAt: new Date(),
  });
}

/**
 * Options for signing in with a passkey. With no user (sign-in): discoverable, the browser offers the
 * passkeys it holds for this site; with a user (a second step or a fresh sign-in): that account's.
 */
export async function authenticationOptions(
  db: Database,
  config: WebauthnConfig,
  purpose: 'authenticate' | 'reauthenticate',
  userId: number | null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rp = relyingParty(config);
  const allow = userId === null ? [] : await listPasskeys(db, userId);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
    allowCredentials: allow.map((row) => ({
      id: row.credentialId,
      ...(transportsOf(row) ? { transports: transportsOf(row) } : {}),
    })),
  });
  await saveChallenge(db, options.challenge, purpose, userId);
  return options;
}

/**
 * Checks an answer to an authentication challenge; returns the passkey's account id. With `userId`, the
 * passkey must be that account's. The stored counter moves on, and the passkey's last use is recorded.
 */
export async function authenticateWithPasskey(
  db: Database,
  config: WebauthnConfig,
  purpose: 'authenticate' | 'reauthenticate',
  userId: number | null,
  body: unknown,
): Promise<number> {
  const response = parseCredential<AuthenticationResponseJSON>(body);
  if (!(await spendChallenge(db, answeredChallenge(response), purpose, userId))) throw notAccepted();
  const { Passkey } = secondFactorModels(db.sequelize);
  const row = await Passkey.findOne({
    where: { credentialId: response.id, ...(userId === null ? {} : { userId }) },
  });
  if (row === null) throw notAccepted();
  const rp = relyingParty(config);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: () => true, // spent above
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: row.credentialId,
        publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
        counter: row.counter,
        ...(transportsOf(row) ? { transports: transportsOf(row) } : {}),
      },
    });
  } catch {
    throw notAccepted();
  }
  if (!verification.verified) throw notAccepted();
  await row.update({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() });
  return row.userId;
}

export async function renamePasskey(
  db: Database,
  userId: number,
  id: number,
  name: string,
): Promise<PasskeyInstance> {
  const { Passkey } = secondFactorModels(db.sequelize);
  const row = await Passkey.findOne({ where: { id, userId } });
  if (row === null) throw new AppError(404, 'not_found', 'This passkey no longer exists.');
  await row.update({ name });
  return row;
}

export async function removePasskey(db: Database, userId: number, id: number): Promise<PasskeyInstance> {
  const { Passkey } = secondFactorModels(db.sequelize);
  const row = await Passkey.findOne({ where: { id, userId } });
  if (row === null) throw new AppError(404, 'not_found', 'This passkey no longer exists.');
  await row.destroy();
  return row;
}

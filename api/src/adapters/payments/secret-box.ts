import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Store-level Stripe secret keys are encrypted at rest (DESIGN 'Payments'): AES-256-GCM under a key derived
 * from SESSION_SECRET with HKDF-SHA256, so the database alone (a backup, a leaked dump) never yields a key
 * that can move money. Sealed form: 'v1.<iv>.<tag>.<ciphertext>', each part base64url.
 *
 * Changing SESSION_SECRET makes sealed keys unreadable: staff then enter the store's keys again.
 */

const VERSION = 'v1';
const SALT = 'avp-store-secret-keys';
const INFO = 'stripe-secret-key';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const keys = new Map<string, Buffer>();

function keyFor(sessionSecret: string): Buffer {
  let key = keys.get(sessionSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', sessionSecret, SALT, INFO, 32));
    keys.set(sessionSecret, key);
  }
  return key;
}

export function sealSecret(plain: string, sessionSecret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyFor(sessionSecret), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(INFO));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function openSecret(sealed: string, sessionSecret: string): string {
  const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) {
    throw new SecretBoxError('The stored secret is not in a known sealed form.');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(sessionSecret), Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(INFO));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretBoxError('The stored secret cannot be decrypted (was SESSION_SECRET changed?).');
  }
}

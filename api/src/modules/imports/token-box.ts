import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Provider access tokens at rest: AES-256-GCM under a key derived from SESSION_SECRET, so a copy of the
 * database alone does not hand anyone the clients' cloud files. A token that no longer decrypts (the
 * secret was rotated) reads as none: the import then asks the client to sign in again.
 */
export class TokenBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'avp-cloud-imports', 'access-token', 32));
  }

  seal(token: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      sealed.toString('base64url'),
    ].join('.');
  }

  open(value: string | null): string | null {
    if (!value) return null;
    const [version, iv, tag, sealed] = value.split('.');
    if (version !== 'v1' || !iv || !tag || sealed === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return null;
    }
  }
}

/**
 * DEVELOPMENT ONLY. The bridge's stand-in for the system browser in cloud sign-ins: the app opens the
 * provider's sign-in page with shell.openExternal; the bridge has no browser of its own to open, so it
 * keeps the last address for its panel to show as a link (and for a test to visit, completing the
 * loopback redirect as the system browser would), and prints it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CloudProvider } from '@avp/shared';
import type { SecretCipher } from '../engine/cloud/index.js';

export interface SignInPage {
  provider: CloudProvider;
  url: string;
  openedAt: string;
}

export class SignInPages {
  private last: SignInPage | null = null;
  private readonly listeners = new Set<(page: SignInPage) => void>();

  /** CloudAccounts' openBrowser. */
  readonly open = (url: string, provider: CloudProvider): void => {
    this.last = { provider, url, openedAt: new Date().toISOString() };
    console.log(`Sign-in page for ${provider} (open it in a browser): ${url}`);
    for (const listener of this.listeners) listener(this.last);
  };

  latest(): SignInPage | null {
    return this.last;
  }

  onOpen(listener: (page: SignInPage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * AES-256-GCM under a key made at start and kept only in memory: the bridge forgets its accounts when
 * it stops (as it forgets the sign-in), and nothing it writes holds a token in the clear.
 */
export function memoryCipher(): SecretCipher {
  const key = randomBytes(32);
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64url')).join('.');
    },
    decrypt(text) {
      const [iv, tag, sealed] = text.split('.');
      if (!iv || !tag || sealed === undefined) throw new Error('Not a sealed secret.');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

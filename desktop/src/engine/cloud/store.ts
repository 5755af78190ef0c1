/**
 * Where connected accounts are kept: one record per provider, with the refresh token (or msal's cache) and
 * the cached access token sealed by an injected cipher. The app plugs in Electron's safeStorage (the OS
 * keychain's key) over electron-store; av-upload uses a JSON file and a key file of its own (fileKeyCipher).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CloudProvider } from '@avp/shared';

/** Seals a secret into a string and back; decrypt throws on anything it did not seal. */
export interface SecretCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export interface AccountRecord {
  provider: CloudProvider;
  email: string | null;
  name: string | null;
  scopes: string[];
  connectedAt: string;
  /** The sealed refresh token (OneDrive: msal-node's sealed token cache). */
  secret: string;
  /** The sealed access token last obtained, and when it runs out (ms since the epoch; null: unknown). */
  accessToken: string | null;
  accessTokenExpiresAt: number | null;
}

/** Synchronous like electron-store: a write has reached the store when save() returns. */
export interface AccountStore {
  load(): AccountRecord[];
  save(records: AccountRecord[]): void;
}

export class MemoryAccountStore implements AccountStore {
  private json = '[]';
  load(): AccountRecord[] {
    return JSON.parse(this.json) as AccountRecord[];
  }
  save(records: AccountRecord[]): void {
    this.json = JSON.stringify(records);
  }
}

/** A JSON file readable by its owner only, written atomically (av-upload's accounts.json). */
export class JsonFileAccountStore implements AccountStore {
  constructor(readonly file: string) {}

  load(): AccountRecord[] {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as {
        version?: number;
        accounts?: AccountRecord[];
      };
      return parsed.version === 1 && Array.isArray(parsed.accounts) ? parsed.accounts : [];
    } catch {
      return [];
    }
  }

  save(records: AccountRecord[]): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ version: 1, accounts: records }, null, 2), { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.file);
  }
}

/** electron-store (or anything with get/set of one key) as an AccountStore. */
export function keyValueAccountStore(
  store: { get(key: string): unknown; set(key: string, value: unknown): void },
  key = 'cloudAccounts',
): AccountStore {
  return {
    load: () => {
      const value = store.get(key);
      return Array.isArray(value) ? (value as AccountRecord[]) : [];
    },
    save: (records) => store.set(key, records),
  };
}

/**
 * AES-256-GCM under a random key kept in its own file (mode 0600) beside the accounts file. What it
 * protects against: the accounts file alone leaking (a backup, a synced dotfile folder, a file attached to
 * a support request) reveals no token. What it does not: anything running as the same user can read the
 * key file as easily as the accounts file, exactly as it can read credentials.json; that is the ceiling
 * for a command-line tool without an OS keychain. The desktop app uses safeStorage instead.
 */
export function fileKeyCipher(keyFile: string): SecretCipher {
  let key: Buffer | null = null;
  const load = (): Buffer => {
    if (key) return key;
    try {
      key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
      if (key.length === 32) return key;
    } catch {
      // no key yet
    }
    key = randomBytes(32);
    mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
    writeFileSync(keyFile, key.toString('base64'), { mode: 0o600 });
    chmodSync(keyFile, 0o600);
    return key;
  };
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', load(), iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1.${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${sealed.toString('base64url')}`;
    },
    decrypt(text) {
      const [version, iv, tag, sealed] = text.split('.');
      if (version !== 'v1' || !iv || !tag || sealed === undefined) throw new Error('Not a sealed secret.');
      const decipher = createDecipheriv('aes-256-gcm', load(), Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/**
 * Electron's safeStorage as a SecretCipher (main process: `safeStorageCipher(safeStorage)`); the engine
 * never imports electron, so the object is handed in.
 */
export function safeStorageCipher(safeStorage: {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(sealed: Buffer): string;
}): SecretCipher {
  return {
    encrypt(plain) {
      if (!safeStorage.isEncryptionAvailable())
        throw new Error('The system keychain is not available, so cloud sign-ins cannot be kept safely.');
      return safeStorage.encryptString(plain).toString('base64');
    },
    decrypt: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}

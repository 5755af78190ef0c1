/** Where the CLI keeps its sign-in and its queue: AV_UPLOAD_HOME, else $XDG_CONFIG_HOME/av-upload, else ~/.config/av-upload. */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface Credentials {
  server: string;
  email: string;
  token: string;
  expiresAt: string;
}

export function homeDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AV_UPLOAD_HOME) return path.resolve(env.AV_UPLOAD_HOME);
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'av-upload');
}

export const credentialsFile = (home: string) => path.join(home, 'credentials.json');
export const stateFile = (home: string) => path.join(home, 'queue.json');
/** Connected cloud accounts, their tokens sealed with the key in accountsKeyFile (both 0600). */
export const accountsFile = (home: string) => path.join(home, 'accounts.json');
export const accountsKeyFile = (home: string) => path.join(home, 'accounts.key');

export function readCredentials(home: string): Credentials | null {
  try {
    return JSON.parse(readFileSync(credentialsFile(home), 'utf8')) as Credentials;
  } catch {
    return null;
  }
}

/** Written readable by the owner only: the token is a session. */
export function writeCredentials(home: string, credentials: Credentials): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(credentialsFile(home), JSON.stringify(credentials, null, 2), { mode: 0o600 });
  chmodSync(credentialsFile(home), 0o600);
}

export function deleteCredentials(home: string): void {
  rmSync(credentialsFile(home), { force: true });
}

/** Which server a command talks to, and the sign-in it needs. */
import { readCredentials } from './config.js';
import type { Credentials } from './config.js';
import { CliError, EXIT } from './errors.js';

export function defaultServer(): string {
  return process.env.AV_UPLOAD_SERVER ?? 'http://127.0.0.1:3000';
}

export function signedIn(home: string): Credentials {
  const credentials = readCredentials(home);
  if (!credentials) throw new CliError(EXIT.auth, 'Not signed in: run `av-upload login --email …` first.');
  return credentials;
}

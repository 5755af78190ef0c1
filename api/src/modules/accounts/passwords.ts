import { hash, verify } from '@node-rs/argon2';
import type { Algorithm, Options } from '@node-rs/argon2';

/**
 * Algorithm.Argon2id. The package declares Algorithm as an ambient `const enum`, which isolatedModules code
 * cannot read, and its native module exports no Algorithm object at runtime; 2 is that member's value.
 */
const ARGON2ID: Algorithm = 2;

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const OPTIONS: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const MIN_PASSWORD_LENGTH = 8;

/** An argon2id PHC string ('$argon2id$v=19$m=19456,t=2,p=1$...'), salted per call. */
export async function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** False for a wrong password and for a stored value that is not an argon2 hash at all. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

import { passwordPolicyError } from '@avp/shared';
import { COMMON_PASSWORDS_TEXT } from './common-passwords.js';

/** not in SPEC: the policy's refusal of a password from the common-passwords list. */
export const PASSWORD_TOO_COMMON =
  'This password is too common and easy to guess. Please choose a different one.';

let common: ReadonlySet<string> | undefined;

function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    COMMON_PASSWORDS_TEXT.split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  );
  return common;
}

/** Compared lowercased: 'PASSWORD1' is as guessable as 'password1'. */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/**
 * The whole server-side password policy for a new password: shared's length rule (8 to 128 characters,
 * worded as the spec's hint) and the common-passwords list. Undefined when acceptable.
 */
export function newPasswordError(password: string): string | undefined {
  return passwordPolicyError(password) ?? (isCommonPassword(password) ? PASSWORD_TOO_COMMON : undefined);
}

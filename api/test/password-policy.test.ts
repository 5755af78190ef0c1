import { describe, expect, it } from 'vitest';
import { isCommonPassword, newPasswordError, PASSWORD_TOO_COMMON } from '../src/modules/accounts/index.js';

/** The server's policy for a new password: shared's length rule, then zxcvbn's refusal of common ones. */
describe('newPasswordError', () => {
  it('answers checks made together while the dictionaries first load', async () => {
    expect(
      await Promise.all([isCommonPassword('football1'), isCommonPassword('Compiler Pioneer 1952')]),
    ).toEqual([true, false]);
  });

  it.each([
    'password1',
    'PASSWORD1',
    'P@ssw0rd',
    'qwertyuiop',
    '12345678',
    'sunshine1',
    'iloveyou!',
    'jennifer1984',
  ])('refuses %s as too common', async (password) => {
    expect(await newPasswordError(password)).toBe(PASSWORD_TOO_COMMON);
  });

  it.each(['Difference Engine 1843', 'Staff passphrase 9', 'correct horse battery staple', 'Tr0ub4dor&3'])(
    'accepts %s',
    async (password) => {
      expect(await newPasswordError(password)).toBeUndefined();
    },
  );

  it('answers the length rule before looking the password up', async () => {
    expect(await newPasswordError('Abc!12')).toBe(
      'You are required to add 2 more character(s) to this field.',
    );
    expect(await newPasswordError('x'.repeat(129))).toBe('Please use no more than 128 characters.');
  });
});

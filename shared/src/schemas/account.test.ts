import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  adminUserInfoSchema,
  clientUserSchema,
  forgotPasswordSchema,
  loginFormSchema,
  passwordHints,
  passwordPolicyError,
  passwordPolicySchema,
  registrationSchema,
} from './account.js';
import { fieldErrors } from './common.js';
import { CURRENT_PASSWORD_REQUIRED } from '../messages.js';

function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
}

describe('SPEC §5 Login: e-mail and password non-empty', () => {
  it.each([
    [{ email: 'ada@example.com', password: 'secret' }, {}],
    [{ email: 'not checked for format', password: 'x' }, {}],
    [{ email: '', password: 'x' }, { email: 'Please enter your email address.' }],
    [{ email: '   ', password: 'x' }, { email: 'Please enter your email address.' }],
    [
      { email: 'ada@example.com', password: '' },
      { password: 'Please enter your password (case sensitive).' },
    ],
    [
      {},
      { email: 'Please enter your email address.', password: 'Please enter your password (case sensitive).' },
    ],
  ])('%j -> %j', (input, errors) => {
    expect(errorsOf(loginFormSchema, input)).toEqual(errors);
  });

  it('trims the e-mail but never the password', () => {
    expect(loginFormSchema.parse({ email: ' ada@example.com ', password: ' pass ' })).toEqual({
      email: 'ada@example.com',
      password: ' pass ',
    });
  });
});

describe('SPEC §5 Forgot password: non-empty e-mail', () => {
  it.each([
    [{ email: 'ada@example.com' }, {}],
    [{ email: '' }, { email: 'Please enter your email address.' }],
    [{}, { email: 'Please enter your email address.' }],
  ])('%j -> %j', (input, errors) => {
    expect(errorsOf(forgotPasswordSchema, input)).toEqual(errors);
  });
});

describe('Password policy: 8 to 128 characters (SPEC §5 password hints word the shortfall)', () => {
  it.each([
    ['', 'You are required to add 8 more character(s) to this field.'],
    ['abc', 'You are required to add 5 more character(s) to this field.'],
    ['abcdefg', 'You are required to add 1 more character(s) to this field.'],
    ['abcdefgh', undefined],
    ['😀😀😀😀😀😀😀😀', undefined], // eight characters, sixteen UTF-16 units
    ['😀😀😀😀', 'You are required to add 4 more character(s) to this field.'],
    ['x'.repeat(128), undefined],
    ['x'.repeat(129), 'Please use no more than 128 characters.'],
  ] as const)('%j -> %j', (password, message) => {
    expect(passwordPolicyError(password)).toBe(message);
    const result = passwordPolicySchema.safeParse(password);
    expect(result.success ? undefined : result.error.issues[0]?.message).toBe(message);
  });
});

describe('SPEC §5 Form widget rules: password hints, in order', () => {
  it.each([
    [
      '',
      [
        'This field requires at least one uppercase value.',
        'You are required to add 8 more character(s) to this field.',
        'A symbol is required.',
      ],
    ],
    [
      'abc',
      [
        'This field requires at least one uppercase value.',
        'You are required to add 5 more character(s) to this field.',
        'A symbol is required.',
      ],
    ],
    ['Abc', ['You are required to add 5 more character(s) to this field.', 'A symbol is required.']],
    ['abcdefgh!', ['This field requires at least one uppercase value.']],
    ['Abcdefgh', ['A symbol is required.']],
    ['Abcdefg!', []],
    ['Ábcdefg#', []], // non-ASCII uppercase counts
    ['Abcdefg ', ['A symbol is required.']], // a space is not a symbol
    ['Abcdefg_', []],
    ['Abcdefg€', []],
  ] as const)('%j -> %j', (password, hints) => {
    expect(passwordHints(password)).toEqual(hints);
  });
});

const person = {
  email: 'ada@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  company: 'Analytical Engines',
  phone: '(415) 555-2671',
};

describe('SPEC §5 Registration (new account)', () => {
  const create = registrationSchema({ mode: 'create' });
  const withPasswords = { ...person, password: 'Correct-Horse1', confirmPassword: 'Correct-Horse1' };

  it('accepts a complete registration', () => {
    expect(create.parse(withPasswords)).toEqual(withPasswords);
  });

  it.each([
    ['invalid e-mail', { email: 'ada@' }, { email: 'Please enter a valid email address.' }],
    ['missing e-mail', { email: undefined }, { email: 'Please enter a valid email address.' }],
    ['missing first name', { firstname: '' }, { firstname: 'Please enter a firstname.' }],
    ['missing last name', { lastname: ' ' }, { lastname: 'Please enter a lastname.' }],
    ['missing company', { company: undefined }, { company: 'Please enter a company.' }],
    ['missing phone', { phone: '' }, { phone: 'Please enter a valid phone number: (xxx)-xxx-xxxx' }],
    ['absent phone', { phone: undefined }, { phone: 'Please enter a valid phone number: (xxx)-xxx-xxxx' }],
    ['invalid phone', { phone: '555-2671' }, { phone: 'Please enter a valid phone number: (xxx)-xxx-xxxx' }],
    ['11-digit phone', { phone: '14155552671' }, {}],
    ['passwords differ', { confirmPassword: 'Correct-Horse2' }, { confirmPassword: 'Passwords must match.' }],
    ['passwords empty', { password: '', confirmPassword: '' }, { confirmPassword: 'Passwords must match.' }],
    [
      'passwords absent',
      { password: undefined, confirmPassword: undefined },
      { confirmPassword: 'Passwords must match.' },
    ],
    ['confirmation empty', { confirmPassword: '' }, { confirmPassword: 'Passwords must match.' }],
    [
      'matching but too short',
      { password: 'Abc!', confirmPassword: 'Abc!' },
      { password: 'You are required to add 4 more character(s) to this field.' },
    ],
    [
      'matching but too long',
      { password: 'x'.repeat(129), confirmPassword: 'x'.repeat(129) },
      { password: 'Please use no more than 128 characters.' },
    ],
  ] as const)('%s', (_name, change, errors) => {
    expect(errorsOf(create, { ...withPasswords, ...change })).toEqual(errors);
  });

  it('shows the password message alongside field errors', () => {
    expect(errorsOf(create, { ...withPasswords, firstname: '', confirmPassword: 'other' })).toEqual({
      firstname: 'Please enter a firstname.',
      confirmPassword: 'Passwords must match.',
    });
  });
});

describe('SPEC §5 Registration (account update): an empty password means unchanged', () => {
  const update = registrationSchema({ mode: 'update', currentEmail: person.email });
  const current = { currentPassword: 'Difference Engine 1843' };

  it.each([
    ['both empty: unchanged', { password: '', confirmPassword: '' }, {}],
    ['both absent: unchanged', {}, {}],
    [
      'new matching password',
      { password: 'Correct-Horse1', confirmPassword: 'Correct-Horse1', ...current },
      {},
    ],
    [
      'only the password',
      { password: 'Correct-Horse1', confirmPassword: '', ...current },
      { confirmPassword: 'Passwords must match.' },
    ],
    [
      'only the confirmation',
      { password: '', confirmPassword: 'Correct-Horse1', ...current },
      { confirmPassword: 'Passwords must match.' },
    ],
    [
      'new password too short',
      { password: 'short', confirmPassword: 'short', ...current },
      { password: 'You are required to add 3 more character(s) to this field.' },
    ],
    ['profile fields still checked', { company: '' }, { company: 'Please enter a company.' }],
  ] as const)('%s', (_name, change, errors) => {
    expect(errorsOf(update, { ...person, ...change })).toEqual(errors);
  });

  it('keeps the two empty strings so the API can tell "unchanged"', () => {
    expect(update.parse(person)).toEqual({ ...person, password: '', confirmPassword: '' });
  });
});

describe('Account update: a new e-mail or password needs the current password (docs/decisions.md)', () => {
  const update = registrationSchema({ mode: 'update', currentEmail: person.email });
  const required = { currentPassword: CURRENT_PASSWORD_REQUIRED };

  it.each([
    ['a new password', { password: 'Correct-Horse1', confirmPassword: 'Correct-Horse1' }, required],
    [
      'a new password, mistyped',
      { password: 'Correct-Horse1', confirmPassword: 'x' },
      {
        confirmPassword: 'Passwords must match.',
        ...required,
      },
    ],
    ['a new e-mail', { email: 'countess@example.com' }, required],
    ['the same e-mail in other case and spacing', { email: ' ADA@Example.com ' }, {}],
    ['a new e-mail with the current password', { email: 'countess@example.com', currentPassword: 'x' }, {}],
    ['only names', { firstname: 'Augusta' }, {}],
  ] as const)('%s', (_name, change, errors) => {
    expect(errorsOf(update, { ...person, ...change })).toEqual(errors);
  });

  it('counts every update as a new e-mail while the stored one is unknown', () => {
    expect(errorsOf(registrationSchema({ mode: 'update' }), person)).toEqual(required);
  });

  it('registration never asks for it', () => {
    const create = registrationSchema({ mode: 'create' });
    const body = { ...person, password: 'Correct-Horse1', confirmPassword: 'Correct-Horse1' };
    expect(errorsOf(create, body)).toEqual({});
  });
});

describe('SPEC §3 Client user and Admin user info', () => {
  it.each([
    [{ userid: 1, ...person }, true],
    [{ userid: 0, ...person }, false],
    [{ ...person }, false],
  ] as const)('client user %j -> %s', (input, ok) => {
    expect(clientUserSchema.safeParse(input).success).toBe(ok);
  });

  it('never carries a password', () => {
    expect(clientUserSchema.parse({ userid: 1, ...person, password: 'leak' })).not.toHaveProperty('password');
  });

  it.each([
    [{ firstname: 'Grace', lastname: 'Hopper' }, true],
    [{ firstname: 'Grace' }, false],
  ] as const)('admin user info %j -> %s', (input, ok) => {
    expect(adminUserInfoSchema.safeParse(input).success).toBe(ok);
  });
});

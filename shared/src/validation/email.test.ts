import { describe, expect, it } from 'vitest';
import { isValidEmail, isValidOrderEmail } from './email.js';

const VALID = [
  'user@example.com',
  'first.last@example.co.uk',
  'user+tag@example.io',
  "o'brien@example.ie",
  'user_name-1@sub.domain.example.org',
  'USER@EXAMPLE.COM',
  '"john doe"@example.com',
  'user@[192.168.0.1]',
  'user@[0.0.0.0]',
  'user@[255.255.255.255]',
  'user@my-host.example.com',
  'user@123.example.com',
  'x@ab.cd',
  '  padded@example.com  ',
  'user@example.museum',
];

const INVALID = [
  ['', 'empty'],
  ['   ', 'blank'],
  ['plainaddress', 'no @'],
  ['@example.com', 'no local part'],
  ['user@', 'no domain'],
  ['user@example', 'undotted domain'],
  ['user@example.c', 'one-letter TLD'],
  ['user@example.c0m', 'TLD with a digit'],
  ['user@example.123', 'numeric TLD'],
  ['user@@example.com', 'two @'],
  ['user name@example.com', 'space in local part'],
  ['.user@example.com', 'leading dot'],
  ['user.@example.com', 'trailing dot'],
  ['us..er@example.com', 'double dot'],
  ['user@example..com', 'empty domain label'],
  ['user@.example.com', 'domain starts with a dot'],
  ['user@-example.com', 'label starts with a dash'],
  ['user@example-.com', 'label ends with a dash'],
  ['user@exa_mple.com', 'underscore in domain'],
  ['user@[256.1.1.1]', 'octet above 255'],
  ['user@[192.168.0]', 'three octets'],
  ['user@[192.168.0.1.5]', 'five octets'],
  ['user@192.168.0.1', 'unbracketed IPv4'],
  ['user@[1.2.3.04a]', 'letters in an octet'],
  ['us(er)@example.com', 'parentheses'],
  ['us,er@example.com', 'comma'],
  ['user@example.com, other@example.com', 'two addresses'],
  ['"unterminated@example.com', 'open quote'],
] as const;

describe('SPEC §5 E-mail (shared check)', () => {
  it.each(VALID)('accepts %j', (value) => {
    expect(isValidEmail(value)).toBe(true);
  });

  it.each(INVALID)('rejects %j (%s)', (value) => {
    expect(isValidEmail(value)).toBe(false);
  });
});

describe('SPEC §5 E-mail on the order form (empty passes the format check)', () => {
  it.each([
    ['', true],
    ['   ', true],
    ['buyer@example.com', true],
    [' buyer@example.com ', true],
    ['buyer@', false],
    ['buyer', false],
  ] as const)('%j -> %s', (value, expected) => {
    expect(isValidOrderEmail(value)).toBe(expected);
  });
});

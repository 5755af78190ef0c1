import fc from 'fast-check';

/**
 * The hostile inputs of the fuzz suite (api/test/fuzz.test.ts): what an attacker, a broken client or a
 * copy-paste accident sends to a JSON API. Every arbitrary here is plain data; the suite decides where it
 * goes (a field, a route parameter, a query string, the body itself).
 */

/** About 1 MB of text that still fits under the JSON body limit, so it reaches the handlers. */
export const MEGABYTE_STRING = 'A'.repeat(1_000_000);
/** Just over the body limit: the parser must refuse it (413), not the handler. */
export const OVER_LIMIT_STRING = 'B'.repeat(1_100_000);
/** About 1 MB in two-byte characters (500,000 of them). */
export const MEGABYTE_UNICODE = 'é'.repeat(500_000);

const CONTROL = fc.constantFrom(
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)),
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\ufeff',
);

/** Strings people rarely type: NUL and control characters, astral, right-to-left and combining marks. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    'ada@example.com\u0000',
    '\u0000@example.com',
    '\r\nBcc: victim@example.com',
    '\u202egnp.exe',
    '\u200f\u05e9\u05dc\u05d5\u05dd',
    'e\u0301\u0301\u0301',
    'Z\u0351\u0300\u036b\u0353\u034c\u0350\u0358',
    '\ud83c\udfa5\ud83c\udfac',
    '\ud835\udd4f',
    '\ud800',
    '\udfff',
    '\ufffd',
    '<script>alert(1)</script>',
    "' OR '1'='1",
    '"; DROP TABLE users; --',
    '=HYPERLINK("http://evil.example")',
    '../../etc/passwd',
    '%00',
    '${jndi:ldap://x}',
    '__proto__',
    'constructor',
    'prototype',
    'null',
    'true',
    '-1',
    '1e309',
    'NaN',
    '2024-02-30',
    '9999-12-31',
    '0000-00-00 00:00:00',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: CONTROL, minLength: 1, maxLength: 8 }),
  fc.string({ unit: 'binary-ascii', minLength: 256, maxLength: 2_000 }),
);

/** Numbers at and past every boundary a column or a counter has. */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1.5,
    -1.5,
    0.1,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 32,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53) - 2,
    1e21,
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.EPSILON,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Numbers JSON can carry but JavaScript cannot represent (they parse to Infinity or lose digits). */
export const RAW_NUMBERS = ['1e400', '-1e400', '123456789012345678901234567890', '1.0000000000000000001'];
const RAW = (text: string) => `@@RAW(${text})@@`;

/** Any hostile JSON value: wrong types, nulls, arrays where objects are expected, big things. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: nastyString },
  { weight: 4, arbitrary: nastyNumber },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [[]], [{}], { length: 1 }),
  },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_NUMBERS.map(RAW)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(MEGABYTE_STRING, MEGABYTE_UNICODE) },
);

/** One of the values a field is expected to hold (the suite swaps hostile values in on its own). */
export function field(...plausible: unknown[]): fc.Arbitrary<unknown> {
  return fc.constantFrom(...plausible);
}

/** Inside a nested value: mostly what is expected, sometimes something hostile. */
export function mostly(...plausible: unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...plausible) }, nastyValue);
}

/** JSON keys meant to reach Object.prototype through a careless merge or lookup. */
export const POLLUTION =
  '{"__proto__":{"polluted":"yes","role":"staff","isAdmin":true},' +
  '"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}';

/** JSON text for a value, with RAW(...) markers replaced by the number text itself. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"@@RAW\(([^)]*)\)@@"/g, '$1');
}

/** Bodies that are not JSON, or JSON no handler expects at the top. */
export const malformedJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '}',
    '{"email":',
    '{"email": "ada@example.com",}',
    "{'email': 'ada@example.com'}",
    '{email: 1}',
    'nul',
    'undefined',
    'NaN',
    '[1, 2',
    '"\\ud800"',
    '"\\u0000"',
    '\u0000',
    '\ufeff{}',
    '{"a":1}{"b":2}',
    '{"a":1} trailing',
    '1e400',
    '-',
    '{"__proto__":',
    '{"a":"\\x41"}',
    '{"a":"\u0001"}',
    `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
    `${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`,
    `{"a":"${OVER_LIMIT_STRING}"}`,
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
);

/**
 * Route parameters and query values, as they appear in the URL. Most are percent-encoded; the first list
 * goes in raw, on purpose (a malformed escape such as %ZZ, an encoded NUL, a dot segment).
 */
export const nastyParam: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '-1',
      '0',
      '1.5',
      '-1.5',
      '1e3',
      '1e309',
      'NaN',
      'Infinity',
      '-0',
      '+1',
      '0x1F',
      '00000000001',
      '2147483648',
      '9007199254740993',
      '99999999999999999999',
      '%00',
      'a%00b',
      '%ZZ',
      '%',
      '%2F',
      '%2e%2e',
      '..',
      '%E2%80%AE',
      '%F0%9F%8E%A5',
      '%CC%81',
      '%C0%AF',
      '%ED%A0%80',
      '__proto__',
      'constructor',
      'prototype',
      'null',
      '%20',
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      'x'.repeat(3_000),
    ),
  },
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.uuid().map((id) => id.toUpperCase()) },
  { weight: 3, arbitrary: nastyString.map((s) => encodeURIComponent(s.replace(/\p{Cs}/gu, '\ufffd'))) },
);

/** A header value (fetch refuses NUL, CR, LF and anything past Latin-1 in headers). */
export const nastyHeader: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', 'null', '-1', 'x'.repeat(8_000), '\u00ff\u00fe', 'a\tb'),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 }),
);

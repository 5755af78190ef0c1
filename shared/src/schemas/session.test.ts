import { describe, expect, it } from 'vitest';
import { sessionTokenInfoSchema, sessionTokenSchema } from './session.js';

describe('SPEC §3 Session token: three dotted parts, login time in milliseconds', () => {
  const token = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjoxfQ.c2lnbmF0dXJl';

  it.each([
    [token, true],
    ['a.b.c', true],
    ['a=.b==.c', true],
    ['a.b', false],
    ['a.b.c.d', false],
    ['a..c', false],
    ['', false],
    ['a b.c.d', false],
  ] as const)('%j -> %s', (value, ok) => {
    expect(sessionTokenSchema.safeParse(value).success).toBe(ok);
  });

  it.each([
    [{ token, lastLogin: 1_704_067_200_000 }, true],
    [{ token, lastLogin: -1 }, false],
    [{ token, lastLogin: 1.5 }, false],
    [{ token: 'x', lastLogin: 0 }, false],
  ] as const)('%j -> %s', (input, ok) => {
    expect(sessionTokenInfoSchema.safeParse(input).success).toBe(ok);
  });
});

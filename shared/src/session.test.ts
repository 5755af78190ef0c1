import { describe, expect, it } from 'vitest';
import { isSessionExpired } from './session.js';

const login = Date.UTC(2024, 0, 1);

describe('SPEC §4 Authentication: the session expires once seconds since login exceed 86400', () => {
  it.each([
    ['just logged in', login, false],
    ['one second short', login + 86_399_000, false],
    ['exactly 24 hours', login + 86_400_000, false],
    ['one millisecond over', login + 86_400_001, true],
    ['a day and a second', login + 86_401_000, true],
  ] as const)('%s', (_name, now, expired) => {
    expect(isSessionExpired(login, now)).toBe(expired);
  });

  it('takes the maximum from configuration when given', () => {
    expect(isSessionExpired(login, login + 61_000, 60)).toBe(true);
    expect(isSessionExpired(login, login + 60_000, 60)).toBe(false);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])('a login time of %s counts as expired', (lastLogin) => {
    expect(isSessionExpired(lastLogin, login)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { createSha256, Sha256 } from './sha256.js';

const text = (s: string) => new TextEncoder().encode(s);

describe('Sha256', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    ['a'.repeat(1000), '41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3'],
  ])('hashes %j', (input, expected) => {
    const hasher = createSha256();
    hasher.update(text(input));
    expect(hasher.digest()).toBe(expected);
  });

  it.each([1, 3, 63, 64, 65, 200])('gives the same digest fed in pieces of %i bytes', (step) => {
    const data = text('The quick brown fox jumps over the lazy dog. '.repeat(11));
    const whole = new Sha256();
    whole.update(data);
    const pieces = new Sha256();
    for (let i = 0; i < data.length; i += step) pieces.update(data.subarray(i, i + step));
    expect(pieces.digest()).toBe(whole.digest());
  });

  it('hashes a million bytes fed in pieces of uneven size (the NIST long message)', () => {
    const data = text('a'.repeat(1_000_000));
    const hasher = new Sha256();
    for (let i = 0, step = 1; i < data.length; i += step, step = ((step * 7 + 3) % 9973) + 1)
      hasher.update(data.subarray(i, i + step));
    expect(hasher.digest()).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('refuses use after digest', () => {
    const hasher = new Sha256();
    hasher.digest();
    expect(() => hasher.update(text('x'))).toThrow(/after digest/);
    expect(() => hasher.digest()).toThrow(/twice/);
  });
});

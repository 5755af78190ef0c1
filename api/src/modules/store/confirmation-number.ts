import { randomInt } from 'node:crypto';

/**
 * Confirmation numbers people read out over the phone: 8 characters of Crockford's base32 (no I, L, O or U,
 * so nothing is mistaken for 1, 0 or V), in two groups: 'K7M3-9QXD'. 32^8 ≈ 1.1e12 values drawn at random
 * by the server; the unique index on orders.confirmation has the last word, and a clash draws again.
 */
export const CONFIRMATION_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CONFIRMATION_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

export function newConfirmationNumber(): string {
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === 4) out += '-';
    out += CONFIRMATION_ALPHABET[randomInt(CONFIRMATION_ALPHABET.length)];
  }
  return out;
}

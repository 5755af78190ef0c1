import { describe, expect, it } from 'vitest';
import { cardBrand, luhnValid } from './card.js';

describe('cardBrand', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['4000000000000002', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['2720990000000000', 'mastercard'],
    ['378282246310005', 'amex'],
    ['371449635398431', 'amex'],
    ['6011111111111117', 'discover'],
    ['6500000000000002', 'discover'],
    ['6440000000000000', 'discover'],
    ['3056930009020004', 'unknown'],
    ['2221000000000009', 'mastercard'],
    ['2220990000000000', 'unknown'],
    ['', 'unknown'],
  ])('%s is %s', (digits, brand) => {
    expect(cardBrand(digits)).toBe(brand);
  });
});

describe('luhnValid', () => {
  it.each([
    ['4242424242424242', true],
    ['4000000000000002', true],
    ['4000000000009995', true],
    ['378282246310005', true],
    ['5555555555554444', true],
    ['4242424242424241', false],
    ['4242424242424243', false],
    ['378282246310006', false],
    ['0', true],
    ['18', true],
    ['19', false],
  ])('%s: %s', (digits, valid) => {
    expect(luhnValid(digits)).toBe(valid);
  });
});

import { describe, expect, it } from 'vitest';
import { CARD_MESSAGES, cardError, cardFieldError, formatCardNumber, formatExpiry } from './testCard';

const NOW = new Date(2030, 5, 15);
const GOOD = { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' };

describe('test gateway card checks (worded as Stripe words them)', () => {
  it('formats the number in groups and the expiry as MM / YY', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatExpiry('1234')).toBe('12 / 34');
    expect(formatExpiry('1')).toBe('1');
  });

  it('says nothing about an empty or half-typed field until the entry is complete', () => {
    expect(cardError({ number: '', expiry: '', cvc: '' }, false, NOW)).toBeNull();
    expect(cardError({ ...GOOD, number: '4242 42' }, false, NOW)).toBeNull();
    expect(cardError({ ...GOOD, number: '4242 42' }, true, NOW)).toBe(CARD_MESSAGES.numberIncomplete);
  });

  it('reports a mistyped number at once, then expiry and CVC problems in that order', () => {
    expect(cardFieldError('number', { ...GOOD, number: '4242 4242 4242 4241' }, false, NOW)).toBe(
      CARD_MESSAGES.numberInvalid,
    );
    expect(cardError({ ...GOOD, expiry: '13 / 34' }, true, NOW)).toBe(CARD_MESSAGES.expiryMonthInvalid);
    expect(cardError({ ...GOOD, expiry: '12 / 29' }, true, NOW)).toBe(CARD_MESSAGES.expiryPastYear);
    expect(cardError({ ...GOOD, expiry: '05 / 30' }, true, NOW)).toBe(CARD_MESSAGES.expiryPast);
    expect(cardError({ ...GOOD, expiry: '06 / 30' }, true, NOW)).toBeNull();
    expect(cardError({ ...GOOD, cvc: '12' }, true, NOW)).toBe(CARD_MESSAGES.cvcIncomplete);
    expect(cardError({ number: '3782 822463 10005', expiry: '12 / 34', cvc: '123' }, true, NOW)).toBe(
      CARD_MESSAGES.cvcIncomplete,
    );
    expect(cardError(GOOD, true, NOW)).toBeNull();
  });
});

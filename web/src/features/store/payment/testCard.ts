/**
 * The built-in test gateway's card checks in the browser, worded as Stripe's card input words them, so the
 * form can show an error as soon as it is certain. The server checks again (api/src/adapters/payments/
 * test-gateway.ts) with the same shared number checks, and alone decides the outcome of a charge.
 */
import { CARD_MESSAGES, cardBrand, formatCardNumber, formatExpiry, luhnValid } from '@avp/shared';

export { CARD_MESSAGES, formatCardNumber, formatExpiry };

export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardField = keyof CardFields;

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

export function isAmex(number: string): boolean {
  return cardBrand(digitsOf(number)) === 'amex';
}

/**
 * The message for one field, or null. `complete` asks for the final check (on blur, on pay): a field
 * still being typed is not yet 'incomplete'. An empty field has no message, so clearing it clears it.
 */
export function cardFieldError(
  field: CardField,
  fields: CardFields,
  complete: boolean,
  now = new Date(),
): string | null {
  const value = fields[field].trim();
  if (value === '' && !complete) return null;
  if (field === 'number') {
    const digits = digitsOf(value);
    const wanted = isAmex(digits) ? 15 : 16;
    if (digits.length >= wanted) return luhnValid(digits) ? null : CARD_MESSAGES.numberInvalid;
    return complete ? CARD_MESSAGES.numberIncomplete : null;
  }
  if (field === 'expiry') {
    const digits = digitsOf(value);
    if (digits.length < 4) return complete ? CARD_MESSAGES.expiryIncomplete : null;
    const month = Number(digits.slice(0, 2));
    const year = 2000 + Number(digits.slice(2, 4));
    if (month < 1 || month > 12) return CARD_MESSAGES.expiryMonthInvalid;
    if (year < now.getFullYear()) return CARD_MESSAGES.expiryPastYear;
    if (year === now.getFullYear() && month < now.getMonth() + 1) return CARD_MESSAGES.expiryPast;
    return null;
  }
  const wanted = isAmex(fields.number) ? 4 : 3;
  return digitsOf(value).length >= wanted ? null : complete ? CARD_MESSAGES.cvcIncomplete : null;
}

/** The first message across the fields, in the order they are laid out. */
export function cardError(fields: CardFields, complete: boolean, now = new Date()): string | null {
  for (const field of ['number', 'expiry', 'cvc'] as const) {
    const message = cardFieldError(field, fields, complete, now);
    if (message) return message;
  }
  return null;
}

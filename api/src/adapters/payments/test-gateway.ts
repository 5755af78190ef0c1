import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CARD_MESSAGES, cardBrand, luhnValid } from '@avp/shared';
import type {
  CardInput,
  CardSummary,
  ChargeOutcome,
  IntentHandle,
  IntentRequest,
  RefundRequest,
  TestGateway,
} from './types.js';

/**
 * The built-in test gateway (DESIGN 'Operating contract'): the store works end to end with no payment
 * account at all. Its cards mirror Stripe's test cards, with Stripe's own messages, so a buyer sees in test
 * mode what they would see live. It never stores a card number: a charge returns only brand and last four.
 *
 * It keeps no state of its own: an intent id is random, and its client secret is an HMAC of the id under
 * SESSION_SECRET, so any process can check a secret it did not issue.
 */

export { CARD_MESSAGES };

interface TestCard {
  outcome: 'succeeded' | { code: string; message: string };
}

/** DESIGN's three cards, and a few more of Stripe's so every decline path can be tried by hand. */
export const TEST_CARDS: Readonly<Record<string, TestCard>> = {
  '4242424242424242': { outcome: 'succeeded' },
  '5555555555554444': { outcome: 'succeeded' },
  '378282246310005': { outcome: 'succeeded' },
  '4000000000000002': { outcome: { code: 'card_declined', message: 'Your card was declined.' } },
  '4000000000009995': {
    outcome: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  },
  '4000000000000069': { outcome: { code: 'expired_card', message: 'Your card has expired.' } },
  '4000000000000127': {
    outcome: { code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  },
  '4000000000000119': {
    outcome: {
      code: 'processing_error',
      message: 'An error occurred while processing your card. Try again in a little bit.',
    },
  },
};

/** Any other well-formed number: what Stripe answers in test mode for a real card. */
export const NON_TEST_CARD_MESSAGE =
  'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.';

type CardCheck = { ok: true; digits: string; card: CardSummary } | Extract<ChargeOutcome, { ok: false }>;

/** The card form's checks, in the order Stripe reports them. A card is good to the end of its expiry month. */
export function checkCard(input: CardInput, now: Date = new Date()): CardCheck {
  const digits = input.number.replace(/[\s-]/g, '');
  const brand = cardBrand(digits);
  const wanted = brand === 'amex' ? 15 : 16;
  if (!/^\d*$/.test(digits))
    return { ok: false, code: 'invalid_number', message: CARD_MESSAGES.numberInvalid, field: 'number' };
  if (digits.length < wanted) {
    return { ok: false, code: 'incomplete_number', message: CARD_MESSAGES.numberIncomplete, field: 'number' };
  }
  if (digits.length > 19 || !luhnValid(digits)) {
    return { ok: false, code: 'invalid_number', message: CARD_MESSAGES.numberInvalid, field: 'number' };
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  if (!expiry) {
    return { ok: false, code: 'incomplete_expiry', message: CARD_MESSAGES.expiryIncomplete, field: 'expiry' };
  }
  const month = Number(expiry[1]);
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  if (month < 1 || month > 12) {
    return {
      ok: false,
      code: 'invalid_expiry_month',
      message: CARD_MESSAGES.expiryMonthInvalid,
      field: 'expiry',
    };
  }
  const thisYear = now.getUTCFullYear();
  if (year < thisYear) {
    return {
      ok: false,
      code: 'invalid_expiry_year_past',
      message: CARD_MESSAGES.expiryPastYear,
      field: 'expiry',
    };
  }
  if (year === thisYear && month < now.getUTCMonth() + 1) {
    return {
      ok: false,
      code: 'invalid_expiry_month_past',
      message: CARD_MESSAGES.expiryPast,
      field: 'expiry',
    };
  }
  const cvc = input.cvc.trim();
  if (!(brand === 'amex' ? /^\d{4}$/ : /^\d{3}$/).test(cvc)) {
    return { ok: false, code: 'incomplete_cvc', message: CARD_MESSAGES.cvcIncomplete, field: 'cvc' };
  }
  return { ok: true, digits, card: { brand, last4: digits.slice(-4) } };
}

export function createTestGateway(secret: string): TestGateway {
  const sign = (intentId: string) =>
    createHmac('sha256', secret).update(`test-gateway:${intentId}`).digest('base64url').slice(0, 32);
  const handle = (intentId: string): IntentHandle => ({
    intentId,
    clientSecret: `${intentId}_secret_${sign(intentId)}`,
  });
  return {
    kind: 'test-gateway',
    publishableKey: null,
    async createIntent(_request: IntentRequest) {
      return handle(`tgpi_${randomBytes(12).toString('hex')}`);
    },
    async updateIntent(intentId: string) {
      return handle(intentId);
    },
    // Stateless like the rest: the refund id is derived from the idempotency key, so a repeat is the same refund.
    async refund(request: RefundRequest) {
      const id = createHmac('sha256', secret)
        .update(`test-gateway-refund:${request.intentId}:${request.idempotencyKey}`)
        .digest('hex')
        .slice(0, 24);
      return { refundId: `tgre_${id}`, status: 'succeeded' };
    },
    isClientSecretOf(intentId, clientSecret) {
      const expected = Buffer.from(handle(intentId).clientSecret);
      const given = Buffer.from(clientSecret);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
    charge(input, amount, now = new Date()) {
      const checked = checkCard(input, now);
      if (!checked.ok) return checked;
      const outcome = TEST_CARDS[checked.digits]?.outcome ?? {
        code: 'card_declined',
        message: NON_TEST_CARD_MESSAGE,
      };
      if (outcome === 'succeeded') return { ok: true, card: checked.card, captured: { ...amount } };
      return { ok: false, ...outcome };
    },
  };
}

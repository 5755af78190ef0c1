import type { PaymentResult, StoredIntent } from '../api';

/** What the payment page asks of the card form of either gateway. */
export interface PaymentMethodHandle {
  /** Checks what was typed; the message to show under the form, or null when it is complete. */
  validate(): Promise<string | null>;
  /** Charges the submitted order; throws PaymentFailure on a decline, CardInputError on bad input. */
  pay(intent: StoredIntent): Promise<PaymentResult>;
}

/** The provider refused the payment: shown as 'Payment failed {message}'. */
export class PaymentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentFailure';
  }
}

/** The card details are incomplete or invalid: shown under the card form. */
export class CardInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CardInputError';
  }
}

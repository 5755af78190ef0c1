/**
 * The payment gateway interface (DESIGN 'Payments'): two implementations, Stripe (stripe.ts) and the
 * built-in test gateway (test-gateway.ts). Amounts are integer cents; the caller (the store module)
 * computes them, a gateway only carries them.
 */

import type { PaymentGatewayKind } from '@avp/shared';

// The store page learns which of the two serves it, so the name of each lives in shared/.
export type { PaymentGatewayKind };

export interface IntentRequest {
  /** Our order id: in the intent's metadata, and the root of its idempotency keys. */
  orderId: string;
  amount: number;
  currency: string;
  description: string;
  metadata: Record<string, string>;
}

/** What the browser needs to pay: the provider's intent id and the client secret that unlocks it. */
export interface IntentHandle {
  intentId: string;
  clientSecret: string;
}

/** How a receipt names a card ('visa', '4242'); a card number is never kept. */
export interface CardSummary {
  brand: string;
  last4: string;
}

export interface IntentState {
  intentId: string;
  /** The provider's status: 'succeeded', 'processing', 'requires_payment_method', 'requires_action'... */
  status: string;
  amount: number;
  amountReceived: number;
  currency: string;
  /** Our order id, from the intent's metadata. */
  orderId: string | undefined;
  card: CardSummary | null;
}

/** Card details typed into the test gateway's own form. */
export interface CardInput {
  number: string;
  /** 'MM/YY' (also 'MM / YY', 'MM/YYYY'). */
  expiry: string;
  cvc: string;
}

/** An amount in cents with its ISO currency. */
export interface Money {
  amount: number;
  currency: string;
}

export type ChargeOutcome =
  /** `captured`: what was charged, which settles the order only when it equals the order total. */
  | { ok: true; card: CardSummary; captured: Money }
  /** `field` names the input at fault for a malformed card; a decline has none. */
  | { ok: false; code: string; message: string; field?: 'number' | 'expiry' | 'cvc' };

/** A refund of (part of) a paid intent (staff refunds). */
export interface RefundRequest {
  intentId: string;
  /** Cents, at most what is left to refund; the caller checks. */
  amount: number;
  currency: string;
  /** Staff's reason, kept in the provider's metadata. */
  reason: string;
  /** The same key twice is the same refund, at the provider too. */
  idempotencyKey: string;
}

export interface RefundResult {
  refundId: string;
  /** The provider's status: 'succeeded', 'pending'... */
  status: string;
}

interface GatewayBase {
  /** The key a browser may hold: Stripe's publishable key, null for the test gateway. */
  readonly publishableKey: string | null;
  createIntent(request: IntentRequest): Promise<IntentHandle>;
  /** Sets the intent's amount and metadata to the order's current ones (before the browser confirms). */
  updateIntent(intentId: string, request: IntentRequest): Promise<IntentHandle>;
  /** Gives back `amount` of a paid intent through the provider. */
  refund(request: RefundRequest): Promise<RefundResult>;
}

/** Stripe: the browser confirms the intent with Stripe.js; the server reads the outcome back. */
export interface StripeGateway extends GatewayBase {
  readonly kind: 'stripe';
  retrieveIntent(intentId: string): Promise<IntentState>;
}

/** The built-in test gateway: the server itself 'charges' the typed card, by DESIGN's test-card table. */
export interface TestGateway extends GatewayBase {
  readonly kind: 'test-gateway';
  isClientSecretOf(intentId: string, clientSecret: string): boolean;
  charge(card: CardInput, amount: Money, now?: Date): ChargeOutcome;
}

export type PaymentGateway = StripeGateway | TestGateway;

/** The provider could not be reached or refused the call: nothing the buyer can fix by retyping. */
export class GatewayError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

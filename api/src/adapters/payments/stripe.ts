import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import { GatewayError } from './types.js';
import type { IntentHandle, IntentRequest, IntentState, RefundRequest, StripeGateway } from './types.js';

/**
 * Stripe through its SDK (DESIGN 'Payments'): PaymentIntents with automatic payment methods, an idempotency
 * key on every create and update (the SDK's own network retries reuse it, so a retried call never makes a
 * second intent or applies an update twice), and webhook signatures checked by the SDK.
 */

export interface StripeKeys {
  secretKey: string;
  publishableKey: string;
  /** Where API calls go (STRIPE_API_URL); Stripe's own API when absent. */
  apiUrl?: string | undefined;
}

// The SDK is loaded on first use: a server on the test gateway never pays for it in its heap.
let sdk: typeof Stripe | undefined;
function stripeSdk(): typeof Stripe {
  sdk ??= createRequire(import.meta.url)('stripe') as typeof Stripe;
  return sdk;
}

const clients = new Map<string, Stripe>();

/** One SDK client per key and address, so its keep-alive connections are shared between requests. */
export function stripeClient(secretKey: string, apiUrl?: string): Stripe {
  const cacheKey = `${apiUrl ?? ''} ${secretKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const config: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000 };
    if (apiUrl !== undefined) {
      const url = new URL(apiUrl);
      config.protocol = url.protocol === 'http:' ? 'http' : 'https';
      config.host = url.hostname;
      config.port = url.port || (url.protocol === 'http:' ? 80 : 443);
    }
    client = new (stripeSdk())(secretKey, config);
    clients.set(cacheKey, client);
  }
  return client;
}

function handleOf(intent: Stripe.PaymentIntent): IntentHandle {
  if (!intent.client_secret)
    throw new GatewayError(`Stripe returned intent ${intent.id} without a client secret`);
  return { intentId: intent.id, clientSecret: intent.client_secret };
}

async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new GatewayError(
      `Stripe ${what} failed: ${error instanceof Error ? error.message : String(error)}`,
      error,
    );
  }
}

export function stateOf(intent: Stripe.PaymentIntent): IntentState {
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const card = charge?.payment_method_details?.card;
  return {
    intentId: intent.id,
    status: intent.status,
    amount: intent.amount,
    amountReceived: intent.amount_received,
    currency: intent.currency,
    orderId: intent.metadata?.order_id,
    card: card?.last4 ? { brand: card.brand ?? 'card', last4: card.last4 } : null,
  };
}

export function createStripeGateway(keys: StripeKeys): StripeGateway {
  const stripe = stripeClient(keys.secretKey, keys.apiUrl);
  return {
    kind: 'stripe',
    publishableKey: keys.publishableKey,
    async createIntent(request: IntentRequest) {
      const intent = await call('create intent', () =>
        stripe.paymentIntents.create(
          {
            amount: request.amount,
            currency: request.currency,
            automatic_payment_methods: { enabled: true },
            description: request.description,
            metadata: { ...request.metadata, order_id: request.orderId },
          },
          // One order, one intent: a repeated create (a retry) answers the intent already made.
          { idempotencyKey: `order-${request.orderId}-create` },
        ),
      );
      return handleOf(intent);
    },
    async updateIntent(intentId: string, request: IntentRequest) {
      const intent = await call('update intent', () =>
        stripe.paymentIntents.update(
          intentId,
          {
            amount: request.amount,
            description: request.description,
            metadata: { ...request.metadata, order_id: request.orderId },
          },
          // A fresh key per update: the same amount may legitimately be set again later, after another one.
          { idempotencyKey: `order-${request.orderId}-update-${randomUUID()}` },
        ),
      );
      return handleOf(intent);
    },
    async refund(request: RefundRequest) {
      const refund = await call('refund', () =>
        stripe.refunds.create(
          {
            payment_intent: request.intentId,
            amount: request.amount,
            metadata: { reason: request.reason.slice(0, 500) },
          },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
      return { refundId: refund.id, status: refund.status ?? 'pending' };
    },
    async retrieveIntent(intentId: string) {
      const intent = await call('retrieve intent', () =>
        stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] }),
      );
      return stateOf(intent);
    },
  };
}

/** Verifies a webhook's Stripe-Signature over the raw body and parses the event; throws when it does not match. */
export function verifyWebhook(rawBody: Buffer, signature: string, secret: string): Stripe.Event {
  return stripeSdk().webhooks.constructEvent(rawBody, signature, secret);
}

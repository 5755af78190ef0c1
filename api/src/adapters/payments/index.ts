import type { Config } from '../../config.js';
import { openSecret } from './secret-box.js';
import { createStripeGateway } from './stripe.js';
import { createTestGateway } from './test-gateway.js';
import type { PaymentGateway, PaymentGatewayKind, TestGateway } from './types.js';

export * from './types.js';
export { openSecret, sealSecret, SecretBoxError } from './secret-box.js';
export { createStripeGateway, stripeClient, verifyWebhook } from './stripe.js';
export {
  CARD_MESSAGES,
  checkCard,
  createTestGateway,
  NON_TEST_CARD_MESSAGE,
  TEST_CARDS,
} from './test-gateway.js';

/**
 * Stripe when its keys are configured (config requires all three together), otherwise the built-in test
 * gateway with Stripe's test cards (DESIGN 'Operating contract').
 */
export function paymentGatewayKind(config: Pick<Config, 'STRIPE_SECRET_KEY'>): PaymentGatewayKind {
  return config.STRIPE_SECRET_KEY === undefined ? 'test-gateway' : 'stripe';
}

export type GatewayConfig = Pick<
  Config,
  'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY' | 'STRIPE_API_URL' | 'SESSION_SECRET'
>;

/** The store columns that decide its gateway. */
export interface StoreKeys {
  stripePublishableKey: string | null;
  /** Sealed with sealSecret(); never leaves the server. */
  stripeSecretKeyEnc: string | null;
}

const testGateways = new Map<string, TestGateway>();

/**
 * The gateway that takes a store's payments: the store's own Stripe account when it carries both keys, else
 * the server's Stripe account when one is configured, else the built-in test gateway.
 */
export function paymentGatewayFor(config: GatewayConfig, store: StoreKeys): PaymentGateway {
  if (store.stripeSecretKeyEnc && store.stripePublishableKey) {
    return createStripeGateway({
      secretKey: openSecret(store.stripeSecretKeyEnc, config.SESSION_SECRET),
      publishableKey: store.stripePublishableKey,
      apiUrl: config.STRIPE_API_URL,
    });
  }
  if (config.STRIPE_SECRET_KEY !== undefined && config.STRIPE_PUBLISHABLE_KEY !== undefined) {
    return createStripeGateway({
      secretKey: config.STRIPE_SECRET_KEY,
      publishableKey: config.STRIPE_PUBLISHABLE_KEY,
      apiUrl: config.STRIPE_API_URL,
    });
  }
  let gateway = testGateways.get(config.SESSION_SECRET);
  if (!gateway) {
    gateway = createTestGateway(config.SESSION_SECRET);
    testGateways.set(config.SESSION_SECRET, gateway);
  }
  return gateway;
}

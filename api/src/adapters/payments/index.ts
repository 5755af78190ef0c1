import type { Config } from '../../config.js';

export type PaymentGatewayKind = 'stripe' | 'test-gateway';

/**
 * Stripe when its keys are configured (config requires all three together), otherwise the built-in test
 * gateway with Stripe's test cards (DESIGN 'Operating contract').
 */
export function paymentGatewayKind(config: Pick<Config, 'STRIPE_SECRET_KEY'>): PaymentGatewayKind {
  return config.STRIPE_SECRET_KEY === undefined ? 'test-gateway' : 'stripe';
}

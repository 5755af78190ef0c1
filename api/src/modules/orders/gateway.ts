import { PAYMENT_SERVER_ERROR, STORE_CLOSED_TRANSACTION } from '@avp/shared';
import { GatewayError, paymentGatewayFor } from '../../adapters/payments/index.js';
import type { IntentRequest, PaymentGateway } from '../../adapters/payments/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { OrderInstance, StoreInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import type { PricedCart } from './cart.js';

/** What every step of an order needs, and how it talks to the order's payment provider. */

export interface OrderDeps {
  config: Config;
  db: Database;
  logger: Logger;
}

export const WRONG_GATEWAY = 'This order is paid through another payment provider.';

export function storeClosed(): AppError {
  return new AppError(409, 'store_closed', STORE_CLOSED_TRANSACTION);
}

export function gatewayFailed(error: unknown, logger: Logger): AppError {
  logger.error({ err: error }, 'payment gateway call failed');
  return new AppError(502, 'payment_gateway_error', PAYMENT_SERVER_ERROR);
}

export function intentRequest(
  orderId: string,
  store: StoreInstance,
  priced: Pick<PricedCart, 'total' | 'currency'>,
): IntentRequest {
  return {
    orderId,
    amount: priced.total,
    currency: priced.currency,
    description: `${store.name} order`,
    metadata: { store_id: store.slug },
  };
}

export function orderGateway(config: Config, store: StoreInstance, order: OrderInstance): PaymentGateway {
  const gateway = paymentGatewayFor(config, store);
  // Keys changed since the order was made: its intent lives with the other provider.
  if (gateway.kind !== order.gateway) throw new AppError(409, 'wrong_gateway', WRONG_GATEWAY);
  return gateway;
}

/** A provider call whose failure is the provider's: 502 with the spec's text, the cause logged. */
export async function gatewayCall<T>(logger: Logger, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GatewayError) throw gatewayFailed(error, logger);
    throw error;
  }
}

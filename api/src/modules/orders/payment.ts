import type { PaymentResult } from '@avp/shared';
import { z } from 'zod';
import { GatewayError } from '../../adapters/payments/index.js';
import type { OrderInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { isClosed } from '../store/catalogue.js';
import { findOwnOrder, ORDER_NOT_PENDING } from './access.js';
import { gatewayFailed, orderGateway, storeClosed, WRONG_GATEWAY } from './gateway.js';
import type { OrderDeps } from './gateway.js';
import { markPaid } from './paid.js';

/** Paying an order: the test gateway's card form, or the browser's word that Stripe confirmed it. */

export const ORDER_INCOMPLETE = 'The rental information is missing: submit it before paying.';

const cardSchema = z.object({
  number: z.string().max(40).default(''),
  expiry: z.string().max(10).default(''),
  cvc: z.string().max(8).default(''),
});
const payBodySchema = z.object({ card: cardSchema });

function resultOf(order: OrderInstance, intentStatus?: string): PaymentResult {
  return {
    orderId: order.id,
    status: order.status,
    confirmation: order.confirmation,
    paymentIntent: {
      id: order.gatewayIntentId ?? '',
      amount: order.status === 'needs_review' ? (order.amountReceived ?? order.total) : order.total,
      currency: order.currency,
      status: intentStatus ?? (order.status === 'paid' ? 'succeeded' : 'requires_payment_method'),
    },
  } satisfies PaymentResult;
}

/**
 * The test gateway's card payment: the server checks the typed card against the test-card table. Paying an
 * order that is already paid answers its result again without charging anything.
 */
export async function payWithTestCard(
  deps: OrderDeps,
  orderId: string,
  token: string | undefined,
  body: unknown,
  now: Date = new Date(),
): Promise<PaymentResult> {
  const { config, db } = deps;
  let order = await findOwnOrder(db, orderId, token);
  if (order.status === 'paid') return resultOf(order);
  if (order.status !== 'pending') throw new AppError(409, 'order_not_pending', ORDER_NOT_PENDING);
  const store = await db.models.Store.findByPk(order.storeId, { rejectOnEmpty: true });
  const gateway = orderGateway(config, store, order);
  if (gateway.kind !== 'test-gateway') throw new AppError(409, 'wrong_gateway', WRONG_GATEWAY);
  if (isClosed(store, config, now)) throw storeClosed();
  if (order.email === '') throw new AppError(409, 'order_incomplete', ORDER_INCOMPLETE);
  const { card } = payBodySchema.parse(body);

  const outcome = gateway.charge(card, { amount: order.total, currency: order.currency }, now);
  if (!outcome.ok) {
    if (outcome.field) {
      throw new AppError(400, outcome.code, outcome.message, { [`card.${outcome.field}`]: outcome.message });
    }
    deps.logger.info({ orderId, code: outcome.code }, 'test gateway declined a card');
    throw new AppError(402, outcome.code, outcome.message);
  }
  await markPaid(deps, order.id, { card: outcome.card, captured: outcome.captured }, now);
  order = await db.models.Order.findByPk(order.id, { rejectOnEmpty: true });
  return resultOf(order);
}

/**
 * The browser's word that it confirmed the payment (Stripe.js answered without error). The server asks the
 * provider itself and settles the order when the intent succeeded; calling it twice changes nothing.
 */
export async function confirmPayment(
  deps: OrderDeps,
  orderId: string,
  token: string | undefined,
  now: Date = new Date(),
): Promise<PaymentResult> {
  const { config, db } = deps;
  let order = await findOwnOrder(db, orderId, token);
  if (order.status !== 'pending' || order.gateway !== 'stripe' || !order.gatewayIntentId)
    return resultOf(order);
  const store = await db.models.Store.findByPk(order.storeId, { rejectOnEmpty: true });
  const gateway = orderGateway(config, store, order);
  if (gateway.kind !== 'stripe') return resultOf(order);
  let state;
  try {
    state = await gateway.retrieveIntent(order.gatewayIntentId);
  } catch (error) {
    if (error instanceof GatewayError) throw gatewayFailed(error, deps.logger);
    throw error;
  }
  if (state.status === 'succeeded') {
    const captured = { amount: state.amountReceived, currency: state.currency };
    await markPaid(deps, order.id, { card: state.card, captured }, now);
    order = await db.models.Order.findByPk(order.id, { rejectOnEmpty: true });
  }
  return resultOf(order, state.status);
}

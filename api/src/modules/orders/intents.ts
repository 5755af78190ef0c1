import { randomBytes, randomUUID } from 'node:crypto';
import { checkoutFormSchema, STORE_ID_PATTERN } from '@avp/shared';
import type { CreatedIntent, OrderAmounts, UpdatedIntent } from '@avp/shared';
import { z } from 'zod';
import { GatewayError, paymentGatewayFor } from '../../adapters/payments/index.js';
import type { PaymentGateway } from '../../adapters/payments/index.js';
import type { StoreInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { isClosed, STORE_NOT_FOUND } from '../store/catalogue.js';
import { assertLeft, assertNewLeft, holdOrder, withHold } from '../stock/holds.js';
import { findOwnOrder, hashToken, ORDER_NOT_PENDING } from './access.js';
import { cartInputSchema, priceCart, priceCartFrom } from './cart.js';
import type { PricedCart } from './cart.js';
import { gatewayCall, gatewayFailed, intentRequest, orderGateway, storeClosed } from './gateway.js';
import type { OrderDeps } from './gateway.js';
import { intentReads } from './intent-reads.js';
import { writeNewOrder } from './new-orders.js';

/**
 * An order is created `pending` with its payment intent, and repriced and filled in on submit (SPEC §4
 * 'Payment'). Every amount is the server's.
 */

export const ORDER_FROZEN =
  'The payment for this order is already under way, so its cart can no longer change. Please start a new order for anything else.';
export const ORDER_CHANGED =
  'This order was changed at the same time in another window. Please check your cart and try again.';
/** Stripe's intent statuses from the buyer's confirmation on: the amount is settled with the provider. */
const CONFIRMED_INTENT_STATUSES = new Set([
  'requires_action',
  'processing',
  'requires_capture',
  'succeeded',
  'canceled',
]);

const createBodySchema = z.object({ cart: cartInputSchema });

/** The order_lines rows of a priced cart. */
function lineRows(orderId: string, priced: PricedCart) {
  return priced.lines.map(({ productId, name, unitAmount, quantity, lineTotal }) => ({
    orderId,
    productId,
    name,
    unitAmount,
    quantity,
    lineTotal,
  }));
}

function amountsOf(priced: PricedCart): OrderAmounts {
  const { currency, subtotal, discount, fee, total, earlyBird, lines } = priced;
  return { currency, subtotal, discount, fee, total, earlyBird, lines };
}

/** SPEC §4 'Payment': the intent is created when a store with a non-empty cart loads. */
export async function createIntent(
  { config, db, logger }: OrderDeps,
  slug: string,
  body: unknown,
  now: Date = new Date(),
): Promise<CreatedIntent> {
  const { cart } = createBodySchema.parse(body);
  if (!STORE_ID_PATTERN.test(slug)) throw new AppError(404, 'store_not_found', STORE_NOT_FOUND);
  const reads = intentReads(db);
  const store = await reads.store(slug);
  if (isClosed(store, config, now)) throw storeClosed();
  const [products, limitedCounts] = await Promise.all([
    reads.products(store.id),
    reads.limitedCounts(store.id),
  ]);
  const priced = priceCartFrom(products, store, cart, now, config.TZ_STORE);
  // A cart that cannot be held is refused before the provider is asked for anything.
  const limited = assertNewLeft(limitedCounts, priced.lines);
  const gateway = paymentGatewayFor(config, store);
  const token = randomBytes(32).toString('base64url');

  // The intent first, under the order's id (the root of its idempotency key), then the order and its lines
  // in one write: a provider that cannot be reached leaves no order behind, and an order never lacks its
  // intent. (An intent whose order then failed to save is never confirmed, and lapses at the provider.)
  const orderId = randomUUID();
  let handle;
  try {
    handle = await gateway.createIntent(intentRequest(orderId, store, priced));
  } catch (error) {
    if (error instanceof GatewayError) throw gatewayFailed(error, logger);
    throw error;
  }
  const expiresAt = now.getTime() + config.STOCK_HOLD_MINUTES * 60_000;
  // The order, its lines and its hold in one transaction (shared with other new orders: new-orders.ts):
  // units that went meanwhile leave no order (409).
  await withHold(db, store.id, null, priced.lines, () =>
    writeNewOrder(db, {
      order: {
        id: orderId,
        storeId: store.id,
        status: 'pending',
        accessTokenHash: hashToken(token),
        gateway: gateway.kind,
        gatewayIntentId: handle.intentId,
        customer: {},
        email: '',
        subtotal: priced.subtotal,
        discount: priced.discount,
        fee: priced.fee,
        total: priced.total,
        currency: priced.currency,
        earlyBird: priced.earlyBird,
      },
      lines: lineRows(orderId, priced),
      hold: { lines: priced.lines, expiresAt },
    }),
  );

  return {
    orderId,
    token,
    clientSecret: handle.clientSecret,
    intentID: handle.intentId,
    gateway: gateway.kind,
    ...(gateway.publishableKey ? { publicKey: gateway.publishableKey } : {}),
    ...amountsOf(priced),
    holdExpiresAt: limited ? new Date(expiresAt).toISOString() : null,
  } satisfies CreatedIntent;
}

/** Best effort: points the intent back at the amount the order holds after a change that did not apply. */
async function restoreIntentAmount(
  { db, logger }: Pick<OrderDeps, 'db' | 'logger'>,
  orderId: string,
  store: StoreInstance,
  gateway: PaymentGateway,
  intentId: string,
): Promise<void> {
  try {
    const order = await db.models.Order.findByPk(orderId, { rejectOnEmpty: true });
    if (order.status !== 'pending') return;
    await gateway.updateIntent(intentId, intentRequest(order.id, store, order));
  } catch (error) {
    logger.error({ err: error, orderId }, 'could not set the intent back to the order amount');
  }
}

/**
 * SPEC §4: updated on submit with the cart and the customer info. The deadline is judged now (DESIGN
 * 'Pricing'), the customer info is checked with the checkout form's own schema, and the intent's amount
 * follows the order's.
 */
export async function updateIntent(
  { config, db, logger }: OrderDeps,
  orderId: string,
  token: string | undefined,
  body: unknown,
  now: Date = new Date(),
): Promise<UpdatedIntent> {
  const order = await findOwnOrder(db, orderId, token);
  if (order.status !== 'pending' || !order.gatewayIntentId) {
    throw new AppError(409, 'order_not_pending', ORDER_NOT_PENDING);
  }
  const { Order, OrderLine, Store } = db.models;
  const store = await Store.findByPk(order.storeId, { rejectOnEmpty: true });
  if (isClosed(store, config, now)) throw storeClosed();
  const { cart, customer } = z
    .object({
      cart: cartInputSchema,
      customer: checkoutFormSchema({ start_date: store.startDate, end_date: store.endDate }),
    })
    .parse(body);
  const priced = await priceCart(db, store, cart, now, config.TZ_STORE);
  const limited = await assertLeft(db, store.id, order.id, priced.lines);
  const gateway = orderGateway(config, store, order);
  const intentId = order.gatewayIntentId;
  const expiresAt = now.getTime() + config.STOCK_HOLD_MINUTES * 60_000;

  // Frozen once the buyer has confirmed with the provider: what they confirmed is what the order is.
  if (gateway.kind === 'stripe') {
    const state = await gatewayCall(logger, () => gateway.retrieveIntent(intentId));
    if (CONFIRMED_INTENT_STATUSES.has(state.status)) throw new AppError(409, 'order_frozen', ORDER_FROZEN);
  }
  // The provider first: when it refuses, nothing of ours has changed. Then the order, only if no other
  // change got in between (its revision); if it did, or the write fails, the intent is set back to the
  // order's stored amount. Should even that fail, paid.ts still pays only a capture equal to the total.
  const handle = await gatewayCall(logger, () =>
    gateway.updateIntent(intentId, intentRequest(order.id, store, priced)),
  );
  try {
    await withHold(db, store.id, order.id, priced.lines, () =>
      db.sequelize.transaction(async (transaction) => {
        const [changed] = await Order.update(
          {
            customer: customer as unknown as Record<string, unknown>,
            email: customer.email,
            subtotal: priced.subtotal,
            discount: priced.discount,
            fee: priced.fee,
            total: priced.total,
            currency: priced.currency,
            earlyBird: priced.earlyBird,
            revision: order.revision + 1,
          },
          { where: { id: order.id, status: 'pending', revision: order.revision }, transaction },
        );
        if (changed === 0) throw new AppError(409, 'order_changed', ORDER_CHANGED);
        // The hold moves from the old lines to the new before the old lines are gone (stock/holds.ts).
        const ref = { id: order.id, storeId: store.id };
        await holdOrder(db, ref, priced.lines, expiresAt, transaction);
        await OrderLine.destroy({ where: { orderId: order.id }, transaction });
        await OrderLine.bulkCreate(lineRows(order.id, priced), { transaction });
      }),
    );
  } catch (error) {
    await restoreIntentAmount({ db, logger }, order.id, store, gateway, intentId);
    const current = await Order.findByPk(order.id);
    if (error instanceof AppError && current && current.status !== 'pending') {
      throw new AppError(409, 'order_not_pending', ORDER_NOT_PENDING);
    }
    throw error;
  }
  return {
    orderId: order.id,
    clientSecret: handle.clientSecret,
    intentID: handle.intentId,
    ...amountsOf(priced),
    holdExpiresAt: limited ? new Date(expiresAt).toISOString() : null,
  } satisfies UpdatedIntent;
}

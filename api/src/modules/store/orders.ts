import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  checkoutFormSchema,
  PAYMENT_SERVER_ERROR,
  priceOrder,
  quantitySchema,
  STORE_CLOSED_TRANSACTION,
} from '@avp/shared';
import type { OrderCustomerInfo } from '@avp/shared';
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import { GatewayError, paymentGatewayFor } from '../../adapters/payments/index.js';
import type {
  CardSummary,
  IntentRequest,
  PaymentGateway,
  PaymentGatewayKind,
} from '../../adapters/payments/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { OrderInstance, StoreInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import { findStore, isClosed, storeProducts } from './catalogue.js';
import { markPaid } from './paid.js';
import { cardLabel } from './receipt.js';

/**
 * Orders of SPEC §4 'Order flow' and 'Payment', DESIGN 'Payments': an order is created `pending` with the
 * payment intent, repriced and filled in on submit, and paid exactly once (paid.ts). Every amount is the
 * server's: the browser sends product ids and counts, never a price, and anything else it sends is dropped.
 * The buyer's browser holds the order through a random token; only its SHA-256 is stored.
 */

export interface OrderDeps {
  config: Config;
  db: Database;
  logger: Logger;
}

export const ORDER_NOT_FOUND = 'No such order.';
export const ORDER_NOT_PENDING = 'This order can no longer be changed.';
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
export const ORDER_INCOMPLETE = 'The rental information is missing: submit it before paying.';
export const WRONG_GATEWAY = 'This order is paid through another payment provider.';
export const UNKNOWN_PRODUCT = 'A product in the cart is not sold in this store.';
export const DUPLICATE_PRODUCT = 'A product may appear only once in the cart.';
export const CART_EMPTY_ERROR = 'The cart is empty.';
export const MIXED_CURRENCIES = 'The products in the cart are priced in different currencies.';
export const CART_MAX_LINES = 100;

const cartLineSchema = z.object({
  productId: z.number({ error: UNKNOWN_PRODUCT }).int(UNKNOWN_PRODUCT).positive(UNKNOWN_PRODUCT),
  count: quantitySchema,
});

export const cartInputSchema = z
  .array(cartLineSchema, { error: CART_EMPTY_ERROR })
  .min(1, CART_EMPTY_ERROR)
  .max(CART_MAX_LINES)
  .superRefine((lines, ctx) => {
    const seen = new Set<number>();
    lines.forEach((line, index) => {
      if (seen.has(line.productId)) {
        ctx.addIssue({ code: 'custom', message: DUPLICATE_PRODUCT, path: [index, 'productId'] });
      }
      seen.add(line.productId);
    });
  });
export type CartInput = z.infer<typeof cartInputSchema>;

const createBodySchema = z.object({ cart: cartInputSchema });

const cardSchema = z.object({
  number: z.string().max(40).default(''),
  expiry: z.string().max(10).default(''),
  cvc: z.string().max(8).default(''),
});
const payBodySchema = z.object({ card: cardSchema });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function storeClosed(): AppError {
  return new AppError(409, 'store_closed', STORE_CLOSED_TRANSACTION);
}

function gatewayFailed(error: unknown, logger: Logger): AppError {
  logger.error({ err: error }, 'payment gateway call failed');
  return new AppError(502, 'payment_gateway_error', PAYMENT_SERVER_ERROR);
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function tokenMatches(order: OrderInstance, token: string | undefined): boolean {
  if (!token || !order.accessTokenHash) return false;
  const given = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(order.accessTokenHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The order, when the id is real and the token is its own; otherwise 404 either way (nothing to probe). */
export async function findOwnOrder(
  db: Database,
  orderId: string,
  token: string | undefined,
): Promise<OrderInstance> {
  const order = UUID.test(orderId) ? await db.models.Order.findByPk(orderId) : null;
  if (!order || !tokenMatches(order, token)) throw new AppError(404, 'order_not_found', ORDER_NOT_FOUND);
  return order;
}

export interface PricedLine {
  productId: number;
  name: string;
  unitAmount: number;
  quantity: number;
  lineTotal: number;
}

export interface PricedCart {
  lines: PricedLine[];
  currency: string;
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  earlyBird: boolean;
}

/** Prices a cart from the store's own prices with the shared pricing module, the deadline judged at `now`. */
export async function priceCart(
  db: Database,
  store: StoreInstance,
  cart: CartInput,
  now: Date,
  timeZone: string,
  transaction?: Transaction,
): Promise<PricedCart> {
  const products = new Map((await storeProducts(db, store.id, transaction)).map((p) => [p.id, p]));
  const fields: Record<string, string> = {};
  const lines: PricedLine[] = [];
  const currencies = new Set<string>();
  cart.forEach(({ productId, count }, index) => {
    const product = products.get(productId);
    if (!product) {
      fields[`cart.${index}.productId`] = UNKNOWN_PRODUCT;
      return;
    }
    currencies.add(product.currency);
    lines.push({
      productId,
      name: product.name,
      unitAmount: product.price,
      quantity: count,
      lineTotal: product.price * count,
    });
  });
  if (Object.keys(fields).length > 0) throw new AppError(400, 'unknown_product', UNKNOWN_PRODUCT, fields);
  if (currencies.size > 1) throw new AppError(400, 'mixed_currencies', MIXED_CURRENCIES);
  const price = priceOrder(
    lines.map((line) => ({ unitAmount: line.unitAmount, quantity: line.quantity })),
    { deadline: store.deadline, now, timeZone },
  );
  return { lines, currency: [...currencies][0] ?? 'usd', ...price };
}

function intentRequest(
  orderId: string,
  store: StoreInstance,
  priced: Pick<PricedCart, 'total' | 'currency'>,
): IntentRequest {
  return {
    orderId,
    amount: priced.total,
    currency: priced.currency,
    description: `${store.name} order`,
    metadata: { store_id: store.storeId },
  };
}

function orderGateway(config: Config, store: StoreInstance, order: OrderInstance): PaymentGateway {
  const gateway = paymentGatewayFor(config, store);
  // Keys changed since the order was made: its intent lives with the other provider.
  if (gateway.kind !== order.gateway) throw new AppError(409, 'wrong_gateway', WRONG_GATEWAY);
  return gateway;
}

/** The amounts and lines a browser shows; the same numbers the e-mail and invoice will carry. */
export interface OrderAmounts {
  currency: string;
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  earlyBird: boolean;
  lines: PricedLine[];
}

function amountsOf(priced: PricedCart): OrderAmounts {
  const { currency, subtotal, discount, fee, total, earlyBird, lines } = priced;
  return { currency, subtotal, discount, fee, total, earlyBird, lines };
}

export interface CreatedIntent extends OrderAmounts {
  orderId: string;
  /** Lets this browser update, pay and read the order; shown once, stored only as a hash. */
  token: string;
  clientSecret: string;
  intentID: string;
  gateway: PaymentGatewayKind;
  publicKey?: string;
}

/** SPEC §4 'Payment': the intent is created when a store with a non-empty cart loads. */
export async function createIntent(
  { config, db, logger }: OrderDeps,
  storeId: string,
  body: unknown,
  now: Date = new Date(),
): Promise<CreatedIntent> {
  const { cart } = createBodySchema.parse(body);
  const store = await findStore(db, storeId);
  if (isClosed(store, config, now)) throw storeClosed();
  const priced = await priceCart(db, store, cart, now, config.TZ_STORE);
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
  const { Order, OrderLine } = db.models;
  const order = await db.sequelize.transaction(async (transaction) => {
    const created = await Order.create(
      {
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
      { transaction },
    );
    await OrderLine.bulkCreate(
      priced.lines.map(({ productId, name, unitAmount, quantity, lineTotal }) => ({
        orderId: created.id,
        productId,
        name,
        unitAmount,
        quantity,
        lineTotal,
      })),
      { transaction },
    );
    return created;
  });

  return {
    orderId: order.id,
    token,
    clientSecret: handle.clientSecret,
    intentID: handle.intentId,
    gateway: gateway.kind,
    ...(gateway.publishableKey ? { publicKey: gateway.publishableKey } : {}),
    ...amountsOf(priced),
  };
}

/** A provider call whose failure is the provider's: 502 with the spec's text, the cause logged. */
async function gatewayCall<T>(logger: Logger, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GatewayError) throw gatewayFailed(error, logger);
    throw error;
  }
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

export interface UpdatedIntent extends OrderAmounts {
  orderId: string;
  clientSecret: string;
  intentID: string;
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
  const gateway = orderGateway(config, store, order);
  const intentId = order.gatewayIntentId;

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
    await db.sequelize.transaction(async (transaction) => {
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
      await OrderLine.destroy({ where: { orderId: order.id }, transaction });
      await OrderLine.bulkCreate(
        priced.lines.map(({ productId, name, unitAmount, quantity, lineTotal }) => ({
          orderId: order.id,
          productId,
          name,
          unitAmount,
          quantity,
          lineTotal,
        })),
        { transaction },
      );
    });
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
  };
}

/** SPEC §3 'Payment intent': the payment response holds an intent with an amount; the number is held apart. */
export interface PaymentResult {
  orderId: string;
  status: OrderInstance['status'];
  /** Set once the order is paid. */
  confirmation: string | null;
  paymentIntent: { id: string; amount: number; currency: string; status: string };
}

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
  };
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

export interface OrderReceipt {
  id: string;
  status: OrderInstance['status'];
  confirmation: string | null;
  paidAt: string | null;
  email: string;
  card: string | null;
  currency: string;
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  earlyBird: boolean;
  lines: PricedLine[];
  customer: OrderCustomerInfo | Record<string, never>;
  store: {
    store_id: string;
    name: string;
    image: string | null;
    start_date: string;
    end_date: string;
    store_text: string;
  };
}

/** The confirmation page's data: fetched by id and token, so a reload keeps the page. */
export async function getOrderReceipt(
  { db }: Pick<OrderDeps, 'db'>,
  orderId: string,
  token: string | undefined,
): Promise<OrderReceipt> {
  const order = await findOwnOrder(db, orderId, token);
  const { OrderLine, Store } = db.models;
  const [lines, store] = await Promise.all([
    OrderLine.findAll({ where: { orderId: order.id }, order: [['id', 'ASC']] }),
    Store.findByPk(order.storeId, { rejectOnEmpty: true }),
  ]);
  return {
    id: order.id,
    status: order.status,
    confirmation: order.confirmation,
    paidAt: order.paidAt ? order.paidAt.toISOString() : null,
    email: order.email,
    card: cardLabel(order.cardBrand, order.cardLast4),
    currency: order.currency,
    subtotal: order.subtotal,
    discount: order.discount,
    fee: order.fee,
    total: order.total,
    earlyBird: order.earlyBird,
    lines: lines.map(({ productId, name, unitAmount, quantity, lineTotal }) => ({
      productId,
      name,
      unitAmount,
      quantity,
      lineTotal,
    })),
    customer: order.customer as OrderReceipt['customer'],
    store: {
      store_id: store.storeId,
      name: store.name,
      image: store.image,
      start_date: store.startDate,
      end_date: store.endDate,
      store_text: store.storeText ?? '',
    },
  };
}

export type { CardSummary };

import { addDays, isDateOnly, requiredText, startOfDayIn } from '@avp/shared';
import type { PullSheet, PullSheetDay, StaffOrderDetail, StaffOrderSummary } from '@avp/shared';
import { Op, UniqueConstraintError } from 'sequelize';
import type { WhereOptions } from 'sequelize';
import { z } from 'zod';
import { GatewayError, paymentGatewayFor } from '../../adapters/payments/index.js';
import type { GatewayConfig } from '../../adapters/payments/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { ORDER_STATUSES } from '../../db/models/index.js';
import type {
  OrderAttributes,
  OrderInstance,
  OrderLineInstance,
  OrderRefundInstance,
  OrderStatus,
  StoreInstance,
} from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import { enqueueConfirmationMail } from '../store/index.js';
import { recordChange } from './audit.js';
import type { Actor } from './audit.js';
import { findStaffStore } from './stores.js';

/**
 * Orders for staff (issue 7): the list across stores or for one, filtered by status and by the day they were
 * placed (in TZ_STORE); an order's detail; the warehouse CSV (one row per order line); the pull sheet of a
 * store per delivery day; refunds through the order's own gateway, recorded once; resending the
 * confirmation e-mail.
 */

export interface StaffOrderDeps {
  config: Config;
  db: Database;
  logger: Logger;
}

// not in SPEC: the staff screens' own texts.
export const ORDER_NOT_FOUND_STAFF = 'No such order.';
export const ORDER_NOT_REFUNDABLE = 'Only a paid order can be refunded.';

/** What the provider took: recorded with each capture (older orders: their total). */
function captured(order: OrderInstance): number {
  return order.amountReceived ?? order.total;
}
export const REFUND_TOO_LARGE = 'The refund cannot be more than what is left of the order.';
export const REFUND_AMOUNT_INVALID = 'Enter an amount of at least 0.01.';
export const REFUND_REASON_REQUIRED = 'Please give a reason for the refund.';
export const REFUND_KEY_REUSED = 'This refund request was already made with another amount.';
export const REFUND_FAILED = 'The payment provider did not accept the refund. Nothing was refunded.';
export const REFUND_WRONG_GATEWAY =
  'This order was paid through a payment account this store no longer uses; refund it from that account.';
export const ORDER_NOT_PAID = 'Only a paid order has a confirmation e-mail.';
export const NO_CONFIRMATION_ADDRESS =
  'This order was paid before its customer details were given, so there is no address to send the confirmation to.';
/** The size of order_refunds.reason. */
export const REFUND_REASON_MAX = 500;

/** 'settled' (the default) is every order that was paid: paid, partially refunded or refunded. */
export const STATUS_FILTERS = ['settled', 'all', ...ORDER_STATUSES] as const;
const SETTLED: OrderStatus[] = ['paid', 'partially_refunded', 'refunded'];
// A held order (its capture differed from its total) can give back what was captured.
const REFUNDABLE: OrderStatus[] = ['paid', 'partially_refunded', 'needs_review'];
const ORDER_LIST_MAX = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const day = z
  .string()
  .refine(isDateOnly, 'Use a date as YYYY-MM-DD.')
  .optional()
  .or(z.literal('').transform(() => undefined));

export const orderQuerySchema = z.object({
  store: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  status: z.enum(STATUS_FILTERS).default('settled'),
  from: day,
  to: day,
});
export type OrderQuery = z.infer<typeof orderQuerySchema>;

function text(customer: Record<string, unknown>, key: string): string {
  const value = customer[key];
  return typeof value === 'string' ? value : '';
}

/** The customer info as stored (a JSON column; text on SQLite): its fields are all strings (SPEC §3). */
function customerOf(order: OrderInstance): Record<string, string> {
  const value = order.customer as unknown;
  const raw = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown> | null;
  return Object.fromEntries(
    Object.entries(raw ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function summary(order: OrderInstance, store: StoreInstance): StaffOrderSummary {
  const c = customerOf(order);
  return {
    id: order.id,
    confirmation: order.confirmation,
    status: order.status,
    store: { id: store.id, store_id: store.storeId, name: store.name },
    company: text(c, 'company'),
    name: `${text(c, 'firstName')} ${text(c, 'lastName')}`.trim(),
    email: order.email,
    booth: text(c, 'booth'),
    delivery_date: text(c, 'deliveryDate'),
    subtotal: order.subtotal,
    discount: order.discount,
    fee: order.fee,
    total: order.total,
    refunded_amount: order.refundedAmount,
    currency: order.currency,
    created_at: order.createdAt.toISOString(),
    paid_at: order.paidAt?.toISOString() ?? null,
  };
}

async function findOrders(
  { config, db }: Pick<StaffOrderDeps, 'config' | 'db'>,
  query: OrderQuery,
): Promise<{ order: OrderInstance; store: StoreInstance }[]> {
  const where: WhereOptions<OrderAttributes> = {};
  const and: WhereOptions<OrderAttributes>[] = [];
  if (query.store !== undefined) and.push({ storeId: query.store });
  if (query.status === 'settled') and.push({ status: { [Op.in]: SETTLED } });
  else if (query.status !== 'all') and.push({ status: query.status });
  if (query.from) and.push({ createdAt: { [Op.gte]: startOfDayIn(query.from, config.TZ_STORE) } });
  if (query.to) and.push({ createdAt: { [Op.lt]: startOfDayIn(addDays(query.to, 1), config.TZ_STORE) } });
  if (and.length > 0) Object.assign(where, { [Op.and]: and });
  const orders = await db.models.Order.findAll({
    where,
    include: [{ model: db.models.Store, as: 'store', required: true }],
    order: [['createdAt', 'DESC']],
    limit: ORDER_LIST_MAX,
  });
  return orders.map((order) => ({ order, store: (order as typeof order & { store: StoreInstance }).store }));
}

export async function listOrders(
  deps: Pick<StaffOrderDeps, 'config' | 'db'>,
  rawQuery: unknown,
): Promise<StaffOrderSummary[]> {
  const query = orderQuerySchema.parse(rawQuery ?? {});
  return (await findOrders(deps, query)).map(({ order, store }) => summary(order, store));
}

async function loadOrder(db: Database, orderId: string): Promise<OrderInstance> {
  const order = UUID.test(orderId) ? await db.models.Order.findByPk(orderId) : null;
  if (!order) throw new AppError(404, 'order_not_found', ORDER_NOT_FOUND_STAFF);
  return order;
}

export async function orderDetail(db: Database, orderId: string): Promise<StaffOrderDetail> {
  const order = await loadOrder(db, orderId);
  const store = await db.models.Store.findByPk(order.storeId, { rejectOnEmpty: true });
  const lines = await db.models.OrderLine.findAll({ where: { orderId }, order: [['id', 'ASC']] });
  const refunds = await db.models.OrderRefund.findAll({ where: { orderId }, order: [['id', 'ASC']] });
  const committed = refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);
  return {
    ...summary(order, store),
    customer: customerOf(order),
    early_bird: order.earlyBird,
    gateway: order.gateway,
    payment_reference: order.gatewayIntentId,
    card: order.cardLast4 ? { brand: order.cardBrand ?? 'card', last4: order.cardLast4 } : null,
    lines: lines.map((l) => ({
      product_id: l.productId,
      name: l.name,
      unit_amount: l.unitAmount,
      quantity: l.quantity,
      line_total: l.lineTotal,
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      amount: r.amount,
      reason: r.reason,
      status: r.status,
      gateway_refund_id: r.gatewayRefundId,
      created_at: r.createdAt.toISOString(),
    })),
    refundable: REFUNDABLE.includes(order.status) ? Math.max(0, captured(order) - committed) : 0,
    review:
      order.status === 'needs_review'
        ? {
            reason: order.reviewReason ?? '',
            amount_received: order.amountReceived ?? 0,
            received_currency: order.receivedCurrency ?? order.currency,
          }
        : null,
  };
}

// ---------------------------------------------------------------------------------------------- CSV

export const CSV_COLUMNS = [
  'confirmation',
  'order_id',
  'status',
  'store_id',
  'store_name',
  'placed_at',
  'paid_at',
  'company',
  'first_name',
  'last_name',
  'email',
  'phone',
  'onsite_name',
  'onsite_phone',
  'booth',
  'room',
  'delivery_date',
  'delivery_time',
  'pickup_date',
  'pickup_time',
  'product_id',
  'product',
  'quantity',
  'unit_price',
  'line_total',
  'order_total',
  'refunded',
] as const;

/** Quotes a cell; text that a spreadsheet would run as a formula is prefixed with an apostrophe. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let out = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(out)) out = `'${out}`;
  return /[",\r\n]/.test(out) || out !== out.trim() ? `"${out.replace(/"/g, '""')}"` : out;
}

const money = (cents: number) => (cents / 100).toFixed(2);

/** The warehouse export: one row per order line, the order's columns repeated on each. */
export async function ordersCsv(
  deps: Pick<StaffOrderDeps, 'config' | 'db'>,
  rawQuery: unknown,
): Promise<string> {
  const query = orderQuerySchema.parse(rawQuery ?? {});
  const found = await findOrders(deps, query);
  const ids = found.map(({ order }) => order.id);
  const lines =
    ids.length === 0
      ? []
      : await deps.db.models.OrderLine.findAll({
          where: { orderId: { [Op.in]: ids } },
          order: [['id', 'ASC']],
        });
  const byOrder = new Map<string, OrderLineInstance[]>();
  for (const line of lines) byOrder.set(line.orderId, [...(byOrder.get(line.orderId) ?? []), line]);
  const rows = [CSV_COLUMNS.join(',')];
  // Oldest first: the order the warehouse works in.
  for (const { order, store } of [...found].reverse()) {
    const c = customerOf(order);
    for (const line of byOrder.get(order.id) ?? []) {
      const cells: (string | number | null)[] = [
        order.confirmation,
        order.id,
        order.status,
        store.storeId,
        store.name,
        order.createdAt.toISOString(),
        order.paidAt?.toISOString() ?? null,
        text(c, 'company'),
        text(c, 'firstName'),
        text(c, 'lastName'),
        order.email,
        text(c, 'phone'),
        `${text(c, 'onsiteFirstName')} ${text(c, 'onsiteLastName')}`.trim(),
        text(c, 'onsitePhone'),
        text(c, 'booth'),
        text(c, 'room'),
        text(c, 'deliveryDate'),
        text(c, 'deliveryTime'),
        text(c, 'pickupDate'),
        text(c, 'pickupTime'),
        line.productId,
        line.name,
        line.quantity,
        money(line.unitAmount),
        money(line.lineTotal),
        money(order.total),
        money(order.refundedAmount),
      ];
      rows.push(cells.map(csvCell).join(','));
    }
  }
  return `${rows.join('\r\n')}\r\n`;
}

// ----------------------------------------------------------------------------------------- pull sheet

const pullSheetQuery = z.object({ date: day });

/**
 * What to load for a store, per delivery day: equipment totals and the orders with their booths. Paid and
 * partially refunded orders count (a fully refunded one is off the truck).
 */
export async function pullSheet(db: Database, storeKey: number, rawQuery: unknown): Promise<PullSheet> {
  const { date } = pullSheetQuery.parse(rawQuery ?? {});
  const store = await findStaffStore(db, storeKey);
  const orders = await db.models.Order.findAll({
    where: { storeId: storeKey, status: { [Op.in]: REFUNDABLE } },
    order: [['createdAt', 'ASC']],
  });
  const lines = orders.length
    ? await db.models.OrderLine.findAll({
        where: { orderId: { [Op.in]: orders.map((o) => o.id) } },
        order: [['id', 'ASC']],
      })
    : [];
  const days = new Map<string, PullSheetDay>();
  for (const order of orders) {
    const c = customerOf(order);
    const delivery = text(c, 'deliveryDate');
    if (date && delivery !== date) continue;
    let sheet = days.get(delivery);
    if (!sheet) {
      sheet = { date: delivery, items: [], orders: [] };
      days.set(delivery, sheet);
    }
    const own = lines.filter((l) => l.orderId === order.id);
    for (const line of own) {
      const item = sheet.items.find((i) => i.product_id === line.productId);
      if (item) item.quantity += line.quantity;
      else sheet.items.push({ product_id: line.productId, name: line.name, quantity: line.quantity });
    }
    sheet.orders.push({
      id: order.id,
      confirmation: order.confirmation,
      company: text(c, 'company'),
      booth: text(c, 'booth'),
      room: text(c, 'room'),
      delivery_time: text(c, 'deliveryTime'),
      pickup_date: text(c, 'pickupDate'),
      pickup_time: text(c, 'pickupTime'),
      lines: own.map((l) => ({ name: l.name, quantity: l.quantity })),
    });
  }
  const sorted = [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
  for (const sheet of sorted) sheet.items.sort((a, b) => a.name.localeCompare(b.name));
  return { store: { id: store.id, store_id: store.storeId, name: store.name }, days: sorted };
}

// ------------------------------------------------------------------------------------------- refunds

const refundSchema = z.object({
  amount: z.number({ error: REFUND_AMOUNT_INVALID }).int(REFUND_AMOUNT_INVALID).min(1, REFUND_AMOUNT_INVALID),
  reason: requiredText(REFUND_REASON_REQUIRED, REFUND_REASON_MAX),
  /** Drawn by the refund dialog when it opens: the same key is the same refund. */
  key: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'A refund request key is 8 to 64 letters, digits, - or _.'),
});

export interface RefundOutcome {
  order: StaffOrderDetail;
  refund: StaffOrderDetail['refunds'][number];
  /** True when this key had already been refunded: nothing new happened. */
  replayed: boolean;
}

/**
 * A full or partial refund through the gateway that took the payment, recorded once:
 *
 * 1. one transaction (row-locked on PostgreSQL, BEGIN IMMEDIATE on SQLite) checks the order and what is left
 *    to refund and writes the refund `pending` under its unique (order, key); a key already used finds its
 *    row instead;
 * 2. the gateway is asked with an idempotency key made of the order and the key, so asking twice refunds once;
 * 3. `UPDATE … SET status='succeeded' WHERE id=? AND status<>'succeeded'` changes the row for exactly one
 *    caller, which alone adds the amount to the order and writes the audit row.
 */
export async function refundOrder(
  deps: StaffOrderDeps,
  actor: Actor,
  orderId: string,
  body: unknown,
): Promise<RefundOutcome> {
  const { db, config, logger } = deps;
  const input = refundSchema.parse(body ?? {});
  await loadOrder(db, orderId);

  const claim = async (): Promise<OrderRefundInstance> =>
    db.sequelize.transaction(async (transaction) => {
      const order = await db.models.Order.findByPk(orderId, {
        transaction,
        rejectOnEmpty: true,
        ...(db.dialect === 'postgres' ? { lock: transaction.LOCK.UPDATE } : {}),
      });
      const existing = await db.models.OrderRefund.findOne({
        where: { orderId, requestKey: input.key },
        transaction,
      });
      if (existing) {
        if (existing.amount !== input.amount) {
          throw new AppError(409, 'refund_key_reused', REFUND_KEY_REUSED);
        }
        return existing;
      }
      if (!REFUNDABLE.includes(order.status))
        throw new AppError(409, 'order_not_refundable', ORDER_NOT_REFUNDABLE);
      const committed =
        ((await db.models.OrderRefund.sum('amount', {
          where: { orderId, status: { [Op.ne]: 'failed' } },
          transaction,
        })) as number | null) ?? 0;
      if (input.amount > captured(order) - committed) {
        throw new AppError(400, 'validation_failed', REFUND_TOO_LARGE, { amount: REFUND_TOO_LARGE });
      }
      return db.models.OrderRefund.create(
        {
          orderId,
          requestKey: input.key,
          amount: input.amount,
          currency: order.currency,
          reason: input.reason,
          gateway: order.gateway,
          actorUserId: actor.userId,
        },
        { transaction },
      );
    });

  let refund: OrderRefundInstance;
  try {
    refund = await claim();
  } catch (error) {
    // The same key, at the same moment, from another request: its row is the refund.
    if (!(error instanceof UniqueConstraintError)) throw error;
    refund = await claim();
  }
  const outcome = async (replayed: boolean): Promise<RefundOutcome> => {
    const order = await orderDetail(db, orderId);
    return { order, refund: order.refunds.find((r) => r.id === refund.id)!, replayed };
  };
  if (refund.status === 'succeeded') return outcome(true);

  const order = await db.models.Order.findByPk(orderId, { rejectOnEmpty: true });
  const store = await db.models.Store.findByPk(order.storeId, { rejectOnEmpty: true });
  const gateway = paymentGatewayFor(config as GatewayConfig, store);
  if (gateway.kind !== order.gateway || !order.gatewayIntentId) {
    await refund.update({ status: 'failed', failure: 'wrong gateway' });
    throw new AppError(409, 'wrong_gateway', REFUND_WRONG_GATEWAY);
  }
  let result;
  try {
    result = await gateway.refund({
      intentId: order.gatewayIntentId,
      amount: refund.amount,
      currency: refund.currency,
      reason: refund.reason,
      idempotencyKey: `refund-${order.id}-${refund.requestKey}`,
    });
  } catch (error) {
    logger.error({ err: error, orderId }, 'refund failed at the gateway');
    const message = error instanceof GatewayError ? error.message : String(error);
    await db.models.OrderRefund.update(
      { status: 'failed', failure: message.slice(0, 500) },
      { where: { id: refund.id, status: { [Op.ne]: 'succeeded' } } },
    );
    throw new AppError(502, 'refund_failed', REFUND_FAILED);
  }

  let recorded = false;
  await db.sequelize.transaction(async (transaction) => {
    const [changed] = await db.models.OrderRefund.update(
      { status: 'succeeded', gatewayRefundId: result.refundId, failure: null },
      { where: { id: refund.id, status: { [Op.ne]: 'succeeded' } }, transaction },
    );
    if (changed === 0) return;
    recorded = true;
    const current = await db.models.Order.findByPk(orderId, {
      transaction,
      rejectOnEmpty: true,
      ...(db.dialect === 'postgres' ? { lock: transaction.LOCK.UPDATE } : {}),
    });
    const before = { status: current.status, refunded_amount: current.refundedAmount };
    const refunded = Math.min(captured(current), current.refundedAmount + refund.amount);
    const held = current.status === 'needs_review';
    current.set({
      refundedAmount: refunded,
      status: refunded >= captured(current) ? 'refunded' : held ? 'needs_review' : 'partially_refunded',
    });
    await current.save({ transaction });
    await recordChange(
      db,
      actor,
      {
        action: 'order_refund',
        entity: 'order',
        entityId: orderId,
        storeId: current.storeId,
        before,
        after: {
          status: current.status,
          refunded_amount: current.refundedAmount,
          refund: { amount: refund.amount, reason: refund.reason, gateway_refund_id: result.refundId },
        },
      },
      transaction,
    );
  });
  if (recorded) logger.info({ orderId, amount: refund.amount, refundId: result.refundId }, 'order refunded');
  return outcome(!recorded);
}

/** Queues the confirmation e-mail of a paid order again (receipt and invoice, BCC as configured). */
export async function resendConfirmation(
  deps: StaffOrderDeps,
  actor: Actor,
  orderId: string,
): Promise<{ queued: true; to: string }> {
  const { db, config } = deps;
  const order = await loadOrder(db, orderId);
  if (!order.confirmation || !order.paidAt) throw new AppError(409, 'order_not_paid', ORDER_NOT_PAID);
  await db.sequelize.transaction(async (transaction) => {
    const queued = await enqueueConfirmationMail({ config, db }, orderId, transaction);
    if (queued === null) throw new AppError(409, 'order_incomplete', NO_CONFIRMATION_ADDRESS);
    const { mailId } = queued;
    await recordChange(
      db,
      actor,
      {
        action: 'order_confirmation_resend',
        entity: 'order',
        entityId: orderId,
        storeId: order.storeId,
        after: { to: order.email, mail_id: mailId },
      },
      transaction,
    );
  });
  return { queued: true, to: order.email };
}

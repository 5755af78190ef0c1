import { requiredText } from '@avp/shared';
import type { StaffOrderDetail } from '@avp/shared';
import { Op, UniqueConstraintError } from 'sequelize';
import { z } from 'zod';
import { GatewayError, paymentGatewayFor } from '../../adapters/payments/index.js';
import type { GatewayConfig } from '../../adapters/payments/index.js';
import type { OrderRefundInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { recordChange } from '../staff/audit.js';
import type { Actor } from '../staff/audit.js';
import { loadOrder, orderDetail } from '../staff/order-detail.js';
import type { StaffOrderDeps } from '../staff/order-query.js';
import { returnToStock } from '../stock/holds.js';
import { captured, REFUNDABLE } from './refundable.js';

export const ORDER_NOT_REFUNDABLE = 'Only a paid order can be refunded.';
export const REFUND_TOO_LARGE = 'The refund cannot be more than what is left of the order.';
export const REFUND_AMOUNT_INVALID = 'Enter an amount of at least 0.01.';
export const REFUND_REASON_REQUIRED = 'Please give a reason for the refund.';
export const REFUND_KEY_REUSED = 'This refund request was already made with another amount.';
export const REFUND_FAILED = 'The payment provider did not accept the refund. Nothing was refunded.';
export const REFUND_WRONG_GATEWAY =
  'This order was paid through a payment account this store no longer uses; refund it from that account.';
/** The size of order_refunds.reason. */
export const REFUND_REASON_MAX = 500;

const refundSchema = z.object({
  amount: z.number({ error: REFUND_AMOUNT_INVALID }).int(REFUND_AMOUNT_INVALID).min(1, REFUND_AMOUNT_INVALID),
  reason: requiredText(REFUND_REASON_REQUIRED, REFUND_REASON_MAX),
  /** Drawn by the refund dialog when it opens: the same key is the same refund. */
  key: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'A refund request key is 8 to 64 letters, digits, - or _.'),
  /** Staff ticked 'back in stock': the order's units leave `sold` (once, whichever refund asks first). */
  backInStock: z.boolean({ error: 'backInStock is true or false.' }).default(false),
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
 *    caller, which alone adds the amount to the order and writes the audit row, and, when staff ticked
 *    'back in stock', puts the order's units back (stock/holds.ts returnToStock, at most once per order).
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
    const returned = input.backInStock ? await returnToStock(db, orderId, transaction) : [];
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
          ...(returned.length > 0
            ? { back_in_stock: returned.map((l) => ({ product: l.name, quantity: l.quantity })) }
            : {}),
        },
      },
      transaction,
    );
  });
  if (recorded) logger.info({ orderId, amount: refund.amount, refundId: result.refundId }, 'order refunded');
  return outcome(!recorded);
}

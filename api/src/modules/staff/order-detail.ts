import { isUuid } from '@avp/shared';
import type { StaffOrderDetail } from '@avp/shared';
import type { Database } from '../../db/index.js';
import type { OrderInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { captured, REFUNDABLE } from '../orders/refundable.js';
import { summary } from './order-list.js';
import { customerOf } from './order-query.js';

/** One order whole, for staff: the customer info as submitted, its lines and refunds, what is left to refund. */

export const ORDER_NOT_FOUND_STAFF = 'No such order.';

export async function loadOrder(db: Database, orderId: string): Promise<OrderInstance> {
  const order = isUuid(orderId) ? await db.models.Order.findByPk(orderId) : null;
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

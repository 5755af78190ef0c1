import type { StaffOrderSummary } from '@avp/shared';
import type { OrderInstance, StoreInstance } from '../../db/models/index.js';
import { customerOf, findOrders, orderQuerySchema, text } from './order-query.js';
import type { StaffOrderDeps } from './order-query.js';

/** The staff order list: a row per order, newest first. */

export function summary(order: OrderInstance, store: StoreInstance): StaffOrderSummary {
  const c = customerOf(order);
  return {
    id: order.id,
    confirmation: order.confirmation,
    status: order.status,
    store: { id: store.id, store_id: store.slug, name: store.name },
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

export async function listOrders(
  deps: Pick<StaffOrderDeps, 'config' | 'db'>,
  rawQuery: unknown,
): Promise<StaffOrderSummary[]> {
  const query = orderQuerySchema.parse(rawQuery ?? {});
  return (await findOrders(deps, query)).map(({ order, store }) => summary(order, store));
}

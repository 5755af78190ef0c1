import type { OrderInstance, OrderStatus } from '../../db/models/index.js';

// A held order (its capture differed from its total) can give back what was captured.
export const REFUNDABLE: OrderStatus[] = ['paid', 'partially_refunded', 'needs_review'];

/** What the provider took: recorded with each capture (older orders: their total). */
export function captured(order: OrderInstance): number {
  return order.amountReceived ?? order.total;
}

/**
 * An order's whole life (SPEC §4 'Order flow' and 'Payment', DESIGN 'Payments'): created `pending` with its
 * payment intent, repriced and filled in on submit, paid exactly once (paid.ts), and refunded through the
 * gateway that took the payment, each refund recorded once. Every amount is the server's: the browser sends
 * product ids and counts, never a price, and anything else it sends is dropped.
 */
export { findOwnOrder, ORDER_NOT_FOUND, ORDER_NOT_PENDING } from './access.js';
export { cartInputSchema, priceCart, UNKNOWN_PRODUCT } from './cart.js';
export type { CartInput, PricedCart } from './cart.js';
export { WRONG_GATEWAY } from './gateway.js';
export type { OrderDeps } from './gateway.js';
export { createIntent, ORDER_CHANGED, ORDER_FROZEN, updateIntent } from './intents.js';
export { confirmPayment, ORDER_INCOMPLETE, payWithTestCard } from './payment.js';
export { getOrderReceipt } from './order-receipt.js';
export { AMOUNT_MISMATCH_REASON, markPaid } from './paid.js';
export type { MarkPaidOutcome, PaymentRecord } from './paid.js';
export { ORDER_NOT_REFUNDABLE, refundOrder, REFUND_KEY_REUSED, REFUND_TOO_LARGE } from './refunds.js';
export type { RefundOutcome } from './refunds.js';
export type { CreatedIntent, OrderReceipt, PaymentResult, UpdatedIntent } from '@avp/shared';

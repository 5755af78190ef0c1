/**
 * The exhibitor store (issue 6): public store data, payment intents and orders, the card payment through
 * the gateway of api/src/adapters/payments, paid-exactly-once settlement with its confirmation e-mail, and
 * Stripe's webhook.
 */
export { ORDER_TOKEN_HEADER, storePageExists, storeRoutes, stripeWebhookRoutes } from './routes.js';
export { getPublicStore, isClosed, listStores, STORE_NOT_FOUND } from './catalogue.js';
export type { StoreDeps } from './catalogue.js';
export {
  confirmPayment,
  createIntent,
  getOrderReceipt,
  ORDER_NOT_FOUND,
  ORDER_NOT_PENDING,
  payWithTestCard,
  priceCart,
  updateIntent,
} from './orders.js';
export type { CreatedIntent, OrderDeps, OrderReceipt, PaymentResult, UpdatedIntent } from './orders.js';
export { markPaid } from './paid.js';
export { enqueueConfirmationMail } from './confirmation-mail.js';
export { storeSummary } from './catalogue.js';
export type { MarkPaidOutcome, PaymentRecord } from './paid.js';
export { CONFIRMATION_PATTERN, newConfirmationNumber } from './confirmation-number.js';
export { BAD_EVENT, BAD_SIGNATURE, handleStripeWebhook } from './webhook.js';
export { RENTAL_TERMS, TIMES_NOTE } from './receipt.js';

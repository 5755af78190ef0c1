/**
 * The exhibitor store: public store data and its routes, including those of the order lifecycle (which
 * lives in modules/orders), the confirmation e-mail with its receipt and invoice, and Stripe's webhook.
 */
export { ORDER_TOKEN_HEADER, storePageExists, storeRoutes, stripeWebhookRoutes } from './routes.js';
export { getPublicStore, isClosed, listStores, STORE_NOT_FOUND } from './catalogue.js';
export { StoreDataCache, storesChanged } from './cache.js';
export type { StoreDeps } from './catalogue.js';
export { enqueueConfirmationMail } from './confirmation-mail.js';
export { storeSummary } from './catalogue.js';
export { CONFIRMATION_PATTERN, newConfirmationNumber } from './confirmation-number.js';
export { BAD_EVENT, BAD_SIGNATURE, handleStripeWebhook } from './webhook.js';
export { RENTAL_TERMS, TIMES_NOTE } from './receipt.js';

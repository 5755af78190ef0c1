export { CONTACT_RATE_LIMIT, CONTACT_RATE_LIMITED, contactRoutes } from './routes.js';
export { forwardToMailingList, HONEYPOT_FIELD, notificationText, submitContact } from './service.js';
export type { ContactDeps, ContactOutcome } from './service.js';

/**
 * The marketing feature's public face. Everything here is light: pages and the contact form are loaded on
 * demand, so importing this index costs the first load almost nothing.
 */
export { marketingRoutes } from './routes';
export { LazyContactForm } from './contact/lazy';
export { ContactFormSlot } from './contact/ContactFormSlot';

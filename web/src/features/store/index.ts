/**
 * The exhibitor store's public face: the order pages' routes. Everything else in this folder is
 * internal; the pages load on demand.
 */
export { storeRoutes } from './routes';

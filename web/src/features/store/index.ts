/**
 * The exhibitor store's public face (issue 6): the order pages' routes. Everything else in this folder is
 * internal; the pages load on demand.
 */
export { storeRoutes } from './routes';

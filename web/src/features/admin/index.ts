/**
 * The staff screens' public face (issue 7): their routes. Everything else in this folder is internal; the
 * pages load on demand.
 */
export { adminRoutes } from './routes';

/**
 * The staff screens' API: the store manager of SPEC §2 '/manage_order_forms', products and
 * per-store prices, orders (list, detail, CSV, pull sheet, refunds, resending the confirmation) and the
 * audit log. Every route is staff-only. `staffMediaRoutes` serves the images staff upload.
 */
export { staffRoutes } from './routes.js';
export type { StaffRouteDeps } from './routes.js';
export { staffMediaRoutes, IMAGE_NOT_AN_IMAGE, IMAGE_TOO_LARGE, PRODUCT_IMAGE_SIZE } from './media.js';
export {
  createStore,
  deleteStore,
  listStaffStores,
  parseStoreKey,
  STORE_DELETE_NOT_ARCHIVED,
  STORE_HAS_ORDERS,
  STORE_ID_TAKEN,
  STORE_NOT_FOUND_STAFF,
  updateStore,
} from './stores.js';
export { CSV_COLUMNS } from './orders-csv.js';
export { actorOf, listAudit, recordChange } from './audit.js';
export type { Actor, StaffAction } from './audit.js';

/**
 * Stock per store and product (issue #32): holds taken when an order goes to payment, sold when it is paid,
 * released by a sweep when they run out, returned by a refund marked 'back in stock'; the public store's
 * units left, and the staff stock table. The rules live in the database's conditional updates (ledger.ts).
 */
export { storeStock } from './availability.js';
export {
  assertLeft,
  commitOnPay,
  holdOrder,
  orderUnits,
  returnToStock,
  shortMessage,
  StockShortError,
  withHold,
} from './holds.js';
export type { CommitOutcome, NamedLine } from './holds.js';
export { stockStaffRoutes } from './routes.js';
export { limitBelowTaken, listStock, setStockLimit, STOCK_LIMIT_INVALID } from './staff-stock.js';
export { claimSweep, releaseExpiredHolds, startStockSweep } from './sweep.js';
export type { StockSweep } from './sweep.js';

/**
 * The staff screens' public face: their pages, each loaded on demand. The staff area's layout (sign-in gate
 * and navigation) and its routes are the app layer's (web/src/app/staff), which also mounts the uploads
 * inbox there. Everything else in this folder is internal.
 */
export {
  AuditPage,
  OrdersPage,
  OverviewPage,
  PaymentTestPage,
  ProductsPage,
  PullSheetPage,
  StaffMembersPage,
  StockPage,
  StoreManagerPage,
  UploadEventsPage,
} from './pages';

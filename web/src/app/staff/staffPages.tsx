/**
 * Every staff page (SPEC §2 'Admin page', §6) in one table: the staff routes and the staff navigation are
 * both made from it, so a page cannot be routed without a link or linked without the sign-in gate.
 */
import type { ComponentType } from 'react';
import {
  AuditPage,
  OrdersPage,
  OverviewPage,
  PaymentTestPage,
  ProductsPage,
  PullSheetPage,
  StockPage,
  StoreManagerPage,
  UploadEventsPage,
} from '../../features/admin';
import { StaffInboxPage } from '../../features/uploads';

export interface StaffPage {
  /** The route path (no leading slash), also the navigation link's target. */
  path: string;
  /** The navigation link's text. */
  label: string;
  Page: ComponentType;
  /** Further paths showing the same page (not linked). */
  alsoAt?: readonly string[];
}

export const STAFF_PAGES: readonly StaffPage[] = [
  { path: 'manage_order_forms', label: 'Stores', Page: StoreManagerPage },
  { path: 'staff/products', label: 'Products and prices', Page: ProductsPage },
  { path: 'staff/orders', label: 'Orders', Page: OrdersPage, alsoAt: ['staff/orders/:orderId'] },
  { path: 'staff/pull-sheet', label: 'Pull sheet', Page: PullSheetPage },
  { path: 'staff/stock', label: 'Stock', Page: StockPage },
  { path: 'staff/overview', label: 'Overview', Page: OverviewPage },
  { path: 'staff/audit', label: 'Audit log', Page: AuditPage },
  { path: 'staff/payment-test', label: 'Payment test', Page: PaymentTestPage },
  { path: 'staff/uploads', label: 'Uploads', Page: StaffInboxPage },
  { path: 'staff/upload-events', label: 'Upload events', Page: UploadEventsPage },
];

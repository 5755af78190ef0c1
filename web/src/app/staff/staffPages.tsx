/**
 * Every staff page (SPEC §2 'Admin page', §6) in one table: the staff routes and the staff navigation are
 * both made from it, so a page cannot be routed without a link or linked without the sign-in gate.
 */
import { staffMayUse, type StaffArea, type StaffRole } from '@avp/shared';
import type { ComponentType } from 'react';
import {
  AuditPage,
  OrdersPage,
  OverviewPage,
  PaymentTestPage,
  ProductsPage,
  PullSheetPage,
  StockPage,
  StaffMembersPage,
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
  /** Which roles may see it (shared STAFF_AREA_ROLES, the same table the server enforces). */
  area: StaffArea;
  /** Further paths showing the same page (not linked). */
  alsoAt?: readonly string[];
}

export const STAFF_PAGES: readonly StaffPage[] = [
  { path: 'manage_order_forms', label: 'Stores', Page: StoreManagerPage, area: 'stores' },
  { path: 'staff/products', label: 'Products and prices', Page: ProductsPage, area: 'products' },
  {
    path: 'staff/orders',
    label: 'Orders',
    Page: OrdersPage,
    area: 'orders',
    alsoAt: ['staff/orders/:orderId'],
  },
  { path: 'staff/pull-sheet', label: 'Pull sheet', Page: PullSheetPage, area: 'pullSheet' },
  { path: 'staff/stock', label: 'Stock', Page: StockPage, area: 'stock' },
  { path: 'staff/overview', label: 'Overview', Page: OverviewPage, area: 'any' },
  { path: 'staff/audit', label: 'Audit log', Page: AuditPage, area: 'audit' },
  { path: 'staff/payment-test', label: 'Payment test', Page: PaymentTestPage, area: 'paymentTest' },
  { path: 'staff/uploads', label: 'Uploads', Page: StaffInboxPage, area: 'uploadsInbox' },
  { path: 'staff/upload-events', label: 'Upload events', Page: UploadEventsPage, area: 'uploadEvents' },
  { path: 'staff/members', label: 'Staff', Page: StaffMembersPage, area: 'staffManagement' },
];

/** The pages a member holding `roles` may open, in navigation order (none for a client or no role). */
export function staffPagesFor(roles: readonly StaffRole[]): StaffPage[] {
  return STAFF_PAGES.filter((page) => staffMayUse(roles, page.area));
}

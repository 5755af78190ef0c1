/**
 * The staff pages (issue 7), code-split: /manage_order_forms (SPEC §2's store manager) and /staff/…
 * (products and prices, orders, pull sheet, audit log, payment test, and the uploads inbox of features/uploads). They
 * share one layout route, the staff shell: one sign-in gate and one navigation for all of them. App.tsx
 * mounts them inside the site layout, which hides the header, contact panel and footer on these paths.
 */
import { Suspense, type ReactNode } from 'react';
import { Navigate, Route } from 'react-router';
import { lazyModule } from '../../lib/lazyModule';
import { afterZodSetup } from '../../lib/zodFirst';
import { StaffInboxPage } from '../uploads';

const S = 'src/features/admin';

const StaffLayout = lazyModule(
  `${S}/StaffShell.tsx`,
  afterZodSetup(() => import('./StaffShell')),
);
const StoreManagerPage = lazyModule(
  `${S}/StoreManagerPage.tsx`,
  afterZodSetup(() => import('./StoreManagerPage')),
);
const ProductsPage = lazyModule(
  `${S}/ProductsPage.tsx`,
  afterZodSetup(() => import('./ProductsPage')),
);
const OrdersPage = lazyModule(
  `${S}/OrdersPage.tsx`,
  afterZodSetup(() => import('./OrdersPage')),
);
const PullSheetPage = lazyModule(
  `${S}/PullSheetPage.tsx`,
  afterZodSetup(() => import('./PullSheetPage')),
);
const PaymentTestPage = lazyModule(
  `${S}/PaymentTestPage.tsx`,
  afterZodSetup(() => import('./PaymentTestPage')),
);
const AuditPage = lazyModule(
  `${S}/AuditPage.tsx`,
  afterZodSetup(() => import('./AuditPage')),
);

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<p role="status">Loading…</p>}>{children}</Suspense>;
}

/** Route elements for `<Routes>` (a fragment: React Router reads routes inside fragments). */
export const adminRoutes = (
  <>
    <Route path="staff" element={<Navigate to="/manage_order_forms" replace />} />
    <Route
      element={
        <Loading>
          <StaffLayout />
        </Loading>
      }
    >
      <Route path="manage_order_forms" element={<StoreManagerPage />} />
      <Route path="staff/products" element={<ProductsPage />} />
      <Route path="staff/orders" element={<OrdersPage />} />
      <Route path="staff/orders/:orderId" element={<OrdersPage />} />
      <Route path="staff/pull-sheet" element={<PullSheetPage />} />
      <Route path="staff/audit" element={<AuditPage />} />
      <Route path="staff/uploads" element={<StaffInboxPage />} />
      <Route path="staff/payment-test" element={<PaymentTestPage />} />
    </Route>
  </>
);

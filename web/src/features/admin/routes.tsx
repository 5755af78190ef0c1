/**
 * The staff pages (issue 7), code-split: /manage_order_forms (SPEC §2's store manager) and /staff/…
 * (products and prices, orders, pull sheet, audit log, payment test). App.tsx mounts them inside the site
 * layout, which hides the header, contact panel and footer on these paths.
 */
import { Suspense, type ReactNode } from 'react';
import { Navigate, Route } from 'react-router';
import { lazyModule } from '../../lib/lazyModule';
import { afterZodSetup } from '../../lib/zodFirst';

const S = 'src/features/admin';

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
    <Route
      path="manage_order_forms"
      element={
        <Loading>
          <StoreManagerPage />
        </Loading>
      }
    />
    <Route path="staff" element={<Navigate to="/manage_order_forms" replace />} />
    <Route
      path="staff/products"
      element={
        <Loading>
          <ProductsPage />
        </Loading>
      }
    />
    <Route
      path="staff/orders"
      element={
        <Loading>
          <OrdersPage />
        </Loading>
      }
    />
    <Route
      path="staff/orders/:orderId"
      element={
        <Loading>
          <OrdersPage />
        </Loading>
      }
    />
    <Route
      path="staff/pull-sheet"
      element={
        <Loading>
          <PullSheetPage />
        </Loading>
      }
    />
    <Route
      path="staff/payment-test"
      element={
        <Loading>
          <PaymentTestPage />
        </Loading>
      }
    />
    <Route
      path="staff/audit"
      element={
        <Loading>
          <AuditPage />
        </Loading>
      }
    />
  </>
);

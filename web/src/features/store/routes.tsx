/**
 * The exhibitor order pages (SPEC §2 'Exhibitor order pages'), each code-split so the store's forms, the
 * pricing preview and (only for Stripe stores) Stripe.js never weigh on the marketing site's first load.
 * App.tsx mounts these inside the site layout, which drops header, contact panel and footer for them. The
 * pages build zod schemas, so they load after zod is set up for the CSP (lib/zodFirst.ts).
 */
import { Suspense, type ReactNode } from 'react';
import { Route } from 'react-router';
import { lazyModule } from '../../lib/lazyModule';
import { afterZodSetup } from '../../lib/zodFirst';
import { ConfirmationPage } from './confirmationPage';

const S = 'src/features/store/pages';

export const StoreSelectorPage = lazyModule(
  `${S}/StoreSelectorPage.tsx`,
  afterZodSetup(() => import('./pages/StoreSelectorPage')),
);
export const ProductsPage = lazyModule(
  `${S}/ProductsPage.tsx`,
  afterZodSetup(() => import('./pages/ProductsPage')),
);
export const CheckoutPage = lazyModule(
  `${S}/CheckoutPage.tsx`,
  afterZodSetup(() => import('./pages/CheckoutPage')),
);
export const PaymentPage = lazyModule(
  `${S}/PaymentPage.tsx`,
  afterZodSetup(() => import('./pages/PaymentPage')),
);
export { ConfirmationPage };

function Loading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p className="store-loading" role="status">
          Loading…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}

/** Route elements for `<Routes>` (a fragment: React Router reads routes inside fragments). */
export const storeRoutes = (
  <>
    <Route
      path="exhibitor_order"
      element={
        <Loading>
          <StoreSelectorPage />
        </Loading>
      }
    />
    <Route
      path="exhibitor_order/:storeId"
      element={
        <Loading>
          <ProductsPage />
        </Loading>
      }
    />
    <Route
      path="exhibitor_order/:storeId/checkout"
      element={
        <Loading>
          <CheckoutPage />
        </Loading>
      }
    />
    <Route
      path="payment"
      element={
        <Loading>
          <PaymentPage />
        </Loading>
      }
    />
    <Route
      path="confirmation"
      element={
        <Loading>
          <ConfirmationPage />
        </Loading>
      }
    />
  </>
);

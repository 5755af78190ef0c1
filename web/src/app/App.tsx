import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { accountRoutes } from '../features/account';
import { marketingRoutes } from '../features/marketing';
import { storeRoutes } from '../features/store';
import { CloudCallbackPage } from '../features/uploads';
import { SessionProvider } from '../lib/session';
import { clientRoutes } from './client/routes';
import { SiteLayout } from './layout/SiteLayout';
import { NotFoundPage } from './NotFoundPage';
import { QueryProvider } from './QueryProvider';
import { ScrollToTop } from './ScrollToTop';
import { staffRoutes } from './staff/routes';

/** The widget kit showcase (/ui) exists only in development and in builds made with VITE_UI_SHOWCASE=true. */
const UiShowcase =
  import.meta.env.DEV || import.meta.env.VITE_UI_SHOWCASE === 'true'
    ? lazy(() => import('../ui/showcase/ShowcasePage'))
    : null;

/** The route table. Server-side, `isKnownRoute` in shared/routes.ts decides 200 or 404 for the same paths. */
export function App() {
  return (
    <QueryProvider>
      <SessionProvider>
        <ScrollToTop />
        <Routes>
          {UiShowcase ? (
            <Route
              path="ui"
              element={
                <Suspense fallback={null}>
                  <UiShowcase />
                </Suspense>
              }
            />
          ) : null}
          <Route path="client/cloud-callback" element={<CloudCallbackPage />} />
          <Route element={<SiteLayout />}>
            {marketingRoutes}
            {accountRoutes}
            {clientRoutes}
            {storeRoutes}
            {staffRoutes}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </SessionProvider>
    </QueryProvider>
  );
}

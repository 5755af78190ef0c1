/**
 * The staff area's routes: /staff sends staff to the store manager, and every staff page (staffPages.tsx)
 * is a child of one layout route, the sign-in gate and navigation of StaffLayout. The layout is code-split
 * like the pages, so the widget kit stays out of the public pages' first load; App.tsx mounts these inside
 * the site layout, which hides the header, contact panel and footer on these paths.
 */
import { Suspense } from 'react';
import { Navigate, Route } from 'react-router';
import { lazyModule } from '../../lib/lazyModule';
import { afterZodSetup } from '../../lib/zodFirst';
import { STAFF_PAGES } from './staffPages';

const StaffLayout = lazyModule(
  'src/app/staff/StaffLayout.tsx',
  afterZodSetup(() => import('./StaffLayout')),
);

/** Route elements for `<Routes>` (a fragment: React Router reads routes inside fragments). */
export const staffRoutes = (
  <>
    <Route path="staff" element={<Navigate to="/manage_order_forms" replace />} />
    <Route
      element={
        <Suspense fallback={<p role="status">Loading…</p>}>
          <StaffLayout />
        </Suspense>
      }
    >
      {STAFF_PAGES.flatMap(({ path, Page, alsoAt = [] }) =>
        [path, ...alsoAt].map((at) => <Route key={at} path={at} element={<Page />} />),
      )}
    </Route>
  </>
);

/**
 * The staff area's routes: /staff sends staff to the first page their roles allow, and every staff page (staffPages.tsx)
 * is a child of one layout route, the sign-in gate and navigation of StaffLayout. The layout is code-split
 * like the pages, so the widget kit stays out of the public pages' first load; App.tsx mounts these inside
 * the site layout, which hides the header, contact panel and footer on these paths.
 */
import { Suspense } from 'react';
import { Navigate, Route } from 'react-router';
import { StaffInvitePage } from '../../features/account';
import { lazyModule } from '../../lib/lazyModule';
import { useSession } from '../../lib/session';
import { afterZodSetup } from '../../lib/zodFirst';
import { RoleGate } from './RoleGate';
import { STAFF_PAGES, staffPagesFor } from './staffPages';

const StaffLayout = lazyModule(
  'src/app/staff/StaffLayout.tsx',
  afterZodSetup(() => import('./StaffLayout')),
);

/** /staff: the first page the member's roles allow (a Finance member lands on Orders, not Stores). */
function StaffHome() {
  const first = staffPagesFor(useSession().user?.staffRoles ?? [])[0];
  return <Navigate to={`/${first?.path ?? 'staff/overview'}`} replace />;
}

/** Route elements for `<Routes>` (a fragment: React Router reads routes inside fragments). */
export const staffRoutes = (
  <>
    {/* The invitation link: for someone without an account yet, so outside the sign-in gate. */}
    <Route
      path="staff/invite"
      element={
        <Suspense fallback={<p role="status">Loading…</p>}>
          <StaffInvitePage />
        </Suspense>
      }
    />
    <Route
      element={
        <Suspense fallback={<p role="status">Loading…</p>}>
          <StaffLayout />
        </Suspense>
      }
    >
      <Route path="staff" element={<StaffHome />} />
      {STAFF_PAGES.flatMap(({ path, Page, area, alsoAt = [] }) =>
        [path, ...alsoAt].map((at) => (
          <Route
            key={at}
            path={at}
            element={
              <RoleGate area={area}>
                <Page />
              </RoleGate>
            }
          />
        )),
      )}
    </Route>
  </>
);

/**
 * The uploads feature's routes (issue 8), code-split: the staff inbox /staff/uploads. The client
 * utility itself is shown by /client (features/account's ClientPage) through `UploadUtility` below.
 */
import { Suspense, type ReactNode } from 'react';
import { Route } from 'react-router';
import { lazyModule } from '../../lib/lazyModule';
import { afterZodSetup } from '../../lib/zodFirst';
import { isInternetExplorer } from './ie';

const U = 'src/features/uploads';

const InboxPage = lazyModule(
  `${U}/InboxPage.tsx`,
  afterZodSetup(() => import('./InboxPage')),
);
const LazyUploadUtility = lazyModule(
  `${U}/UploadUtility.tsx`,
  afterZodSetup(() => import('./UploadUtility')),
);

const LazyIncompatibleBrowserDialog = lazyModule(
  `${U}/IncompatibleBrowserDialog.tsx`,
  () => import('./IncompatibleBrowserDialog'),
);

/**
 * The incompatibility dialog, fetched only by Internet Explorer: the widget kit it is built from stays
 * out of every other visitor's first load.
 */
export function IncompatibleBrowserDialog() {
  if (typeof navigator === 'undefined' || !isInternetExplorer(navigator.userAgent)) return null;
  return (
    <Suspense fallback={null}>
      <LazyIncompatibleBrowserDialog />
    </Suspense>
  );
}

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<p role="status">Loading…</p>}>{children}</Suspense>;
}

/** The signed-in part of /client: the upload flow. */
export function UploadUtility() {
  return (
    <Loading>
      <LazyUploadUtility />
    </Loading>
  );
}

export const uploadsRoutes = (
  <>
    <Route
      path="staff/uploads"
      element={
        <Loading>
          <InboxPage />
        </Loading>
      }
    />
  </>
);

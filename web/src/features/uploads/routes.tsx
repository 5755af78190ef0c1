/**
 * The uploads feature's code-split pages: the staff inbox, which the app's staff area (web/src/app/staff)
 * mounts at /staff/uploads inside its layout, and the client utility, which the app's /client page
 * (web/src/app/client) shows once signed in through `UploadUtility` below.
 */
import { Suspense, type ReactNode } from 'react';
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

const LazyClientSubmissions = lazyModule(`${U}/ClientSubmissions.tsx`, () => import('./ClientSubmissions'));

const LazyCloudCallbackPage = lazyModule(
  `${U}/cloud/CloudCallbackPage.tsx`,
  () => import('./cloud/CloudCallbackPage'),
);

/** /client/cloud-callback: where the cloud pickers' sign-in popups return (Box, OneDrive). */
export function CloudCallbackPage() {
  return (
    <Suspense fallback={null}>
      <LazyCloudCallbackPage />
    </Suspense>
  );
}

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

/** Under the upload flow on /client: the client's submissions, review states and new versions (#31). */
export function ClientSubmissions() {
  return (
    <Loading>
      <LazyClientSubmissions />
    </Loading>
  );
}

/** The staff inbox (/staff/uploads), shown inside the staff layout, which signs staff in. */
export const StaffInboxPage = InboxPage;

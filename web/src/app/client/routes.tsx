/**
 * /client and /client_test (SPEC §2 'Client pages'): the account feature's portal page with the uploads
 * feature's utility inside it once signed in, and the Internet Explorer dialog whatever the session. The
 * two features know nothing of each other; this is where they meet.
 */
import { Suspense } from 'react';
import { Route } from 'react-router';
import { ClientPage } from '../../features/account';
import { ClientSubmissions, IncompatibleBrowserDialog, UploadUtility } from '../../features/uploads';

function ClientPortal() {
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <ClientPage banner={<IncompatibleBrowserDialog />}>
        <UploadUtility />
        <ClientSubmissions />
      </ClientPage>
    </Suspense>
  );
}

/** Route elements for `<Routes>` (a fragment: React Router reads routes inside fragments). */
export const clientRoutes = (
  <>
    <Route path="client" element={<ClientPortal />} />
    <Route path="client_test" element={<ClientPortal />} />
  </>
);

/**
 * /client and /client_test (SPEC §2 'Client pages'): the file upload utility. Signed out, it shows the
 * sign-in form (with the session-expired message after an expiry); signed in, who is signed in, a
 * sign-out button and the upload utility (features/uploads). Internet Explorer gets the incompatibility
 * dialog either way.
 */
import { loggedInAs } from '@avp/shared';
import { Button } from '../../ui';
import { IncompatibleBrowserDialog, UploadUtility } from '../uploads';
import { usePortalSessionCheck, useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import LoginForm from './LoginForm';
import './account.css';

export const CLIENT_PAGE_TITLE = 'Client File Upload Utility';

export default function ClientPage() {
  useDocumentTitle('Client file upload');
  usePortalSessionCheck();
  const { status, user, notice, signOut } = useSession();

  return (
    <section className="account-page" aria-labelledby="client-title">
      <h1 id="client-title">{CLIENT_PAGE_TITLE}</h1>
      <IncompatibleBrowserDialog />
      {status === 'loading' ? <p role="status">Loading…</p> : null}
      {status === 'signedOut' ? <LoginForm notice={notice} /> : null}
      {status === 'signedIn' && user ? (
        <div className="account-signed-in">
          <p>
            {loggedInAs(user.firstName, user.lastName)} <span className="account-email">({user.email})</span>
          </p>
          <Button variant="secondary" onPress={() => void signOut()}>
            Sign out
          </Button>
        </div>
      ) : null}
      {status === 'signedIn' && user ? <UploadUtility /> : null}
    </section>
  );
}

/**
 * /client and /client_test (SPEC §2 'Client pages'): the client portal's frame. Signed out, it shows the
 * sign-in form (with the session-expired message after an expiry); signed in, who is signed in, a sign-out
 * button and then the tool the app layer hands in (the upload utility: web/src/app/client). The banner is
 * shown whatever the session (the Internet Explorer dialog).
 */
import { loggedInAs } from '@avp/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../ui';
import { usePortalSessionCheck, useSession } from '../../lib/session';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import LoginForm from './LoginForm';
import './account.css';

export const CLIENT_PAGE_TITLE = 'Client File Upload Utility';

export interface ClientPageProps {
  /** Shown under the title whatever the session. */
  banner?: ReactNode;
  /** Shown under who is signed in, only while signed in. */
  children?: ReactNode;
}

export default function ClientPage({ banner, children }: ClientPageProps) {
  useDocumentTitle('Client file upload');
  usePortalSessionCheck();
  const { status, user, notice, signOut } = useSession();

  return (
    <section className="account-page" aria-labelledby="client-title">
      <h1 id="client-title">{CLIENT_PAGE_TITLE}</h1>
      {banner}
      {status === 'loading' ? <p role="status">Loading…</p> : null}
      {status === 'signedOut' ? <LoginForm notice={notice} /> : null}
      {status === 'signedIn' && user ? (
        <div className="account-signed-in">
          <p>
            {loggedInAs(user.firstName, user.lastName)} <span className="account-email">({user.email})</span>
          </p>
          <Link to="/account/security">Passkeys and two-step sign-in</Link>
          <Button variant="secondary" onPress={() => void signOut()}>
            Sign out
          </Button>
        </div>
      ) : null}
      {status === 'signedIn' && user ? children : null}
    </section>
  );
}

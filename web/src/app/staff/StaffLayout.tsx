/**
 * The staff area's one frame, the layout route of every staff page (SPEC §2 'Admin page', §6): a login
 * form while signed out (staff accounts only), 'You are not authorised to use this page.' for a client
 * account, otherwise 'Logged in as' with first and last name, a sign-out button and the staff navigation
 * above the page. It stays mounted while staff move between pages; the site layout gives the one `<main>`.
 */
import { loggedInAs } from '@avp/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { Navigate, NavLink, Outlet } from 'react-router';
import { LoginForm } from '../../features/account';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { Button } from '../../ui';
import { staffPagesFor } from './staffPages';
import './staff.css';

export const NOT_AUTHORISED = 'You are not authorised to use this page.';

const isForbiddenRole = (error: unknown) => error instanceof ApiError && error.code === 'forbidden_role';
const isSignedOut = (error: unknown) => error instanceof ApiError && error.status === 401;

/** Said on the sign-in form when a call finds the session gone (deactivated, or ended elsewhere). */
export const SESSION_ENDED =
  'Your session has ended. Please sign in again, or ask an owner of your team if your access was removed.';

/**
 * Any staff query or mutation refused 403 forbidden_role (the roles changed while a page was open) or 401
 * (deactivated, the session ended) asks the server who is signed in again: the navigation and RoleGate then
 * follow the new roles, showing the 403 page when this page is no longer allowed, and a session that is
 * gone brings back the sign-in form with SESSION_ENDED. A refusal of one secondary call on a page the
 * roles still allow stays that page's own error.
 */
function useRefusedCalls(): void {
  const { refresh, onExpiry, signOut, showNotice } = useSession();
  const client = useQueryClient();
  useEffect(
    () =>
      onExpiry(() => {
        void signOut();
        showNotice(SESSION_ENDED);
      }),
    [onExpiry, signOut, showNotice],
  );
  useEffect(() => {
    const seen = (error: unknown) => {
      if (isSignedOut(error)) showNotice(SESSION_ENDED);
      if (isSignedOut(error) || isForbiddenRole(error)) void refresh();
    };
    const queries = client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') seen(event.action.error);
    });
    const mutations = client.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') seen(event.action.error);
    });
    return () => {
      queries();
      mutations();
    };
  }, [client, refresh, showNotice]);
}

/**
 * Under the owner's rule a staff session without a passkey or second factor is sent to set one up (the
 * staff calls all refuse until then). The session is asked again first: a factor set up on the security
 * page lifts the requirement on the server, and this page may still hold the sign-in's answer.
 */
function useFactorSetup(): 'none' | 'checking' | 'required' {
  const { secondFactorSetupRequired, refresh } = useSession();
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (!secondFactorSetupRequired || asked) return;
    let live = true;
    void refresh().finally(() => {
      if (live) setAsked(true);
    });
    return () => {
      live = false;
    };
  }, [secondFactorSetupRequired, asked, refresh]);
  if (!secondFactorSetupRequired) return 'none';
  return asked ? 'required' : 'checking';
}

export default function StaffLayout() {
  const session = useSession();
  useRefusedCalls();
  const factorSetup = useFactorSetup();
  if (session.status === 'loading') {
    return (
      <p className="staff-loading" role="status">
        Loading…
      </p>
    );
  }
  if (session.status === 'signedOut' || !session.user) {
    return (
      <div className="staff-page staff-page--login">
        <LoginForm requireRole="staff" notice={session.notice} title="Staff sign in" />
      </div>
    );
  }
  const { user } = session;
  const bar = (
    <div className="staff-bar">
      <p className="staff-bar__who">{loggedInAs(user.firstName, user.lastName)}</p>
      <Button variant="secondary" dense onPress={() => void session.signOut()}>
        Sign out
      </Button>
    </div>
  );
  if (user.role !== 'staff') {
    return (
      <div className="staff-page">
        {bar}
        <p role="alert" className="staff-error">
          {NOT_AUTHORISED}
        </p>
      </div>
    );
  }
  // The owner requires a passkey or a second factor and this member has none: the staff pages would all
  // refuse (403 second_factor_setup_required), so go where one is set up, as sign-in does.
  if (factorSetup === 'checking') {
    return (
      <p className="staff-loading" role="status">
        Loading…
      </p>
    );
  }
  if (factorSetup === 'required') {
    return <Navigate to="/account/security" replace state={{ factorSetup: true }} />;
  }
  const pages = staffPagesFor(user.staffRoles ?? []);
  return (
    <div className="staff-page">
      {bar}
      <nav className="staff-nav" aria-label="Staff">
        {pages.map((page) => (
          <NavLink key={page.path} to={`/${page.path}`} end>
            {page.label}
          </NavLink>
        ))}
      </nav>
      <Suspense fallback={<p role="status">Loading…</p>}>
        <Outlet />
      </Suspense>
    </div>
  );
}

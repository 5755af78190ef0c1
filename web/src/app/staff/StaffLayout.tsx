/**
 * The staff area's one frame, the layout route of every staff page (SPEC §2 'Admin page', §6): a login
 * form while signed out (staff accounts only), 'You are not authorised to use this page.' for a client
 * account, otherwise 'Logged in as' with first and last name, a sign-out button and the staff navigation
 * above the page. It stays mounted while staff move between pages; the site layout gives the one `<main>`.
 */
import { loggedInAs } from '@avp/shared';
import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import { LoginForm } from '../../features/account';
import { useSession } from '../../lib/session';
import { Button } from '../../ui';
import { STAFF_PAGES } from './staffPages';
import './staff.css';

export const NOT_AUTHORISED = 'You are not authorised to use this page.';

export default function StaffLayout() {
  const session = useSession();
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
  return (
    <div className="staff-page">
      {bar}
      <nav className="staff-nav" aria-label="Staff">
        {STAFF_PAGES.map((page) => (
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

/**
 * Every staff page's frame (SPEC §2 'Admin page', §6), mounted once as the layout route of all staff pages:
 * a login form while signed out (staff accounts only), 'You are not authorised to use this page.' for a
 * client account, otherwise 'Logged in as' with first and last name, a sign-out button and the staff
 * navigation above the page. The site layout already gives the page its one `<main>`.
 */
import { loggedInAs } from '@avp/shared';
import { Suspense, type ReactNode } from 'react';
import { NavLink, Outlet } from 'react-router';
import { LoginForm } from '../account';
import { useSession } from '../../lib/session';
import { Button } from '../../ui';
import './admin.css';

export const NOT_AUTHORISED = 'You are not authorised to use this page.';

const LINKS = [
  { to: '/manage_order_forms', label: 'Stores' },
  { to: '/staff/products', label: 'Products and prices' },
  { to: '/staff/orders', label: 'Orders' },
  { to: '/staff/pull-sheet', label: 'Pull sheet' },
  { to: '/staff/audit', label: 'Audit log' },
  { to: '/staff/payment-test', label: 'Payment test' },
  { to: '/staff/uploads', label: 'Uploads' },
];

export function StaffShell({ children }: { children: ReactNode }) {
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
        {LINKS.map((link) => (
          <NavLink key={link.to} to={link.to} end>
            {link.label}
          </NavLink>
        ))}
      </nav>
      {children}
    </div>
  );
}

/** The layout route of the staff pages: the frame stays mounted while staff move between pages. */
export default function StaffLayout() {
  return (
    <StaffShell>
      <Suspense fallback={<p role="status">Loading…</p>}>
        <Outlet />
      </Suspense>
    </StaffShell>
  );
}

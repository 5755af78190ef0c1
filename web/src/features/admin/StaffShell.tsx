/**
 * Every staff page's frame (SPEC §2 'Admin page', §6): a login form while signed out (staff accounts only),
 * 'You are not authorised to use this page.' for a client account, otherwise 'Logged in as' with first and
 * last name, a sign-out button and the small staff navigation above the page.
 */
import { loggedInAs } from '@avp/shared';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
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
      <main className="staff-page staff-page--login">
        <LoginForm requireRole="staff" notice={session.notice} title="Staff sign in" />
      </main>
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
      <main className="staff-page">
        {bar}
        <p role="alert" className="staff-error">
          {NOT_AUTHORISED}
        </p>
      </main>
    );
  }
  return (
    <main className="staff-page">
      {bar}
      <nav className="staff-nav" aria-label="Staff">
        {LINKS.map((link) => (
          <NavLink key={link.to} to={link.to} end>
            {link.label}
          </NavLink>
        ))}
      </nav>
      {children}
    </main>
  );
}

import { STAFF_ROUTES } from '@avp/shared';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, fakeSession, SIGNED_OUT, signedInAnswer, type FakeRoute } from '../../test/fakeApi';
import { App } from '../App';
import { NOT_AUTHORISED } from './StaffLayout';

let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => api?.restore());

/** Every staff path behind the sign-in gate, with a made-up order id (the invitation link is open). */
const STAFF_PATHS = STAFF_ROUTES.filter((pattern) => pattern !== '/staff/invite').map((pattern) =>
  pattern.replace(':orderId', 'ord_1'),
);

async function renderAt(path: string, route: FakeRoute) {
  api = fakeApi(route);
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[path]}>
        <App />
      </MemoryRouter>,
    );
  });
}

const TIMEOUT = { timeout: 10_000 };

/** An empty inbox page as GET /api/uploads/inbox answers it since #31 (grouped and counted). */
const EMPTY_INBOX = {
  page: 1,
  pageSize: 50,
  total: 0,
  pageCount: 0,
  counts: { files: 0, accepted: 0, needsNewVersion: 0, new: 0 },
  groups: [],
  events: [],
};

describe('the staff area: one layout for every staff route (SPEC §2 Admin page, §6)', () => {
  it.each(STAFF_PATHS)(
    'signed out, %s shows the staff sign-in form and nothing of the page',
    async (path) => {
      await renderAt(path, ({ path: called }) => (called === '/api/session' ? SIGNED_OUT : undefined));
      expect(await screen.findByRole('form', { name: 'Staff sign in' }, TIMEOUT)).toBeTruthy();
      expect(screen.queryByRole('navigation', { name: 'Staff' })).toBeNull();
      expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
      // The staff form: no links to the client's forgot-password and registration pages.
      expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
    },
    15_000,
  );

  it.each(STAFF_PATHS)(
    'a signed-in client sees who is signed in and the same refusal on %s',
    async (path) => {
      const session = fakeSession({ role: 'client' });
      await renderAt(path, ({ path: called }) => (called === '/api/session' ? session() : undefined));
      expect((await screen.findByRole('alert', {}, TIMEOUT)).textContent).toBe(NOT_AUTHORISED);
      expect(screen.getByText('Logged in as Ada Lovelace')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
      expect(screen.queryByRole('form', { name: 'Staff sign in' })).toBeNull();
      expect(screen.queryByRole('navigation', { name: 'Staff' })).toBeNull();
      expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    },
    15_000,
  );

  it('keeps the spec’s refusal text', () => {
    expect(NOT_AUTHORISED).toBe('You are not authorised to use this page.');
  });

  it('gives an owner one navigation with every staff page, the uploads inbox included', async () => {
    const session = fakeSession({ role: 'staff', firstName: 'Ada', lastName: 'Staffer' });
    await renderAt('/staff/uploads', ({ path }) => {
      if (path === '/api/session') return session();
      if (path.startsWith('/api/uploads/inbox')) return { status: 200, body: EMPTY_INBOX };
      return undefined;
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Uploads inbox' }, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(screen.getByText('Logged in as Ada Staffer')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Staff' });
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual([
      ['Stores', '/manage_order_forms'],
      ['Products and prices', '/staff/products'],
      ['Orders', '/staff/orders'],
      ['Pull sheet', '/staff/pull-sheet'],
      ['Stock', '/staff/stock'],
      ['Overview', '/staff/overview'],
      ['Audit log', '/staff/audit'],
      ['Payment test', '/staff/payment-test'],
      ['Uploads', '/staff/uploads'],
      ['Upload events', '/staff/upload-events'],
      ['Staff', '/staff/members'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Uploads' }).getAttribute('aria-current')).toBe('page');
    // Every staff route but the /staff redirect and the order detail has its link.
    const linked = new Set(links.map(([, href]) => href));
    expect(STAFF_ROUTES.filter((route) => !linked.has(route))).toEqual([
      '/staff',
      '/staff/orders/:orderId',
      '/staff/invite',
    ]);
  }, 20_000);

  it('signs staff in where they are and shows that page in the layout', async () => {
    let session: FakeRoute = () => SIGNED_OUT;
    await renderAt('/staff/uploads', (call) => {
      if (call.path === '/api/session') return session(call);
      if (call.path === '/api/auth/login') {
        const staff = { role: 'staff' as const, firstName: 'Ada', lastName: 'Staffer' };
        session = fakeSession(staff);
        return signedInAnswer(staff);
      }
      if (call.path.startsWith('/api/uploads/inbox')) return { status: 200, body: EMPTY_INBOX };
      return undefined;
    });
    const form = await screen.findByRole('form', { name: 'Staff sign in' }, TIMEOUT);
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText(/^Email/), 'ada@example.com');
    await user.type(within(form).getByLabelText(/^Password/), 'Difference Engine 1843');
    await user.click(within(form).getByRole('button', { name: 'Sign in' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Uploads inbox' }, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(screen.getByText('Logged in as Ada Staffer')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Staff sign in' })).toBeNull();
    const login = api?.calls.find((call) => call.path === '/api/auth/login');
    expect(login?.body).toMatchObject({ email: 'ada@example.com', requireRole: 'staff' });
  }, 20_000);
});

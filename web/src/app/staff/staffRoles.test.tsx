import type { StaffRole } from '@avp/shared';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, fakeSession, type FakeRoute } from '../../test/fakeApi';
import { App } from '../App';
import { NO_ACCESS, neededRoleSentence } from './ForbiddenPage';
import { staffPagesFor } from './staffPages';

let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => api?.restore());

const labels = (roles: StaffRole[]) => staffPagesFor(roles).map((page) => page.label);
const TIMEOUT = { timeout: 15_000 };

async function renderAs(roles: StaffRole[], path: string, route: FakeRoute = () => undefined) {
  const session = fakeSession({ role: 'staff', staffRoles: roles });
  api = fakeApi((call) => (call.path === '/api/session' ? session() : route(call)));
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[path]}>
        <App />
      </MemoryRouter>,
    );
  });
}

const navLinks = () =>
  within(screen.getByRole('navigation', { name: 'Staff' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('the staff navigation follows the roles (#33)', () => {
  it('lists only the pages each role may open', () => {
    expect(labels(['finance'])).toEqual(['Orders', 'Pull sheet', 'Overview', 'Payment test']);
    expect(labels(['media'])).toEqual(['Overview', 'Uploads', 'Upload events']);
    expect(labels(['store_manager'])).toEqual([
      'Stores',
      'Products and prices',
      'Pull sheet',
      'Stock',
      'Overview',
    ]);
    expect(labels(['finance', 'media'])).toEqual([
      'Orders',
      'Pull sheet',
      'Overview',
      'Payment test',
      'Uploads',
      'Upload events',
    ]);
    expect(labels(['owner'])).toContain('Staff');
    expect(labels(['owner'])).toContain('Audit log');
    expect(labels(['owner'])).toHaveLength(11);
    expect(labels([])).toEqual([]);
  });

  it('names the role a page needs', () => {
    expect(neededRoleSentence('stores')).toBe('It needs the Store manager role.');
    expect(neededRoleSentence('pullSheet')).toBe('It needs the Store manager or Finance role.');
    expect(neededRoleSentence('staffManagement')).toBe('It needs the Owner role.');
    expect(neededRoleSentence(null)).toBeNull();
  });

  it('shows a Finance member their pages only, and a 403 page for Stores typed in', async () => {
    await renderAs(['finance'], '/manage_order_forms');
    expect(await screen.findByRole('heading', { level: 1, name: NO_ACCESS }, TIMEOUT)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'It needs the Store manager role. Ask an owner of your team if you need access.',
    );
    expect(screen.getByRole('link', { name: 'Back to Orders' }).getAttribute('href')).toBe('/staff/orders');
    expect(navLinks()).toEqual(['Orders', 'Pull sheet', 'Overview', 'Payment test']);
    // The page itself never loaded: no store list was asked for.
    expect(api?.calls.filter((call) => call.path !== '/api/session')).toEqual([]);
  }, 20_000);

  it('gives the Staff page to owners only', async () => {
    await renderAs(['media'], '/staff/members');
    expect(await screen.findByRole('heading', { level: 1, name: NO_ACCESS }, TIMEOUT)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('It needs the Owner role.');
    expect(screen.getByRole('link', { name: 'Back to Overview' })).toBeTruthy();
  }, 20_000);

  it('sends /staff to the first page the roles allow', async () => {
    await renderAs(['media'], '/staff');
    expect(await screen.findByRole('navigation', { name: 'Staff' }, TIMEOUT)).toBeTruthy();
    expect(navLinks()).toEqual(['Overview', 'Uploads', 'Upload events']);
    await waitFor(
      () =>
        expect(
          within(screen.getByRole('navigation', { name: 'Staff' }))
            .getByRole('link', { name: 'Overview' })
            .getAttribute('aria-current'),
        ).toBe('page'),
      TIMEOUT,
    );
  }, 20_000);

  it('shows the 403 page when a call is refused because the roles changed while the page was open', async () => {
    // Finance when the page opens; by the time the orders are asked for, an owner has made them Media.
    const before = fakeSession({ role: 'staff', staffRoles: ['finance'] });
    const after = fakeSession({ role: 'staff', staffRoles: ['media'] });
    let changed = false;
    api = fakeApi((call) => {
      if (call.path === '/api/session') return changed ? after() : before();
      if (call.path.startsWith('/api/staff/')) {
        changed = true;
        return {
          status: 403,
          body: { error: { code: 'forbidden_role', message: 'Your role does not allow this.' } },
        };
      }
      return undefined;
    });
    await act(async () => {
      render(
        <MemoryRouter initialEntries={['/staff/orders']}>
          <App />
        </MemoryRouter>,
      );
    });
    expect(await screen.findByRole('heading', { level: 1, name: NO_ACCESS }, TIMEOUT)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('It needs the Finance role.');
    expect(screen.getByRole('link', { name: 'Back to Overview' })).toBeTruthy();
    expect(navLinks()).toEqual(['Overview', 'Uploads', 'Upload events']);
  }, 20_000);
});

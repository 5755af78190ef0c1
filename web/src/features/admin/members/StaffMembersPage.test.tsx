import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, fakeSession } from '../../../test/fakeApi';
import { App } from '../../../app/App';

let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => api?.restore());

const TIMEOUT = { timeout: 15_000 };
const OWNER = {
  id: 1,
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  roles: ['owner'],
  lastSignInAt: null,
  secondFactor: { passkeys: 1, totp: false },
  deactivatedAt: null,
};

describe('the Staff page asks for a fresh sign-in and sends the change again (#33)', () => {
  it('invites after "Confirm it\'s you", and only then', async () => {
    const session = fakeSession({ role: 'staff', staffRoles: ['owner'] });
    let fresh = false;
    api = fakeApi((call) => {
      if (call.path === '/api/session') return session();
      if (call.path === '/api/staff/members') return { status: 200, body: { members: [OWNER] } };
      if (call.path === '/api/staff/invitations' && call.method === 'GET')
        return { status: 200, body: { invitations: [] } };
      if (call.path === '/api/staff/invitations' && call.method === 'POST') {
        if (!fresh)
          return {
            status: 403,
            body: { error: { code: 'fresh_sign_in_required', message: 'Please sign in again to continue.' } },
          };
        return { status: 201, body: { invitation: { id: 5 } } };
      }
      if (call.path === '/api/accounts/reauthenticate') {
        fresh = (call.body as { password?: string }).password === 'Difference Engine 1843';
        return fresh
          ? { status: 200, body: { freshUntil: new Date().toISOString() } }
          : { status: 401, body: { error: { code: 'invalid_credentials', message: 'Wrong password.' } } };
      }
      return undefined;
    });
    await act(async () => {
      render(
        <MemoryRouter initialEntries={['/staff/members']}>
          <App />
        </MemoryRouter>,
      );
    });
    const user = userEvent.setup();
    expect(await screen.findByText('1 passkey', {}, TIMEOUT)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Invite a staff member' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite a staff member' });
    await user.type(within(dialog).getByRole('textbox', { name: /^E-mail/ }), 'finn@example.com');
    await user.click(within(dialog).getByRole('checkbox', { name: /^Finance/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));

    const confirm = await screen.findByRole('form', { name: "Confirm it's you" }, TIMEOUT);
    await user.type(within(confirm).getByLabelText(/^Password/), 'Difference Engine 1843');
    await user.click(within(confirm).getByRole('button', { name: /^Confirm/ }));

    expect((await screen.findByText(/^Invitation sent/, {}, TIMEOUT)).textContent).toBe(
      'Invitation sent to finn@example.com as Finance.',
    );
    const sent = api.calls.filter((call) => call.path === '/api/staff/invitations' && call.method === 'POST');
    expect(sent.map((call) => call.body)).toEqual([
      { email: 'finn@example.com', roles: ['finance'] },
      { email: 'finn@example.com', roles: ['finance'] },
    ]);
  }, 30_000);
});

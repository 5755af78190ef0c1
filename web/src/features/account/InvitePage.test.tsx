import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, SIGNED_OUT } from '../../test/fakeApi';
import { App } from '../../app/App';

let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => api?.restore());

const EXPIRED =
  'This invitation has expired: links work for 72 hours. Ask the owner who invited you to send a new one.';

describe('the staff invitation page (#33)', () => {
  it('says an expired link is expired, sends the token in the body, and shows no form', async () => {
    api = fakeApi((call) => {
      if (call.path === '/api/session') return SIGNED_OUT;
      if (call.path === '/api/staff-invitations/lookup')
        return { status: 410, body: { error: { code: 'invitation_expired', message: EXPIRED } } };
      return undefined;
    });
    await act(async () => {
      render(
        <MemoryRouter initialEntries={['/staff/invite#token=tok_abc123']}>
          <App />
        </MemoryRouter>,
      );
    });
    expect((await screen.findByRole('alert', {}, { timeout: 15_000 })).textContent).toBe(EXPIRED);
    expect(screen.getByRole('heading', { level: 1, name: 'Join the staff' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Join the staff' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Staff sign in' })).toBeNull();
    const lookup = api.calls.find((call) => call.path === '/api/staff-invitations/lookup');
    expect(lookup?.body).toEqual({ token: 'tok_abc123' });
  }, 20_000);

  it('shows the address and roles before asking for a password', async () => {
    api = fakeApi((call) => {
      if (call.path === '/api/session') return SIGNED_OUT;
      if (call.path === '/api/staff-invitations/lookup')
        return {
          status: 200,
          body: {
            invitation: {
              email: 'finn@example.com',
              roles: ['finance', 'media'],
              invitedBy: 'Olive Owner',
              expiresAt: new Date().toISOString(),
            },
          },
        };
      return undefined;
    });
    await act(async () => {
      render(
        <MemoryRouter initialEntries={['/staff/invite#token=tok_abc123']}>
          <App />
        </MemoryRouter>,
      );
    });
    expect(await screen.findByRole('form', { name: 'Join the staff' }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getAllByRole('definition').map((item) => item.textContent)).toEqual([
      'finn@example.com',
      'Finance and Media',
    ]);
    expect(
      screen.getByText('Olive Owner invited you to the staff pages. Choose your password to finish.'),
    ).toBeTruthy();
  }, 20_000);
});

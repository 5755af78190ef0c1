import { LOGIN_EMAIL_REQUIRED, LOGIN_FAILED, LOGIN_PASSWORD_REQUIRED } from '@avp/shared';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, SIGNED_OUT, signedInAnswer, type FakeRoute } from '../../test/fakeApi';
import { SessionProvider, useSession } from '../../lib/session';
import LoginForm, { type LoginFormProps } from './LoginForm';

let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => api?.restore());

function Who() {
  const { user } = useSession();
  return <p data-testid="who">{user ? `${user.firstName} ${user.role}` : 'nobody'}</p>;
}

function renderForm(route: FakeRoute, props: LoginFormProps = {}) {
  api = fakeApi((call) => (call.path === '/api/session' ? SIGNED_OUT : route(call)));
  render(
    <MemoryRouter>
      <SessionProvider>
        <LoginForm {...props} />
        <Who />
      </SessionProvider>
    </MemoryRouter>,
  );
  return api;
}

async function fillIn(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText(/^Email/), email);
  if (password) await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginForm (SPEC §5 Login, §8)', () => {
  it('needs an e-mail and a password, with the spec’s texts, before asking the server', async () => {
    const calls = renderForm(() => undefined).calls;
    await fillIn('', '');
    expect(await screen.findByText(LOGIN_EMAIL_REQUIRED)).toBeTruthy();
    expect(screen.getByText(LOGIN_PASSWORD_REQUIRED)).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/auth/login')).toEqual([]);
  });

  it('shows the spec’s text on wrong credentials and clears the password, keeping the e-mail', async () => {
    renderForm((call) =>
      call.path === '/api/auth/login'
        ? { status: 401, body: { error: { code: 'invalid_credentials', message: LOGIN_FAILED } } }
        : undefined,
    );
    await fillIn('ada@example.com', 'wrong password');
    expect((await screen.findByRole('alert')).textContent).toBe(LOGIN_FAILED);
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('ada@example.com');
    expect(screen.getByTestId('who').textContent).toBe('nobody');
  });

  it('signs in: the session knows the user and onSignedIn is called', async () => {
    const onSignedIn = vi.fn();
    const { calls } = renderForm(
      (call) => (call.path === '/api/auth/login' ? signedInAnswer({ firstName: 'Ada' }) : undefined),
      { onSignedIn },
    );
    await fillIn('ada@example.com', 'Difference Engine 1843');
    await waitFor(() =>
      expect(onSignedIn).toHaveBeenCalledWith(expect.objectContaining({ email: 'ada@example.com' })),
    );
    expect(screen.getByTestId('who').textContent).toBe('Ada client');
    expect(calls.find((call) => call.path === '/api/auth/login')?.body).toEqual({
      email: 'ada@example.com',
      password: 'Difference Engine 1843',
    });
  });

  it('on a staff page, asks for a staff account and shows the refusal for a client one', async () => {
    const { calls } = renderForm(
      (call) =>
        call.path === '/api/auth/login'
          ? {
              status: 403,
              body: { error: { code: 'forbidden', message: 'You are not authorised to use this page.' } },
            }
          : undefined,
      { requireRole: 'staff' },
    );
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
    await fillIn('ada@example.com', 'Difference Engine 1843');
    expect((await screen.findByRole('alert')).textContent).toBe('You are not authorised to use this page.');
    expect(calls.find((call) => call.path === '/api/auth/login')?.body).toMatchObject({
      requireRole: 'staff',
    });
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
  });
});

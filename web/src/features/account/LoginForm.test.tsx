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
  it('asks for the second step when the password is right and the account has two-step sign-in (#33)', async () => {
    const onSignedIn = vi.fn();
    const { calls } = renderForm(
      (call) => {
        if (call.path === '/api/auth/login') {
          return {
            status: 401,
            body: {
              error: { code: 'second_factor_required', message: 'Enter the code.' },
              secondFactor: {
                pendingToken: 'pending-1',
                expiresInSeconds: 300,
                methods: { totp: true, recoveryCode: true, passkey: false },
              },
            },
          };
        }
        if (call.path === '/api/auth/second-factor') {
          const { code } = call.body as { code: string };
          return code === '123456'
            ? signedInAnswer({ firstName: 'Grace', role: 'staff' })
            : {
                status: 400,
                body: {
                  error: {
                    code: 'code_not_accepted',
                    message: 'That code is not right, or it has already been used.',
                    fields: { code: 'That code is not right, or it has already been used.' },
                  },
                },
              };
        }
        return undefined;
      },
      { onSignedIn },
    );
    await fillIn('grace@example.com', 'Staff passphrase 9');
    expect(await screen.findByRole('heading', { name: 'Two-step sign-in' })).toBeTruthy();
    expect(screen.getByTestId('who').textContent).toBe('nobody');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('That code is not right, or it has already been used.')).toBeTruthy();
    await user.clear(screen.getByLabelText(/^Code/));
    await user.type(screen.getByLabelText(/^Code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(screen.getByTestId('who').textContent).toBe('Grace staff');
    expect(calls.filter((call) => call.path === '/api/auth/second-factor').map((call) => call.body)).toEqual([
      { pendingToken: 'pending-1', code: '000000' },
      { pendingToken: 'pending-1', code: '123456' },
    ]);
  });
});

describe('LoginForm passkeys (#33)', () => {
  it('the button pressed while the autofill request waits for its challenge is not cancelled by it', async () => {
    // The browser at its boundary: WebAuthn with autofill, whose requests stay with the person until a
    // newer request cancels them (their signal).
    const gets: { mediation?: string; aborted: boolean }[] = [];
    vi.stubGlobal(
      'PublicKeyCredential',
      Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => true }),
    );
    Object.defineProperty(navigator, 'credentials', {
      configurable: true,
      value: {
        get: (options: { mediation?: string; signal?: AbortSignal }) =>
          new Promise((_resolve, reject) => {
            const request = { mediation: options.mediation, aborted: false };
            gets.push(request);
            options.signal?.addEventListener('abort', () => {
              request.aborted = true;
              reject(new DOMException('A newer request took its place.', 'AbortError'));
            });
          }),
      },
    });
    try {
      // The autofill's challenge comes back late (a slow venue network); the button's at once.
      let releaseAutofill!: () => void;
      const autofillHeld = new Promise<void>((resolve) => (releaseAutofill = resolve));
      let challenges = 0;
      renderForm(async (call) => {
        if (call.path !== '/api/auth/passkey-options') return undefined;
        challenges++;
        if (challenges === 1) await autofillHeld;
        return { status: 200, body: { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', allowCredentials: [] } };
      });
      await waitFor(() => expect(challenges).toBe(1));
      await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
      await waitFor(() => expect(gets).toHaveLength(1));
      releaseAutofill();
      await waitFor(() => expect(challenges).toBe(2));
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The autofill asked the browser nothing, and the button's request still waits for the person.
      expect(gets).toEqual([{ mediation: undefined, aborted: false }]);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByRole('button', { name: 'Waiting for the passkey…' })).toBeTruthy();
    } finally {
      Reflect.deleteProperty(navigator, 'credentials');
    }
  });
});

import {
  CURRENT_PASSWORD_REQUIRED,
  CURRENT_PASSWORD_WRONG,
  EMAIL_ALREADY_EXISTS,
  FORGOT_PASSWORD_EMAIL_REQUIRED,
  PASSWORDS_MUST_MATCH,
  REGISTRATION_COMPANY_REQUIRED,
  REGISTRATION_FIRST_NAME_REQUIRED,
  REGISTRATION_INVALID_EMAIL,
  REGISTRATION_INVALID_PHONE,
  REGISTRATION_LAST_NAME_REQUIRED,
  NAME_MAX,
  tooManyCharacters,
} from '@avp/shared';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, fakeSession, SIGNED_OUT, type FakeRoute } from '../../test/fakeApi';
import { SessionProvider } from '../../lib/session';
import { setupUser } from '../../ui/test-utils';
import RegisterPage, { ACCOUNT_UPDATED } from './RegisterPage';

let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  api?.restore();
  vi.useRealTimers();
});

function Hash() {
  return <p data-testid="hash">{useLocation().hash}</p>;
}

function renderAt(path: string, route: FakeRoute) {
  api = fakeApi(route);
  render(
    <MemoryRouter initialEntries={[path]}>
      <SessionProvider>
        <Routes>
          <Route path="/register" element={<RegisterPage />} />
        </Routes>
        <Hash />
      </SessionProvider>
    </MemoryRouter>,
  );
  return api;
}

const signedOut: FakeRoute = (call) => (call.path === '/api/session' ? SIGNED_OUT : undefined);

async function fill(user: ReturnType<typeof userEvent.setup>, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    await user.type(screen.getByLabelText(new RegExp(`^${label}`)), value);
  }
}

describe('/register signed out: registration (SPEC §5)', () => {
  it('shows the spec’s message for every empty field', async () => {
    const user = userEvent.setup();
    const { calls } = renderAt('/register', signedOut);
    await user.click(await screen.findByRole('button', { name: 'Register' }));
    for (const message of [
      REGISTRATION_INVALID_EMAIL,
      REGISTRATION_FIRST_NAME_REQUIRED,
      REGISTRATION_LAST_NAME_REQUIRED,
      REGISTRATION_COMPANY_REQUIRED,
      REGISTRATION_INVALID_PHONE,
      PASSWORDS_MUST_MATCH,
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(calls.some((call) => call.path === '/api/auth/register')).toBe(false);
  });

  it('a taken e-mail shows “This email already exists. Forgot Password?”, whose link opens the dialog', async () => {
    const user = userEvent.setup();
    const { calls } = renderAt('/register', (call) => {
      if (call.path === '/api/auth/register') {
        return {
          status: 409,
          body: {
            error: {
              code: 'email_taken',
              message: EMAIL_ALREADY_EXISTS,
              fields: { email: EMAIL_ALREADY_EXISTS },
            },
          },
        };
      }
      return signedOut(call);
    });
    await screen.findByRole('button', { name: 'Register' });
    await fill(user, {
      Email: 'ada@example.com',
      'First name': 'Ada',
      'Last name': 'Lovelace',
      Company: 'Engines',
      Phone: '(555) 123-4567',
      Password: 'Difference Engine 1843',
      'Confirm password': 'Difference Engine 1843',
    });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(EMAIL_ALREADY_EXISTS);
    expect(calls.find((call) => call.path === '/api/auth/register')?.body).toMatchObject({
      email: 'ada@example.com',
      firstname: 'Ada',
      password: 'Difference Engine 1843',
    });

    await user.click(within(alert).getByRole('link', { name: 'Forgot Password?' }));
    expect(screen.getByTestId('hash').textContent).toBe('#forgotPassword');
    const dialog = await screen.findByRole('dialog', { name: 'Forgot Password' });
    expect((within(dialog).getByLabelText(/^Email/) as HTMLInputElement).value).toBe('ada@example.com');
  });
});

describe('the forgot-password dialog (SPEC §4, §5, §8)', () => {
  it('opens from /register#forgotPassword and needs a non-empty e-mail', async () => {
    const user = userEvent.setup();
    const { calls } = renderAt('/register#forgotPassword', signedOut);
    const dialog = await screen.findByRole('dialog', { name: 'Forgot Password' });
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(FORGOT_PASSWORD_EMAIL_REQUIRED)).toBeTruthy();
    expect(calls.some((call) => call.path === '/api/auth/forgot-password')).toBe(false);
  });

  it('shows the server’s answer and closes 4 s after success', async () => {
    vi.useFakeTimers();
    const user = setupUser();
    const answer = 'If an account exists for that email address, we have sent it a link.';
    renderAt('/register#forgotPassword', (call) =>
      call.path === '/api/auth/forgot-password'
        ? { status: 200, body: { message: answer } }
        : signedOut(call),
    );
    await act(() => vi.advanceTimersByTimeAsync(0));
    const dialog = screen.getByRole('dialog', { name: 'Forgot Password' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(within(dialog).getByRole('status').textContent).toBe(answer);
    await act(() => vi.advanceTimersByTimeAsync(3_999));
    expect(screen.queryByRole('dialog')).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('hash').textContent).toBe('');
  });

  it('shows the server’s error text', async () => {
    const user = userEvent.setup();
    const message = 'Too many password reset requests. Please wait an hour and try again.';
    renderAt('/register#forgotPassword', (call) =>
      call.path === '/api/auth/forgot-password'
        ? { status: 429, body: { error: { code: 'rate_limited', message } } }
        : signedOut(call),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Forgot Password' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
  });
});

describe('/register signed in: the account update form', () => {
  it('is filled in from the account; an empty password is sent as unchanged', async () => {
    const user = userEvent.setup();
    const account = {
      userid: 1,
      email: 'ada@example.com',
      firstname: 'Ada',
      lastname: 'Lovelace',
      company: 'Engines',
      phone: '(555) 123-4567',
    };
    const session = fakeSession();
    const { calls } = renderAt('/register', (call) => {
      if (call.path === '/api/session') return session();
      if (call.path === '/api/account' && call.method === 'GET') return { status: 200, body: account };
      if (call.path === '/api/account' && call.method === 'PUT') {
        return { status: 200, body: { ...account, company: 'Analytical Engines' } };
      }
      return undefined;
    });
    expect(await screen.findByRole('heading', { name: 'Your Account' })).toBeTruthy();
    const company = await screen.findByLabelText(/^Company/);
    await waitFor(() => expect((company as HTMLInputElement).value).toBe('Engines'));
    await user.clear(company);
    await user.type(company, 'Analytical Engines');
    await user.click(screen.getByRole('button', { name: 'Update account' }));
    expect((await screen.findByRole('status')).textContent).toBe(ACCOUNT_UPDATED);
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      email: 'ada@example.com',
      firstname: 'Ada',
      lastname: 'Lovelace',
      company: 'Analytical Engines',
      phone: '(555) 123-4567',
      password: '',
      confirmPassword: '',
      currentPassword: '',
    });
  });

  it('a new e-mail needs the current password, and shows the server’s verdict on it', async () => {
    const user = userEvent.setup();
    const account = {
      userid: 1,
      email: 'ada@example.com',
      firstname: 'Ada',
      lastname: 'Lovelace',
      company: 'Engines',
      phone: '(555) 123-4567',
    };
    const session = fakeSession();
    const { calls } = renderAt('/register', (call) => {
      if (call.path === '/api/session') return session();
      if (call.path === '/api/account' && call.method === 'GET') return { status: 200, body: account };
      if (call.path === '/api/account' && call.method === 'PUT') {
        return {
          status: 400,
          body: {
            error: {
              code: 'validation_failed',
              message: 'Some fields are missing or invalid.',
              fields: { currentPassword: CURRENT_PASSWORD_WRONG },
            },
          },
        };
      }
      return undefined;
    });
    const email = await screen.findByLabelText(/^Email/);
    await waitFor(() => expect((email as HTMLInputElement).value).toBe('ada@example.com'));
    const current = screen.getByLabelText(/^Current password/);
    expect(current.getAttribute('autocomplete')).toBe('current-password');
    await user.clear(email);
    await user.type(email, 'countess@example.com');
    await user.click(screen.getByRole('button', { name: 'Update account' }));
    expect(await screen.findByText(CURRENT_PASSWORD_REQUIRED)).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.type(current, 'not it at all');
    await user.click(screen.getByRole('button', { name: 'Update account' }));
    expect(await screen.findByText(CURRENT_PASSWORD_WRONG)).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
      email: 'countess@example.com',
      currentPassword: 'not it at all',
    });
  });

  it('shows the bound of a field under it', async () => {
    const user = userEvent.setup();
    const { calls } = renderAt('/register', signedOut);
    await screen.findByRole('button', { name: 'Register' });
    await fill(user, { 'First name': 'x'.repeat(NAME_MAX + 1), 'Last name': 'Lovelace' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText(tooManyCharacters(NAME_MAX))).toBeTruthy();
    expect(calls.some((call) => call.path === '/api/auth/register')).toBe(false);
  });
});

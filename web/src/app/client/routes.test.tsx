import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IE_INCOMPATIBLE } from '../../features/uploads';
import { fakeApi, fakeSession, SIGNED_OUT, type FakeAnswer } from '../../test/fakeApi';
import { App } from '../App';

let api: ReturnType<typeof fakeApi> | undefined;
afterEach(() => {
  api?.restore();
  vi.restoreAllMocks();
});

async function renderAt(path: string, session: () => FakeAnswer) {
  api = fakeApi(({ path: called }) => (called === '/api/session' ? session() : undefined));
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[path]}>
        <App />
      </MemoryRouter>,
    );
  });
}

const TIMEOUT = { timeout: 15_000 };

describe('/client: the account page with the upload utility (SPEC §2 Client pages)', () => {
  it.each(['/client', '/client_test'])(
    'signed out, %s shows the sign-in form and no upload utility',
    async (path) => {
      await renderAt(path, () => SIGNED_OUT);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Client File Upload Utility' }, TIMEOUT),
      ).toBeTruthy();
      expect(await screen.findByRole('form', { name: 'Sign in' }, TIMEOUT)).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Create an account' })).toBeTruthy();
      expect(screen.queryByRole('group', { name: 'What are you uploading?' })).toBeNull();
    },
    20_000,
  );

  it.each(['/client', '/client_test'])(
    'signed in, %s shows who is signed in, then the upload utility',
    async (path) => {
      await renderAt(path, fakeSession({ role: 'client' }));
      expect(await screen.findByRole('group', { name: 'What are you uploading?' }, TIMEOUT)).toBeTruthy();
      expect(screen.getByText(/Logged in as Ada Lovelace/).textContent).toBe(
        'Logged in as Ada Lovelace (ada@example.com)',
      );
      expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
      expect(screen.queryByRole('form', { name: 'Sign in' })).toBeNull();
    },
    20_000,
  );

  it('tells Internet Explorer users the utility is incompatible, signed out too', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko',
    );
    await renderAt('/client', () => SIGNED_OUT);
    expect(await screen.findByText(IE_INCOMPATIBLE, {}, TIMEOUT)).toBeTruthy();
    // The modal dialog hides the page behind it from assistive technology until it is closed.
    expect(await screen.findByRole('form', { name: 'Sign in', hidden: true }, TIMEOUT)).toBeTruthy();
  }, 20_000);

  it('shows no incompatibility dialog to other browsers', async () => {
    await renderAt('/client', () => SIGNED_OUT);
    expect(await screen.findByRole('form', { name: 'Sign in' }, TIMEOUT)).toBeTruthy();
    expect(screen.queryByText(IE_INCOMPATIBLE)).toBeNull();
  }, 20_000);
});

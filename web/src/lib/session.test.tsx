import { SESSION_EXPIRED } from '@avp/shared';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, fakeSession, type FakeAnswer } from '../test/fakeApi';
import { SessionProvider, usePortalSessionCheck, useSession } from './session';

let api: ReturnType<typeof fakeApi> | undefined;
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  api?.restore();
  vi.useRealTimers();
});

function Status({ label }: { label: string }) {
  const { status, user, notice } = useSession();
  return (
    <p data-testid="status">
      {label}: {status}
      {user ? ` ${user.firstName}` : ''}
      {notice ? ` [${notice}]` : ''}
    </p>
  );
}

function PortalPage() {
  usePortalSessionCheck();
  return <Status label="portal" />;
}

/** The server's answer to GET /api/session can be changed during a test. */
function serve(session: () => FakeAnswer) {
  api = fakeApi((call) => {
    if (call.path === '/api/session') return session();
    if (call.path === '/api/auth/logout') return { status: 204 };
    return undefined;
  });
  return api;
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <SessionProvider>
        <Routes>
          <Route path="/" element={<Status label="home" />} />
          <Route path="/client" element={<PortalPage />} />
          <Route path="/client_test" element={<PortalPage />} />
        </Routes>
      </SessionProvider>
    </MemoryRouter>,
  );
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const text = () => screen.getByTestId('status').textContent;
const logouts = () => api?.calls.filter((call) => call.path === '/api/auth/logout').length ?? 0;

describe('session checks (SPEC §4 Authentication, §9)', () => {
  it('asks the server on mount', async () => {
    serve(fakeSession({ firstName: 'Ada' }));
    renderAt('/');
    expect(text()).toBe('home: loading');
    await advance(0);
    expect(text()).toBe('home: signedIn Ada');
  });

  it('marketing pages: every 10 s compares the time since sign-in with the maximum and signs out quietly', async () => {
    const { calls } = serve(fakeSession({}, 60));
    renderAt('/');
    await advance(0);
    await advance(60_000);
    expect(text()).toBe('home: signedIn Ada');
    await advance(10_000);
    expect(text()).toBe('home: signedOut');
    expect(logouts()).toBe(1);
    // Quietly: a local comparison, no server round trip on each tick, and no message.
    expect(calls.filter((call) => call.path === '/api/session')).toHaveLength(1);
  });

  it('portal: asks the server every 30 s; an ended session sends the user to /client with the message', async () => {
    const session = fakeSession();
    let ended = false;
    const { calls } = serve(() => (ended ? { status: 200, body: { user: null, expired: true } } : session()));
    renderAt('/client_test');
    await advance(0);
    expect(text()).toBe('portal: signedIn Ada');
    await advance(30_000);
    expect(calls.filter((call) => call.path === '/api/session')).toHaveLength(2);
    // Ended on the server (say by a password reset) long before its maximum.
    ended = true;
    await advance(29_999);
    expect(text()).toBe('portal: signedIn Ada');
    await advance(1);
    expect(text()).toBe(`portal: signedOut [${SESSION_EXPIRED}]`);
    expect(logouts()).toBe(1);
  });

  it('portal: when the maximum passes, the local check too leads to /client with the message', async () => {
    const { calls } = serve(fakeSession({}, 40));
    renderAt('/client');
    await advance(0);
    await advance(40_000);
    expect(text()).toBe('portal: signedIn Ada');
    // At 50 s the local 10-s check notices, before the next server check (60 s) would.
    await advance(10_000);
    expect(text()).toBe(`portal: signedOut [${SESSION_EXPIRED}]`);
    expect(calls.filter((call) => call.path === '/api/session')).toHaveLength(2);
  });

  it('keeps the session through a failed check (offline) and asks again next time', async () => {
    let offline = false;
    const session = fakeSession();
    api = fakeApi((call) => {
      if (offline) throw new TypeError('Failed to fetch');
      return call.path === '/api/session' ? session() : undefined;
    });
    renderAt('/client');
    await advance(0);
    offline = true;
    await advance(30_000);
    expect(text()).toBe('portal: signedIn Ada');
  });
});

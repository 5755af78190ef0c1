import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, errorMessage, NETWORK_ERROR } from './api';

/** The API client's errors as the screens show them: a server error carries its request id as a reference. */

const ID = '3f1c2a9e-8b7d-4c6e-9f01-23456789abcd';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers })),
  );
}

async function failure(): Promise<unknown> {
  return apiRequest('GET', '/api/account').then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('errorMessage', () => {
  it('ends a server error with its reference, from the body', async () => {
    answer(503, { error: { code: 'database_unavailable', message: 'Try again.', requestId: ID } });
    expect(errorMessage(await failure())).toBe(`Try again. (Reference: ${ID})`);
  });

  it('takes the X-Request-Id header when the body has no id (a legacy call, a 502 page)', async () => {
    answer(500, { error: 'Something broke.', code: 'internal' }, { 'X-Request-Id': ID });
    expect(errorMessage(await failure())).toBe(`Something broke. (Reference: ${ID})`);
  });

  it('shows no reference for a refusal (4xx), nor an id that is not a plain token', async () => {
    answer(409, { error: { code: 'taken', message: 'Taken.', requestId: ID } }, { 'X-Request-Id': ID });
    expect(errorMessage(await failure())).toBe('Taken.');
    answer(500, { error: { code: 'internal', message: 'Oops.', requestId: '<b>x</b> y' } });
    expect(errorMessage(await failure())).toBe('Oops.');
  });

  it('says the server could not be reached when the call never got an answer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(errorMessage(await failure())).toBe(NETWORK_ERROR);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { TOO_MANY_SIGN_INS } from '../src/modules/accounts/index.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const attempt = (app: TestApp) =>
  fetch(`${app.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: app.url },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'Wrong password 1!' }),
  });

describe('SIGN_INS_PER_15_MINUTES_PER_ADDRESS', () => {
  it('sets how many sign-in attempts one address may make per 15 minutes', async () => {
    t = await startTestApp({ env: { SIGN_INS_PER_15_MINUTES_PER_ADDRESS: '2' } });
    expect((await attempt(t)).status).toBe(401);
    expect((await attempt(t)).status).toBe(401);
    const third = await attempt(t);
    expect(third.status).toBe(429);
    expect(((await third.json()) as { error: { message: string } }).error.message).toBe(TOO_MANY_SIGN_INS);
  });
});

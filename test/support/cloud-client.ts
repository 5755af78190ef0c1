import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** The client account the cloud specs sign in with ('Ada Cloud'), made through the API as the portal does. */
export const CLIENT_PASSWORD = 'Difference Engine 1843';

export async function registerClient(baseURL: string, email: string): Promise<void> {
  const res = await fetch(`${baseURL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({
      email,
      firstname: 'Ada',
      lastname: 'Cloud',
      company: 'Analytical Engines',
      phone: '(555) 123-4567',
      password: CLIENT_PASSWORD,
      confirmPassword: CLIENT_PASSWORD,
    }),
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}`);
}

/** Signs in on /client through its form, opening the given upload form. */
export async function signInClient(
  page: Page,
  baseURL: string,
  email: string,
  hash = '#sponsor',
): Promise<void> {
  await page.goto(`${baseURL}/client${hash}`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(CLIENT_PASSWORD);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Logged in as Ada Cloud')).toBeVisible();
}

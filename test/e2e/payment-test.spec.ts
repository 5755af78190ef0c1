import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { createStaff, STAFF_PASSWORD } from '../support/staff-account';

/**
 * SPEC §2 'A payment test page posts a card form to /api/charge.php', against the real server with the
 * built-in test gateway: staff reach it from the staff navigation and see each card's outcome; a client
 * account is turned away.
 */

const PASSWORD = STAFF_PASSWORD;

function text(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('textbox', { name, exact: true });
}

async function fillCard(form: Locator, number: string) {
  await text(form, 'Card number').fill(number);
  await text(form, 'Expiry (MM / YY)').fill('12 / 40');
  await text(form, 'CVC').fill('123');
  await form.getByRole('button', { name: 'Charge test card' }).click();
}

test.describe('the staff payment test page', () => {
  test('staff charge test cards and read each outcome', async ({ page }) => {
    const email = `payment-test-${Date.now()}@example.com`;
    createStaff(email, 'Tester');
    await page.goto('/manage_order_forms');
    const signIn = page.getByRole('form', { name: 'Staff sign in' });
    await text(signIn, 'Email').fill(email);
    await text(signIn, 'Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Logged in as Ada Tester')).toBeVisible();

    await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Payment test' }).click();
    await expect(page).toHaveURL(/\/staff\/payment-test$/);
    await expect(page.getByRole('heading', { name: 'Payment test' })).toBeVisible();

    const form = page.getByRole('form', { name: 'Payment test' });
    await text(form, 'Amount (USD)').fill('2.50');
    await fillCard(form, '4242 4242 4242 4242');
    await expect(page.getByRole('status').filter({ hasText: 'Charged' })).toHaveText(
      /^Charged \$2\.50 to Visa ending in 4242 \(tgch_[0-9a-f]+\)\.$/,
    );

    await fillCard(form, '4000 0000 0000 0002');
    await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
    await expect(page.getByRole('status').filter({ hasText: 'Charged' })).toHaveCount(0);

    await fillCard(form, '4242 4242 4242 424');
    await expect(form.getByText('Your card number is incomplete.')).toBeVisible();

    // Each try is in the audit log, as a sentence.
    await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Audit log' }).click();
    await expect(page.getByText(/^Payment test: /)).toHaveCount(3);
    await expect(page.getByText('Payment test: charged $2.50 on Visa ending in 4242.')).toBeVisible();
    await expect(page.getByText('Payment test: $2.50 refused (card declined).')).toBeVisible();
  });

  test('the expiry is formatted as the store formats it: 1229 is accepted as 12 / 29 (issue 29 #16)', async ({
    page,
  }) => {
    const email = `payment-expiry-${Date.now()}@example.com`;
    createStaff(email, 'Tester');
    await page.goto('/staff/payment-test');
    const signIn = page.getByRole('form', { name: 'Staff sign in' });
    await text(signIn, 'Email').fill(email);
    await text(signIn, 'Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign in', exact: true }).click();
    const form = page.getByRole('form', { name: 'Payment test' });
    await text(form, 'Card number').pressSequentially('4242424242424242');
    await expect(text(form, 'Card number')).toHaveValue('4242 4242 4242 4242');
    await text(form, 'Expiry (MM / YY)').pressSequentially('1229');
    await expect(text(form, 'Expiry (MM / YY)')).toHaveValue('12 / 29');
    // A backspace over the separator is not undone by the formatter.
    await text(form, 'Expiry (MM / YY)').press('Backspace');
    await text(form, 'Expiry (MM / YY)').press('Backspace');
    await expect(text(form, 'Expiry (MM / YY)')).toHaveValue('12');
    await text(form, 'Expiry (MM / YY)').pressSequentially('29');
    await text(form, 'CVC').pressSequentially('123');
    await form.getByRole('button', { name: 'Charge test card' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Charged' })).toHaveText(
      /^Charged \$1\.00 to Visa ending in 4242/,
    );
    await expect(form.getByText("Your card's expiration date is incomplete.")).toHaveCount(0);
  });

  test('a client account is turned away', async ({ page, baseURL }) => {
    const registered = await page.request.post('/api/auth/register', {
      headers: { origin: baseURL! },
      data: {
        email: `client-${Date.now()}@example.com`,
        firstname: 'Cleo',
        lastname: 'Client',
        company: 'Acme',
        phone: '(555) 123-4567',
        password: 'Difference Engine 1843',
        confirmPassword: 'Difference Engine 1843',
      },
    });
    expect(registered.status()).toBe(201);
    await page.goto('/staff/payment-test');
    await expect(page.getByRole('alert')).toHaveText('You are not authorised to use this page.');
    await expect(page.getByRole('form', { name: 'Payment test' })).toHaveCount(0);
  });
});

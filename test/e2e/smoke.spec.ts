import { expect, test } from '../support/fixtures';

test.describe('smoke: the shell served by the real server', () => {
  test('the home page renders the splash with its three panels', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 2, name: 'Creative Services' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Event Production' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Planner Resources' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()));
  });

  test('an unknown route answers 404 and shows the not-found page', async ({ page }) => {
    const response = await page.goto('/this/page/does-not-exist');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sorry, Page Not Found.');
  });

  test('navigation scrolls back to the top', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 500 });
    await page.goto('/');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('the API health check reports ok on SQLite', async ({ request }) => {
    const res = await request.get('/api/health');
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', db: 'sqlite', storage: 'local' });
  });
});

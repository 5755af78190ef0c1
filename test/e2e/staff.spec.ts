import { readFileSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import {
  formatPrice,
  NOTHING_FOR_SALE,
  PAGE_NOT_FOUND,
  SHOW_ACTIVE,
  STORE_DELETE_CONFIRM,
  STORE_LIST_ACTIVE_TITLE,
  STORE_LIST_ARCHIVED_TITLE,
  storeImageUnknown,
} from '@avp/shared';
import { expect, test } from '../support/fixtures';
import { createStaff, STAFF_PASSWORD } from '../support/staff-account';

/**
 * The staff screens end to end against the real server: the store manager of SPEC §2 (new store,
 * the exhibitor selector, deactivate, archive, unarchive, delete with the spec's confirmation), a product and
 * a price edited here as the store shows them, an order paid with the test gateway with its lines, the CSV
 * export, and the audit log of these changes.
 */

/** A 1×1 PNG, small enough to upload as a store image or a product picture. */
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PASSWORD = STAFF_PASSWORD;

function text(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('textbox', { name, exact: true });
}

async function signInAsStaff(page: Page, email: string, path = '/manage_order_forms') {
  await page.goto(path);
  const form = page.getByRole('form', { name: 'Staff sign in' });
  await text(form, 'Email').fill(email);
  await text(form, 'Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Logged in as Ada Staffer')).toBeVisible();
}

function typed(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return `${m}/${d}/${y}`;
}

function row(page: Page, name: string): Locator {
  return page.getByRole('row').filter({ hasText: name });
}

/** An exhibitor's order through the API with the test gateway's 4242 card, as the payment page makes it. */
async function placeOrder(request: APIRequestContext, baseURL: string, productId: number) {
  const headers = { origin: baseURL };
  const store = (await (await request.get('/api/stores/demo-expo')).json()) as {
    store: { start_date: string; end_date: string };
  };
  const cart = [{ productId, count: 3 }];
  const created = (await (
    await request.post('/api/stores/demo-expo/payment-intents', { data: { cart }, headers })
  ).json()) as {
    orderId: string;
    token: string;
  };
  const orderHeaders = { ...headers, 'x-order-token': created.token };
  const customer = {
    company: 'Staff Test Co',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@staff-test.example',
    phone: '(312) 555-0101',
    address: '1 Main St',
    city: 'Chicago',
    state: 'IL',
    zip: '60607',
    onsiteFirstName: 'Alan',
    onsiteLastName: 'Turing',
    onsiteEmail: 'alan@staff-test.example',
    onsitePhone: '312-555-0102',
    booth: 'B-77',
    room: '',
    deliveryDate: store.store.start_date,
    deliveryTime: '8:00 AM',
    pickupDate: store.store.end_date,
    pickupTime: '5:00 PM',
  };
  expect(
    (
      await request.put(`/api/orders/${created.orderId}`, { data: { cart, customer }, headers: orderHeaders })
    ).ok(),
  ).toBe(true);
  const paid = await request.post(`/api/orders/${created.orderId}/pay`, {
    data: { card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' } },
    headers: orderHeaders,
  });
  const body = (await paid.json()) as { confirmation: string };
  expect(body.confirmation).toBeTruthy();
  return body.confirmation;
}

test.describe('staff screens', () => {
  test('store manager: new, selector, deactivate, archive, unarchive, delete; products, prices, orders, CSV, audit', async ({
    page,
    browser,
    baseURL,
  }) => {
    // One long journey through every staff screen: more steps than the default 30 s allows on a busy machine.
    test.setTimeout(60_000);
    const suffix = Date.now().toString(36);
    const email = `staff-${suffix}@example.com`;
    createStaff(email);
    await signInAsStaff(page, email);
    await expect(page.getByRole('heading', { name: STORE_LIST_ACTIVE_TITLE })).toBeVisible();
    const viewArchived = page.getByRole('button', { name: /^View Archived \((\d+)\)$/ });
    const archivedBefore = Number(/\((\d+)\)/.exec((await viewArchived.textContent()) ?? '')?.[1]);

    // New store.
    const name = `Staff Expo ${suffix}`;
    const slug = `staff-expo-${suffix}`;
    await page.getByRole('button', { name: 'New', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New Store' });
    await text(dialog, 'Name').fill(name);
    await text(dialog, 'Store ID').fill('Not A Slug');
    await text(dialog, 'Deadline').fill(typed('2040-03-01'));
    await text(dialog, 'Event start date').fill(typed('2040-03-10'));
    await text(dialog, 'Event end date').fill(typed('2040-03-12'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Use lowercase letters, digits and dashes.')).toBeVisible();
    await text(dialog, 'Store ID').fill(slug);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(row(page, name)).toBeVisible();

    // It appears in the exhibitor selector.
    const visitor = await (await browser.newContext({ baseURL })).newPage();
    const inSelector = async () => {
      await visitor.goto('/exhibitor_order');
      await visitor.getByRole('searchbox', { name: 'Find your event' }).fill(name);
      return visitor
        .getByRole('list', { name: 'Matching stores' })
        .getByRole('button', { name: new RegExp(name) });
    };
    await expect(await inSelector()).toHaveCount(1);

    // Deactivated: gone from the selector.
    await row(page, name).getByText('Active', { exact: true }).click();
    await expect(row(page, name).getByRole('checkbox', { name: 'Active' })).not.toBeChecked();
    await expect(await inSelector()).toHaveCount(0);

    // Archive: the archived count grows.
    await row(page, name).getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Continue and Archive' }).click();
    await expect(row(page, name)).toHaveCount(0);
    await expect(page.getByRole('button', { name: `View Archived (${archivedBefore + 1})` })).toBeVisible();

    // Unarchive from the archived view, then archive again.
    await page.getByRole('button', { name: `View Archived (${archivedBefore + 1})` }).click();
    await expect(page.getByRole('heading', { name: STORE_LIST_ARCHIVED_TITLE })).toBeVisible();
    await row(page, name).getByRole('button', { name: 'UnArchive' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Continue and UnArchive' }).click();
    await expect(row(page, name)).toHaveCount(0);
    await page.getByRole('button', { name: SHOW_ACTIVE }).click();
    await row(page, name).getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Continue and Archive' }).click();
    await page.getByRole('button', { name: `View Archived (${archivedBefore + 1})` }).click();

    // Delete with the spec's confirmation.
    await row(page, name).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(STORE_DELETE_CONFIRM);
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await confirm.getByRole('button', { name: 'Continue and Delete' }).click();
    await expect(row(page, name)).toHaveCount(0);
    await expect(page.getByRole('button', { name: SHOW_ACTIVE })).toBeVisible();
    await page.getByRole('button', { name: SHOW_ACTIVE }).click();
    await expect(page.getByRole('button', { name: `View Archived (${archivedBefore})` })).toBeVisible();

    // A product and its price in demo-expo, as the store shows them.
    const product = `Fog machine ${suffix}`;
    await page.getByRole('link', { name: 'Products and prices' }).click();
    const productForm = page.getByRole('form', { name: 'Product' });
    await text(productForm, 'Product name').fill(product);
    await text(productForm, 'Product description').fill('Low-lying fog for stage entrances');
    await productForm.getByRole('button', { name: 'Save product' }).click();
    await expect(
      page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: product }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Choose a store Store' }).click();
    await page.getByRole('option', { name: /\(demo-expo\)/ }).click();
    const prices = page.getByRole('form', { name: 'Prices' });
    await text(prices, `Price of ${product}`).fill('125.50');
    await prices.getByRole('button', { name: 'Save prices' }).click();
    await expect(page.getByText('Prices saved.')).toBeVisible();
    await visitor.goto('/exhibitor_order/demo-expo');
    const card = visitor
      .getByRole('listitem')
      .filter({ has: visitor.getByRole('heading', { name: product }) });
    await expect(card.getByText(formatPrice(12_550))).toBeVisible();

    // An order paid with the test gateway appears with its lines.
    const { store } = (await (await page.request.get('/api/stores/demo-expo')).json()) as {
      store: { products: { id: number; name: string }[] };
    };
    const productId = store.products.find((p) => p.name === product)!.id;
    const confirmation = await placeOrder(page.request, baseURL!, productId);
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await page.getByRole('link', { name: confirmation }).click();
    await expect(page.getByRole('heading', { name: `Order ${confirmation}` })).toBeVisible();
    const lines = page.getByRole('table', { name: 'Lines' });
    await expect(lines.getByRole('row').filter({ hasText: product })).toContainText('3');

    // The CSV export: one row per line, this order's among them.
    await page.getByRole('link', { name: 'All orders' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toMatch(/^confirmation,order_id,status,/);
    const ours = csv.filter((line) => line.startsWith(`${confirmation},`));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toContain(`,${product},3,125.50,376.50,`);

    // The audit log lists these changes, each as a sentence.
    await page.getByRole('link', { name: 'Audit log' }).click();
    const audit = page.getByRole('table', { name: 'Audit log' });
    for (const sentence of [
      `Created store “${name}”.`,
      `Deactivated store “${name}”.`,
      `Archived store “${name}”.`,
      `Unarchived store “${name}”.`,
      `Deleted store “${name}”.`,
      `Created product “${product}”.`,
      `${product} added at $125.50`,
    ]) {
      await expect(audit.getByText(sentence).first()).toBeVisible();
    }
    await expect(audit.getByRole('row').filter({ hasText: `Deleted store “${name}”.` })).toContainText(
      'Ada Staffer',
    );
    await visitor.context().close();
  });

  test('signed out: the staff sign-in form, and the staff API answers 401', async ({ page }) => {
    await page.goto('/manage_order_forms');
    await expect(page.getByRole('form', { name: 'Staff sign in' })).toBeVisible();
    const response = await page.request.get('/api/staff/stores');
    expect(response.status()).toBe(401);
  });

  test('the New Store dialog fits the window: two columns, scrolling inside, Save and Cancel in view; one column on a phone', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const email = `staff-dialog-${Date.now().toString(36)}@example.com`;
    createStaff(email);
    await page.setViewportSize({ width: 1280, height: 720 });
    await signInAsStaff(page, email);
    await page.getByRole('button', { name: 'New', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New Store' });
    const box = (await dialog.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(720);
    for (const name of [
      'Name',
      'Store ID',
      'Deadline',
      'Order cut-off',
      'Event start date',
      'Event end date',
    ]) {
      const field = (await text(dialog, name).boundingBox())!;
      expect(field.x, name).toBeGreaterThanOrEqual(box.x);
      expect(field.x + field.width, name).toBeLessThanOrEqual(box.x + box.width);
    }
    // Two columns: Deadline and Order cut-off side by side.
    const deadline = (await text(dialog, 'Deadline').boundingBox())!;
    const cutoff = (await text(dialog, 'Order cut-off').boundingBox())!;
    expect(cutoff.x).toBeGreaterThan(deadline.x + deadline.width);
    // The form padded inside the dialog.
    const name = (await text(dialog, 'Name').boundingBox())!;
    expect(name.x - box.x).toBeGreaterThanOrEqual(16);
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeInViewport();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeInViewport();
    // The last fields are reached by scrolling inside the dialog; the buttons stay.
    await text(dialog, 'Event end date').scrollIntoViewIfNeeded();
    await expect(text(dialog, 'Event end date')).toBeInViewport();
    await dialog.getByRole('textbox', { name: 'Store Header Text' }).scrollIntoViewIfNeeded();
    await expect(dialog.getByRole('textbox', { name: 'Store Header Text' })).toBeInViewport();
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeInViewport();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.setViewportSize({ width: 375, height: 740 });
    const narrow = (await dialog.boundingBox())!;
    const narrowDeadline = (await text(dialog, 'Deadline').boundingBox())!;
    const narrowCutoff = (await text(dialog, 'Order cut-off').boundingBox())!;
    expect(narrowCutoff.y).toBeGreaterThan(narrowDeadline.y);
    for (const field of ['Name', 'Order cut-off', 'Event end date']) {
      const b = (await text(dialog, field).boundingBox())!;
      expect(b.x + b.width, field).toBeLessThanOrEqual(narrow.x + narrow.width);
    }
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeInViewport();
  });

  test('one staff shell on every staff page: Uploads in the navigation, one main landmark, one sign-in', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const email = `staff-shell-${Date.now().toString(36)}@example.com`;
    createStaff(email);
    await page.goto('/staff/uploads');
    await expect(page.getByRole('form', { name: 'Staff sign in' })).toHaveCount(1);
    await expect(page.getByRole('main')).toHaveCount(1);
    await signInAsStaff(page, email, '/staff/uploads');
    await expect(page.getByRole('heading', { name: 'Uploads inbox' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Staff' });
    await expect(nav.getByRole('link', { name: 'Uploads' })).toHaveAttribute('aria-current', 'page');
    for (const [link, heading] of [
      ['Stores', STORE_LIST_ACTIVE_TITLE],
      ['Products and prices', 'Products and prices'],
      ['Orders', 'Orders'],
      ['Pull sheet', 'Pull sheet'],
      ['Audit log', 'Audit log'],
      ['Uploads', 'Uploads inbox'],
    ]) {
      await nav.getByRole('link', { name: link!, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('main')).toHaveCount(1);
      await expect(page.getByText('Logged in as Ada Staffer')).toBeVisible();
    }
  });

  test('an unknown staff page answers 404 with the not-found page', async ({ page }) => {
    const response = await page.goto('/staff/nothing');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(PAGE_NOT_FOUND);
  });

  test('the store list fits a phone', async ({ page }) => {
    const email = `staff-phone-${Date.now().toString(36)}@example.com`;
    createStaff(email);
    await page.setViewportSize({ width: 375, height: 740 });
    await signInAsStaff(page, email);
    const expo = page.getByRole('row').filter({ hasText: 'demo-expo' });
    await expect(expo).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const edit = (await expo.getByRole('button', { name: 'Edit' }).boundingBox())!;
    expect(edit.x + edit.width).toBeLessThanOrEqual(375);
    const active = (await expo.getByRole('checkbox', { name: 'Active' }).boundingBox())!;
    expect(active.x).toBeGreaterThanOrEqual(0);
  });

  test('a store image must be one of the store images: refused by the server, picked from the list in the form', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const suffix = Date.now().toString(36);
    const email = `staff-image-${suffix}@example.com`;
    createStaff(email);
    await signInAsStaff(page, email);
    const body = {
      name: `Image Expo ${suffix}`,
      store_id: `image-expo-${suffix}`,
      image: 'qa-logo.png',
      deadline: '2040-03-01',
      start_date: '2040-03-10',
      end_date: '2040-03-12',
      order_cutoff: '',
      bcc: '',
      email_text: '',
      store_text: '',
      is_active: true,
      is_archived: false,
    };
    const refused = await page.request.post('/api/staff/stores', {
      data: body,
      headers: { origin: baseURL! },
    });
    expect(refused.status()).toBe(400);
    const error = ((await refused.json()) as { error: { fields: Record<string, string> } }).error;
    expect(error.fields.image).toBe(storeImageUnknown('qa-logo.png'));

    await page.getByRole('button', { name: 'New', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New Store' });
    await text(dialog, 'Name').fill(body.name);
    await text(dialog, 'Store ID').fill(body.store_id);
    await text(dialog, 'Deadline').fill(typed(body.deadline));
    await text(dialog, 'Event start date').fill(typed(body.start_date));
    await text(dialog, 'Event end date').fill(typed(body.end_date));
    await dialog.getByLabel('Upload an image').setInputFiles({
      name: `logo-${suffix}.png`,
      mimeType: 'image/png',
      buffer: Buffer.from(PNG_1PX, 'base64'),
    });
    await expect(dialog.getByRole('button', { name: /Image$/ })).toContainText(`logo-${suffix}.png`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const logo = row(page, body.name).getByRole('img', { name: `${body.name} logo` });
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  });

  test('a store with no prices says that nothing is for sale yet', async ({ page, browser, baseURL }) => {
    test.setTimeout(60_000);
    const suffix = Date.now().toString(36);
    const email = `staff-empty-${suffix}@example.com`;
    createStaff(email);
    await signInAsStaff(page, email);
    await page.getByRole('button', { name: 'New', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'New Store' });
    await text(dialog, 'Name').fill(`Empty Expo ${suffix}`);
    await text(dialog, 'Store ID').fill(`empty-expo-${suffix}`);
    await text(dialog, 'Deadline').fill(typed('2040-03-01'));
    await text(dialog, 'Event start date').fill(typed('2040-03-10'));
    await text(dialog, 'Event end date').fill(typed('2040-03-12'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const visitor = await (await browser.newContext({ baseURL })).newPage();
    await visitor.goto(`/exhibitor_order/empty-expo-${suffix}`);
    await expect(visitor.getByText(NOTHING_FOR_SALE)).toBeVisible();
    await expect(visitor.getByRole('region', { name: 'Cart' })).toHaveCount(0);
    await visitor.context().close();
  });

  test('a product picture uploaded on the products screen shows in the store with its alt text', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const email = `staff-picture-${Date.now().toString(36)}@example.com`;
    createStaff(email);
    await signInAsStaff(page, email, '/staff/products');
    const products = page.getByRole('table', { name: 'Products' });
    const laptop = products.getByRole('row').filter({ hasText: 'Laptop Rental' });
    await expect(laptop.getByRole('img', { name: 'Laptop Rental' })).toHaveAttribute(
      'src',
      /^\/media\/products\//,
    );
    await laptop.getByLabel('Upload a picture of Laptop Rental').setInputFiles({
      name: 'laptop.png',
      mimeType: 'image/png',
      buffer: Buffer.from(PNG_1PX, 'base64'),
    });
    await expect(page.getByText('Picture of Laptop Rental saved.')).toBeVisible();
    const src = await laptop.getByRole('img', { name: 'Laptop Rental' }).getAttribute('src');
    expect(src).toMatch(/^\/media\/products\/laptop-[0-9a-f]+\.webp$/);

    const visitor = await (await browser.newContext({ baseURL })).newPage();
    await visitor.goto('/exhibitor_order/demo-expo');
    const card = visitor
      .getByRole('listitem')
      .filter({ has: visitor.getByRole('heading', { name: 'Laptop Rental', exact: true }) });
    await expect(card.getByRole('img', { name: 'Laptop Rental' })).toHaveAttribute('src', src!);
    await visitor.context().close();
  });
});

/** 'Nov 25, 2026, 9:39 PM EST': the staff screens' one date-time format, in the company's zone (the e2e server's TZ_STORE is the default, New York). */
const STAFF_TIME = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M E[SD]T$/;

test.describe('what a demanding client notices on the staff screens (issue 29)', () => {
  test('#11 #12 #36 an order in words and named times; a double click on the refund confirmation refunds once; the audit sentence', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const email = `staff-refund-${Date.now().toString(36)}@example.com`;
    createStaff(email);
    await signInAsStaff(page, email, '/staff/orders');
    const { store } = (await (await page.request.get('/api/stores/demo-expo')).json()) as {
      store: { products: { id: number; name: string }[] };
    };
    const confirmation = await placeOrder(page.request, baseURL!, store.products[0]!.id);

    await page.reload();
    const listRow = page
      .getByRole('table', { name: 'Orders' })
      .getByRole('row')
      .filter({ hasText: confirmation });
    const cells = listRow.getByRole('cell');
    await expect(cells.nth(2)).toHaveText('Paid');
    await expect(cells.nth(8)).toHaveText(STAFF_TIME);
    await expect(cells.nth(5)).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);

    await listRow.getByRole('link', { name: confirmation }).click();
    await expect(page.getByRole('heading', { name: `Order ${confirmation}` })).toBeVisible();
    const orderId = /\/staff\/orders\/([^/?#]+)$/.exec(page.url())?.[1] ?? '';
    const lines = page.getByRole('table', { name: 'Lines' });
    // The early-bird discount with the minus the exhibitor saw.
    await expect(lines.getByRole('row').filter({ hasText: 'Early-bird discount' })).toContainText(/-\$\d/);
    const summary = page.getByText(/ · status /);
    await expect(summary).toContainText('status Paid');
    const placed = /placed (.+?) · paid/.exec((await summary.textContent()) ?? '')?.[1] ?? '';
    expect(placed).toMatch(STAFF_TIME);
    for (const day of ['Delivery date', 'Pickup date']) {
      await expect(page.locator('dt', { hasText: day }).locator('xpath=following-sibling::dd')).toHaveText(
        /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/,
      );
    }
    await expect(page.getByText(/^Payment: test-gateway · Visa ending in 4242 · reference /)).toBeVisible();

    // One refund, confirmed with a double click: one key, one refund.
    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/staff/orders/${orderId}/refunds`)) {
        posted.push((request.postDataJSON() as { key: string }).key);
      }
    });
    const refundForm = page.getByRole('form', { name: 'Refund' });
    await text(refundForm, 'Amount to refund').fill('1.00');
    await text(refundForm, 'Reason').fill('Scuffed case');
    await refundForm.getByRole('button', { name: 'Refund…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Refund $1.00' }).dblclick();
    await expect(page.getByRole('status').filter({ hasText: 'Refunded $1.00.' })).toBeVisible();
    await expect(summary).toContainText('status Partially refunded');
    const refunds = page.getByRole('heading', { name: 'Refunds' }).locator('xpath=..').getByRole('listitem');
    await expect(refunds).toHaveCount(1);
    await expect(refunds.first()).toHaveText(/^\$1\.00 · Succeeded · Scuffed case · /);
    const answer = (await (await page.request.get(`/api/staff/orders/${orderId}`)).json()) as {
      order: { refunded_amount: number; refunds: unknown[] };
    };
    expect(answer.order.refunded_amount).toBe(100);
    expect(answer.order.refunds).toHaveLength(1);
    expect(new Set(posted).size).toBe(1);

    // The audit log: a sentence with the money formatted, the stored values behind a disclosure.
    await page.getByRole('link', { name: 'Audit log' }).click();
    const audit = page.getByRole('table', { name: 'Audit log' });
    const entry = audit.getByRole('row').filter({ hasText: 'Scuffed case' });
    await expect(entry).toHaveCount(1);
    await expect(
      entry.getByText(`Refunded $1.00 of order ${orderId.slice(0, 8)}: “Scuffed case”.`),
    ).toBeVisible();
    await expect(entry.getByText('the order is now partially refunded')).toBeVisible();
    await expect(entry.getByRole('cell').first()).toHaveText(STAFF_TIME);
    const raw = entry.getByText('"refunded_amount": 100');
    await expect(raw).toBeHidden();
    await entry.getByText('Stored values').click();
    await expect(raw).toBeVisible();
  });

  test('#13 the uploads inbox at 375 px: no overflow, Status and Download in view, a short SHA-256 with a copy button', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const suffix = Date.now().toString(36);
    // A client sends one small file through the upload API.
    const client = await browser.newContext({ baseURL });
    const headers = { origin: baseURL! };
    const clientPassword = 'Difference Engine 1843';
    expect(
      (
        await client.request.post('/api/auth/register', {
          headers,
          data: {
            email: `inbox-client-${suffix}@example.com`,
            firstname: 'Ada',
            lastname: 'Sender',
            company: 'Analytical Engines',
            phone: '(555) 123-4567',
            password: clientPassword,
            confirmPassword: clientPassword,
          },
        })
      ).status(),
    ).toBe(201);
    const marker = `Keynote ${suffix}`;
    const submission = (
      (await (
        await client.request.post('/api/uploads/submissions', {
          headers,
          data: {
            form_type: 'event',
            event_name: marker,
            session_datetime: '2026-12-15 09:30:00',
            speaker_name: 'Grace Hopper',
          },
        })
      ).json()) as { submission: { id: string } }
    ).submission;
    const bytes = Buffer.from(`slides for ${marker}\n`.repeat(50));
    const fileName = `keynote-slides-${suffix}-final-version-with-notes.pdf`;
    const file = (
      (await (
        await client.request.post(`/api/uploads/submissions/${submission.id}/files`, {
          headers,
          data: { name: fileName, size: bytes.length },
        })
      ).json()) as { file: { id: string } }
    ).file;
    expect(
      (
        await client.request.put(`/api/uploads/files/${file.id}/parts/1`, {
          headers: { ...headers, 'content-type': 'application/octet-stream' },
          data: bytes,
        })
      ).ok(),
    ).toBe(true);
    const completed = (
      (await (
        await client.request.post(`/api/uploads/files/${file.id}/complete`, { headers, data: {} })
      ).json()) as { file: { sha256: string } }
    ).file;
    expect(
      (
        await client.request.post(`/api/uploads/submissions/${submission.id}/submit`, { headers, data: {} })
      ).ok(),
    ).toBe(true);
    await client.close();
    const sha = completed.sha256;
    expect(sha).toMatch(/^[0-9a-f]{64}$/);

    await page.setViewportSize({ width: 375, height: 812 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const email = `staff-inbox-${suffix}@example.com`;
    createStaff(email);
    await signInAsStaff(page, email, `/staff/uploads?submission=${submission.id}`);
    const article = page.getByRole('article').filter({ hasText: marker });
    await expect(article).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await article.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const row = article.getByTestId('inbox-file');
    expect(await row.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const status = row.locator('[data-label="Status"]');
    await expect(status).toHaveText('Complete');
    await status.scrollIntoViewIfNeeded();
    await expect(status).toBeInViewport({ ratio: 1 });
    const download = row.getByRole('link', { name: `Download ${fileName}` });
    await download.scrollIntoViewIfNeeded();
    await expect(download).toBeInViewport({ ratio: 1 });
    // The hash: shortened on screen, whole for a screen reader and on the clipboard.
    await expect(row.getByText(`${sha.slice(0, 8)}…${sha.slice(-4)}`)).toBeVisible();
    await expect(row).toContainText(sha);
    await row.getByRole('button', { name: `Copy the SHA-256 of ${fileName}` }).click();
    await expect(row.getByRole('button', { name: `Copy the SHA-256 of ${fileName}` })).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sha);
    // #11: the session as typed, read like the other times; the sent time named in the company's zone.
    await expect(article.getByText('Dec 15, 2026, 9:30 AM', { exact: true })).toBeVisible();
    const sent = /sent (.+?) ·/.exec((await article.getByText(/ · sent /).textContent()) ?? '')?.[1] ?? '';
    expect(sent).toMatch(STAFF_TIME);
  });

  test('#14 #19 the stores table names each store in its controls; Edit Store shows its ID as text and a styled file input', async ({
    page,
  }) => {
    const email = `staff-names-${Date.now().toString(36)}@example.com`;
    createStaff(email);
    await signInAsStaff(page, email);
    const expo = page.getByRole('row').filter({ hasText: 'demo-expo' });
    const expoName = (await expo.getByRole('cell').first().textContent()) ?? '';
    expect(expoName).toMatch(/^Demo Expo \d{4}$/);
    await expect(expo.getByRole('button', { name: `Edit ${expoName}`, exact: true })).toBeVisible();
    await expect(expo.getByRole('button', { name: `Archive ${expoName}`, exact: true })).toBeVisible();
    await expect(expo.getByRole('checkbox', { name: `Active ${expoName}`, exact: true })).toBeVisible();

    await expo.getByRole('button', { name: `Edit ${expoName}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Store' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'ID', exact: true })).toHaveCount(0);
    await expect(dialog.getByText(/^ID \d+$/)).toBeVisible();
    // The native file input is covered by a button in the kit's style, and crowds no label.
    const upload = dialog.getByText('Upload an image…');
    await expect(upload).toBeVisible();
    await expect(upload).toHaveClass(/kit-button/);
    await expect(dialog.getByLabel('Upload an image')).toHaveCSS('opacity', '0');
    const button = (await upload.boundingBox())!;
    const deadline = (await dialog
      .locator('label')
      .filter({ hasText: /^Deadline/ })
      .boundingBox())!;
    expect(deadline.y).toBeGreaterThanOrEqual(button.y + button.height);
  });
});

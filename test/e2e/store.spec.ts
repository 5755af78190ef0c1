import { join } from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import sqlite3 from 'sqlite3';
import {
  addDays,
  CART_EMPTY,
  CHECKOUT_INCOMPLETE,
  CHECKOUT_INVALID_EMAIL,
  CHECKOUT_INVALID_PHONE,
  dateMustBeAfter,
  dateMustBeBefore,
  earlyBirdUntil,
  FIELD_REQUIRED,
  formatDate,
  formatPrice,
  ONSITE_SAME_AS_PURCHASER,
  PAGE_NOT_FOUND,
  priceOrder,
  STORE_CLOSED_NOTICE,
} from '@avp/shared';
import { expect, test } from '../support/fixtures';

/**
 * The exhibitor store end to end against the real server and its built-in test gateway: find the
 * store, fill the cart, the rental information with its checks and date limits, pay with the test cards,
 * the confirmation, and the confirmation e-mail in the mail outbox.
 */

interface StoreJson {
  name: string;
  deadline: string;
  start_date: string;
  end_date: string;
  time_zone: string;
  products: { id: number; name: string; price: number }[];
}

interface MailRow {
  to_address: string;
  bcc: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
}

/** The mail outbox of the server under test (SQLite at E2E_DATA_DIR/app.db), read-only. */
function outboxRows(subjectPart: string): Promise<MailRow[]> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set');
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(join(dataDir, 'app.db'), sqlite3.OPEN_READONLY, (openError) => {
      if (openError) {
        reject(openError);
        return;
      }
      db.all<MailRow>(
        'SELECT to_address, bcc, subject, text_body, html_body FROM mail_outbox WHERE subject LIKE ?',
        [`%${subjectPart}%`],
        (error, rows) => {
          db.close();
          if (error) reject(error);
          else resolve(rows);
        },
      );
    });
  });
}

/** M/D/YYYY, as the date inputs show a 'YYYY-MM-DD' day (their limits read as SPEC §9 shows dates: 'Jan 9, 2027'). */
function typed(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return `${m}/${d}/${y}`;
}

function product(page: Page, name: string): Locator {
  return page
    .getByRole('list')
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });
}

async function addToCart(page: Page, name: string, quantity: number) {
  const card = product(page, name);
  const field = card.getByRole('textbox', { name: 'Quantity' });
  await field.fill(String(quantity));
  await field.press('Tab');
  await card.getByRole('button', { name: `Add ${name} to cart` }).click();
}

function cartLine(page: Page, name: string): Locator {
  return page.getByRole('region', { name: 'Cart' }).getByRole('listitem', { name, exact: true });
}

async function setCartCount(page: Page, name: string, count: number) {
  const line = cartLine(page, name);
  const field = line.getByRole('textbox', { name: `Count of ${name}` });
  await field.fill(String(count));
  await field.press('Tab');
  await line.getByRole('button', { name: 'Update' }).click();
}

/** The rental information, all valid, with the onsite contact copied from the purchaser. */
async function fillRentalInformation(page: Page) {
  const client = page.getByRole('group', { name: 'Client Information' });
  const address = page.getByRole('group', { name: 'Address' });
  await client.getByRole('textbox', { name: 'Company name' }).fill('Acme Widgets');
  await client.getByRole('textbox', { name: 'First name' }).fill('Grace');
  await client.getByRole('textbox', { name: 'Last name' }).fill('Hopper');
  await client.getByRole('textbox', { name: 'E-mail' }).fill('grace@acme.example');
  await address.getByRole('textbox', { name: 'Street address' }).fill('1 Main St');
  await address.getByRole('textbox', { name: 'City' }).fill('Chicago');
  await address.getByRole('textbox', { name: 'State' }).fill('IL');
  await address.getByRole('textbox', { name: 'Zip' }).fill('60607');
  await address.getByRole('textbox', { name: 'Phone' }).fill('(312) 555-0101');
  await page.getByRole('group', { name: 'Onsite Contact' }).getByText(ONSITE_SAME_AS_PURCHASER).click();
  await page
    .getByRole('group', { name: 'Booth Location' })
    .getByRole('textbox', { name: 'Booth' })
    .fill('1142');
  const pickupTime = page.getByRole('textbox', { name: 'Pickup time' });
  await pickupTime.fill('5:00 PM');
  await pickupTime.press('Tab');
}

async function payWith4242(page: Page) {
  await page.getByRole('textbox', { name: 'Card number' }).fill('4242 4242 4242 4242');
  await page.getByRole('textbox', { name: 'Expiration (MM / YY)' }).fill('1240');
  await page.getByRole('textbox', { name: 'CVC' }).fill('123');
  await page.getByText(/^I accept the rental terms/).click();
  await page.getByRole('button', { name: 'Pay now' }).click();
}

test.describe('exhibitor store', () => {
  test('search, cart, checkout checks, a declined and a paid card, confirmation and e-mail', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const store = ((await (await request.get('/api/stores/demo-expo')).json()) as { store: StoreJson }).store;
    const [monitor, , laptop, microphone, , , , charger] = store.products;

    // The selector: results only past two characters, matching name or store id; inactive and archived never.
    await page.goto('/exhibitor_order');
    const search = page.getByRole('searchbox', { name: 'Find your event' });
    await search.fill('de');
    await expect(page.getByRole('list', { name: 'Matching stores' })).toHaveCount(0);
    await search.fill('Demo');
    const results = page.getByRole('list', { name: 'Matching stores' }).getByRole('button');
    await expect(results).toHaveCount(2);
    await expect(results.filter({ hasText: 'Inactive' })).toHaveCount(0);
    await expect(results.filter({ hasText: 'Archived' })).toHaveCount(0);
    await search.fill('demo-exp');
    await expect(results).toHaveCount(1);
    await results.filter({ hasText: store.name }).click();

    await expect(page).toHaveURL(/\/exhibitor_order\/demo-expo$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${store.name} Order Form`);
    await expect(
      page.getByText(`${formatDate(store.start_date)} - ${formatDate(store.end_date)}`),
    ).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);
    const cart = page.getByRole('region', { name: 'Cart' });
    await expect(cart.getByText(CART_EMPTY)).toBeVisible();

    // Three products; then a count changed with Update, and a fourth line removed with 0.
    await addToCart(page, monitor!.name, 2);
    await addToCart(page, laptop!.name, 1);
    await addToCart(page, microphone!.name, 3);
    await addToCart(page, charger!.name, 1);
    await expect(cart.getByRole('listitem')).toHaveCount(4);
    await expect(cartLine(page, laptop!.name).getByRole('button', { name: 'Update' })).toHaveCount(0);
    await setCartCount(page, laptop!.name, 4);
    await setCartCount(page, charger!.name, 0);
    await expect(cart.getByRole('listitem')).toHaveCount(3);
    await expect(cartLine(page, laptop!.name)).toContainText(formatPrice(laptop!.price * 4));

    const expected = priceOrder(
      [
        { unitAmount: monitor!.price, quantity: 2 },
        { unitAmount: laptop!.price, quantity: 4 },
        { unitAmount: microphone!.price, quantity: 3 },
      ],
      { deadline: store.deadline, now: new Date(), timeZone: store.time_zone },
    );
    expect(expected.earlyBird).toBe(true);
    const total = formatPrice(expected.total);
    await expect(cart.getByTestId('order-total')).toHaveText(total);
    await expect(cart.getByText(`-${formatPrice(expected.discount)}`)).toBeVisible();

    // The rental information: each message, the date limits, then everything valid.
    await cart.getByRole('link', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/exhibitor_order\/demo-expo\/checkout$/);
    const summary = page.getByRole('region', { name: 'Your order' });
    await expect(summary.getByTestId('order-total')).toHaveText(total);
    const goToPayment = page.getByRole('button', { name: 'Go To Payment' });
    await expect(goToPayment).toBeDisabled();
    await expect(page.getByText(CHECKOUT_INCOMPLETE)).toBeVisible();

    const client = page.getByRole('group', { name: 'Client Information' });
    const address = page.getByRole('group', { name: 'Address' });
    const onsite = page.getByRole('group', { name: 'Onsite Contact' });
    const company = client.getByRole('textbox', { name: 'Company name' });
    await company.focus();
    await company.press('Tab');
    await expect(client.getByText(FIELD_REQUIRED)).toBeVisible();
    await client.getByRole('textbox', { name: 'E-mail' }).fill('grace@acme');
    await client.getByRole('textbox', { name: 'E-mail' }).press('Tab');
    await expect(client.getByText(CHECKOUT_INVALID_EMAIL)).toBeVisible();
    await address.getByRole('textbox', { name: 'Phone' }).fill('555-01');
    await address.getByRole('textbox', { name: 'Phone' }).press('Tab');
    await expect(address.getByText(CHECKOUT_INVALID_PHONE)).toBeVisible();

    const deliveryDate = page.getByRole('textbox', { name: 'Delivery date' });
    const pickupDate = page.getByRole('textbox', { name: 'Pickup date' });
    // SPEC §9 defaults: delivery 8:00 AM on the start date, pickup on the end date.
    await expect(deliveryDate).toHaveValue(typed(store.start_date));
    await expect(page.getByRole('textbox', { name: 'Delivery time' })).toHaveValue(/^0?8:00 AM$/i);
    await expect(pickupDate).toHaveValue(typed(store.end_date));
    await deliveryDate.fill(typed(addDays(store.start_date, -1)));
    await deliveryDate.press('Enter');
    await expect(page.getByText(dateMustBeAfter(formatDate(addDays(store.start_date, -1))))).toBeVisible();
    await expect(deliveryDate).toHaveValue(typed(store.start_date), { timeout: 5_000 });
    await pickupDate.fill(typed(addDays(store.end_date, 1)));
    await pickupDate.press('Enter');
    await expect(page.getByText(dateMustBeBefore(formatDate(addDays(store.end_date, 1))))).toBeVisible();
    await expect(pickupDate).toHaveValue(typed(store.end_date), { timeout: 5_000 });
    // Delivery may not fall after the chosen pickup day.
    await pickupDate.fill(typed(store.start_date));
    await pickupDate.press('Enter');
    await deliveryDate.fill(typed(store.end_date));
    await deliveryDate.press('Enter');
    await expect(page.getByText(dateMustBeBefore(formatDate(addDays(store.start_date, 1))))).toBeVisible();
    await expect(deliveryDate).toHaveValue(typed(store.start_date), { timeout: 5_000 });
    await pickupDate.fill(typed(store.end_date));
    await pickupDate.press('Enter');

    await company.fill('Acme Widgets');
    await client.getByRole('textbox', { name: 'First name' }).fill('Grace');
    await client.getByRole('textbox', { name: 'Last name' }).fill('Hopper');
    await client.getByRole('textbox', { name: 'E-mail' }).fill('grace@acme.example');
    await address.getByRole('textbox', { name: 'Street address' }).fill('1 Main St');
    await address.getByRole('textbox', { name: 'City' }).fill('Chicago');
    await address.getByRole('textbox', { name: 'State' }).fill('IL');
    await address.getByRole('textbox', { name: 'Zip' }).fill('60607');
    await address.getByRole('textbox', { name: 'Phone' }).fill('(312) 555-0101');
    await onsite.getByText(ONSITE_SAME_AS_PURCHASER).click();
    await expect(onsite.getByRole('textbox', { name: 'First name' })).toHaveValue('Grace');
    await expect(onsite.getByRole('textbox', { name: 'E-mail' })).toHaveValue('grace@acme.example');
    await expect(onsite.getByRole('textbox', { name: 'Phone' })).toHaveValue('(312) 555-0101');
    await page
      .getByRole('group', { name: 'Booth Location' })
      .getByRole('textbox', { name: 'Booth' })
      .fill('1142');
    const pickupTime = page.getByRole('textbox', { name: 'Pickup time' });
    await pickupTime.fill('5:00 PM');
    await pickupTime.press('Tab');
    await expect(page.getByText(CHECKOUT_INCOMPLETE)).toHaveCount(0);
    await expect(goToPayment).toBeEnabled();
    await goToPayment.click();

    // Payment: the test gateway's own form; Pay now waits for the terms.
    await expect(page).toHaveURL(/\/payment$/);
    await expect(page.getByText('Test mode.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Your order' }).getByTestId('order-total')).toHaveText(
      total,
    );
    const payNow = page.getByRole('button', { name: 'Pay now' });
    await expect(payNow).toBeDisabled();
    await page.getByText(/^I accept the rental terms/).click();
    await expect(payNow).toBeEnabled();

    const number = page.getByRole('textbox', { name: 'Card number' });
    await number.fill('4242 4242 4242 4241');
    await expect(page.getByText('Your card number is invalid.')).toBeVisible();
    await number.fill('');
    await expect(page.getByText('Your card number is invalid.')).toHaveCount(0);

    await number.fill('4000 0000 0000 0002');
    await page.getByRole('textbox', { name: 'Expiration (MM / YY)' }).fill('1240');
    await page.getByRole('textbox', { name: 'CVC' }).fill('123');
    await payNow.click();
    await expect(page.getByText('Payment failed Your card was declined.')).toBeVisible();
    await expect(page).toHaveURL(/\/payment$/);
    await expect(payNow).toBeEnabled();

    await number.fill('4242 4242 4242 4242');
    await payNow.click();
    await expect(page).toHaveURL(/\/confirmation$/);
    await expect(page.getByTestId('charged-amount')).toHaveText(total);
    const confirmation = (await page.getByTestId('confirmation-number').textContent()) ?? '';
    expect(confirmation).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    await expect(page.getByText('grace@acme.example')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Order summary' }).getByTestId('order-total')).toHaveText(
      total,
    );

    // A reload keeps the page: the order is fetched again by id and token.
    await page.reload();
    await expect(page.getByTestId('confirmation-number')).toHaveText(confirmation);

    // The confirmation e-mail, queued with the payment: the number, the total, the store's BCC.
    await expect.poll(async () => (await outboxRows(confirmation)).length).toBe(1);
    const [mail] = await outboxRows(confirmation);
    expect(mail).toMatchObject({ to_address: 'grace@acme.example', bcc: 'av-orders@northbeam.example' });
    expect(mail!.text_body).toContain(`Confirmation number: ${confirmation}`);
    expect(mail!.text_body).toContain(`Total: ${total}`);

    // The cart was cleared on success.
    await page.goto('/exhibitor_order/demo-expo');
    await expect(page.getByRole('region', { name: 'Cart' }).getByText(CART_EMPTY)).toBeVisible();
  });

  test('a closed store shows the notice instead of the form', async ({ page }) => {
    await page.goto('/exhibitor_order/demo-late');
    await expect(page.getByText(STORE_CLOSED_NOTICE)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Demo Late Show \d{4} Order Form$/);
    await expect(page.getByRole('region', { name: 'Products' })).toHaveCount(0);
    await page.goto('/exhibitor_order/demo-late/checkout');
    await expect(page.getByText(STORE_CLOSED_NOTICE)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Go To Payment' })).toHaveCount(0);
  });

  test('an unknown store id answers 404 with the not-found page', async ({ page }) => {
    const response = await page.goto('/exhibitor_order/no-such-store');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(PAGE_NOT_FOUND);
  });

  test('product pictures in the cards, the cart summary and the confirmation e-mail', async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const store = ((await (await request.get('/api/stores/demo-expo')).json()) as { store: StoreJson }).store;
    const [monitor] = store.products;
    await page.goto('/exhibitor_order/demo-expo');

    const picture = product(page, monitor!.name).getByRole('img', { name: monitor!.name });
    await expect(picture).toHaveAttribute('src', /^\/media\/products\/.+/);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // The seeded catalogue comes first (eight products); products other tests create go after it.
    for (const each of store.products.slice(0, 8)) {
      await expect(product(page, each.name).getByRole('img', { name: each.name })).toHaveCount(1);
    }

    await addToCart(page, monitor!.name, 1);
    await page.getByRole('region', { name: 'Cart' }).getByRole('link', { name: 'Checkout' }).click();
    // Beside the product's name the thumbnail is decorative (issue 29 #14): empty alt text.
    const thumbnail = page
      .getByRole('region', { name: 'Your order' })
      .getByRole('row')
      .filter({ hasText: monitor!.name })
      .locator('img');
    await expect(thumbnail).toHaveAttribute('src', /^\/media\/products\/.+/);
    await expect(thumbnail).toHaveAttribute('alt', '');
    await fillRentalInformation(page);
    await page.getByRole('button', { name: 'Go To Payment' }).click();
    await expect(thumbnail).toBeVisible();
    await payWith4242(page);
    const confirmation = (await page.getByTestId('confirmation-number').textContent()) ?? '';

    await expect.poll(async () => (await outboxRows(confirmation)).length).toBe(1);
    const [mail] = await outboxRows(confirmation);
    const alt = monitor!.name.replace(/"/g, '&quot;');
    expect(mail!.html_body).toMatch(
      new RegExp(`<img[^>]* src="${baseURL}/media/products/[^"]+"[^>]* alt="${alt}"`),
    );
  });

  test('after paying, the receipt or a loading state follows, never the emptied payment page', async ({
    page,
    request,
  }) => {
    const store = ((await (await request.get('/api/stores/demo-expo')).json()) as { store: StoreJson }).store;
    await page.goto('/exhibitor_order/demo-expo');
    await addToCart(page, store.products[1]!.name, 1);
    await page.getByRole('region', { name: 'Cart' }).getByRole('link', { name: 'Checkout' }).click();
    await fillRentalInformation(page);
    await page.getByRole('button', { name: 'Go To Payment' }).click();
    await expect(page.getByRole('textbox', { name: 'Card number' })).toBeVisible();

    // Every change to the page from here on is watched for the emptied cart.
    await page.evaluate((empty) => {
      const seen: string[] = [];
      (window as unknown as { emptyCartSeen: string[] }).emptyCartSeen = seen;
      new MutationObserver(() => {
        if (document.body.textContent?.includes(empty)) seen.push(location.pathname);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    }, CART_EMPTY);
    await payWith4242(page);
    await expect(page).toHaveURL(/\/confirmation$/);
    await expect(page.getByTestId('confirmation-number')).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { emptyCartSeen: string[] }).emptyCartSeen),
    ).toEqual([]);
  });

  test('on a phone the cart total and Checkout stay in view; checkout links back; the early-bird deadline is shown', async ({
    page,
    request,
  }) => {
    const store = ((await (await request.get('/api/stores/demo-expo')).json()) as { store: StoreJson }).store;
    const [monitor] = store.products;
    const deadline = formatDate(store.deadline);
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/exhibitor_order/demo-expo');
    await expect(page.getByText(earlyBirdUntil(deadline))).toBeVisible();

    await addToCart(page, monitor!.name, 2);
    const bar = page.getByRole('region', { name: 'Cart total' });
    await expect(bar).toBeInViewport();
    await expect(bar).toContainText('2 items');
    const expected = priceOrder([{ unitAmount: monitor!.price, quantity: 2 }], {
      deadline: store.deadline,
      now: new Date(),
      timeZone: store.time_zone,
    });
    await expect(bar).toContainText(formatPrice(expected.total));
    const checkout = bar.getByRole('link', { name: 'Checkout' });
    await expect(checkout).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await checkout.click();
    await expect(page).toHaveURL(/\/exhibitor_order\/demo-expo\/checkout$/);
    await expect(page.getByText(earlyBirdUntil(deadline))).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('link', { name: 'Back to the products' }).click();
    await expect(page).toHaveURL(/\/exhibitor_order\/demo-expo$/);
  });

  test('the Update button appears as soon as a count is changed', async ({ page, request }) => {
    const store = ((await (await request.get('/api/stores/demo-expo')).json()) as { store: StoreJson }).store;
    const [monitor] = store.products;
    await page.goto('/exhibitor_order/demo-expo');
    await addToCart(page, monitor!.name, 1);
    const line = cartLine(page, monitor!.name);
    const field = line.getByRole('textbox', { name: `Count of ${monitor!.name}` });
    await field.fill('3');
    await expect(field).toBeFocused();
    await expect(line.getByRole('button', { name: 'Update' })).toBeVisible();
    await line.getByRole('button', { name: 'Update' }).click();
    await expect(line).toContainText(formatPrice(monitor!.price * 3));
    await expect(line.getByRole('button', { name: 'Update' })).toHaveCount(0);
    // Focus stays on the count rather than dropping to the page with the button that went away.
    await expect(field).toBeFocused();
  });
});

/** The demo store, read through the public API. */
async function demoExpo(request: APIRequestContext): Promise<StoreJson> {
  return ((await (await request.get('/api/stores/demo-expo')).json()) as { store: StoreJson }).store;
}

test.describe('what a demanding client notices in the store (issue 29)', () => {
  test('#3 a count typed in the cart but not applied is what the checkout prices (375×812)', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const store = await demoExpo(request);
    const [monitor] = store.products;
    await page.goto('/exhibitor_order/demo-expo');
    await addToCart(page, monitor!.name, 1);
    const cart = page.getByRole('region', { name: 'Cart', exact: true });
    // Typed, neither Update nor Tab pressed.
    await cartLine(page, monitor!.name)
      .getByRole('textbox', { name: `Count of ${monitor!.name}` })
      .fill('2');
    await cart.getByRole('link', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/exhibitor_order\/demo-expo\/checkout$/);
    const expected = priceOrder([{ unitAmount: monitor!.price, quantity: 2 }], {
      deadline: store.deadline,
      now: new Date(),
      timeZone: store.time_zone,
    });
    const summary = page.getByRole('region', { name: 'Your order' });
    await expect(
      summary.getByRole('row').filter({ hasText: monitor!.name }).getByRole('cell').nth(1),
    ).toHaveText('2');
    await expect(summary.getByTestId('order-total')).toHaveText(formatPrice(expected.total));
  });

  for (const size of [
    { width: 1280, height: 800 },
    { width: 375, height: 812 },
  ]) {
    test(`#10 the cart's Update button lines up with its count field (${size.width} px)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize(size);
      const [monitor] = (await demoExpo(request)).products;
      await page.goto('/exhibitor_order/demo-expo');
      await addToCart(page, monitor!.name, 1);
      const line = cartLine(page, monitor!.name);
      const field = line.getByRole('textbox', { name: `Count of ${monitor!.name}` });
      await field.fill('3');
      const update = line.getByRole('button', { name: 'Update' });
      await update.scrollIntoViewIfNeeded();
      const input = (await field.boundingBox())!;
      const button = (await update.boundingBox())!;
      expect(Math.abs(input.y + input.height - (button.y + button.height))).toBeLessThanOrEqual(1);
      expect(Math.abs(input.y - button.y)).toBeLessThanOrEqual(1);
      // The unit price is still read with the line.
      await expect(line).toContainText(`${formatPrice(monitor!.price)} each`);
    });
  }

  test('#9 focus goes to the decline alert, then to the confirmation heading', async ({ page, request }) => {
    test.setTimeout(60_000);
    const [monitor] = (await demoExpo(request)).products;
    await page.goto('/exhibitor_order/demo-expo');
    await addToCart(page, monitor!.name, 1);
    await page
      .getByRole('region', { name: 'Cart', exact: true })
      .getByRole('link', { name: 'Checkout' })
      .click();
    await fillRentalInformation(page);
    await page.getByRole('button', { name: 'Go To Payment' }).click();
    await expect(page).toHaveURL(/\/payment$/);
    await page.getByRole('textbox', { name: 'Card number' }).fill('4000 0000 0000 0002');
    await page.getByRole('textbox', { name: 'Expiration (MM / YY)' }).fill('1240');
    await page.getByRole('textbox', { name: 'CVC' }).fill('123');
    await page.getByText(/^I accept the rental terms/).click();
    await page.getByRole('button', { name: 'Pay now' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Payment failed Your card was declined.' });
    await expect(alert).toHaveText('Payment failed Your card was declined.');
    await expect(alert).toBeFocused();

    await page.getByRole('textbox', { name: 'Card number' }).fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/confirmation$/);
    await expect(page.getByRole('heading', { name: 'Thank you for your order' })).toBeFocused();
  });

  test('#14 quantity fields and their buttons name their product; order thumbnails are decorative', async ({
    page,
    request,
  }) => {
    const [monitor, second] = (await demoExpo(request)).products;
    await page.goto('/exhibitor_order/demo-expo');
    for (const item of [monitor!, second!]) {
      const card = product(page, item.name);
      await expect(card.getByRole('group', { name: `Quantity of ${item.name}`, exact: true })).toBeVisible();
      await expect(
        card.getByRole('button', { name: `Decrease Quantity of ${item.name}`, exact: true }),
      ).toBeVisible();
      await expect(
        card.getByRole('button', { name: `Increase Quantity of ${item.name}`, exact: true }),
      ).toBeVisible();
    }
    await addToCart(page, monitor!.name, 1);
    await page
      .getByRole('region', { name: 'Cart', exact: true })
      .getByRole('link', { name: 'Checkout' })
      .click();
    const summary = page.getByRole('region', { name: 'Your order' });
    await expect(summary.locator('img.store-table__thumbnail')).toHaveAttribute('alt', '');
    await expect(summary.getByRole('img')).toHaveCount(0);
  });

  test('#15 the closed demo store: its name agrees with its dates, and it promises no early-bird price', async ({
    page,
    request,
  }) => {
    const late = (
      (await (await request.get('/api/stores/demo-late')).json()) as {
        store: StoreJson & { store_text: string };
      }
    ).store;
    const year = /(\d{4})$/.exec(late.name)?.[1];
    expect(year).toBe(late.start_date.slice(0, 4));
    await page.goto('/exhibitor_order/demo-late');
    await expect(page.getByText(STORE_CLOSED_NOTICE)).toBeVisible();
    await expect(
      page.getByText(`${formatDate(late.start_date)} - ${formatDate(late.end_date)}`),
    ).toBeVisible();
    await expect(page.getByText(/early-bird/i)).toHaveCount(0);
  });
});

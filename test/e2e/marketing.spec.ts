import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import sqlite3 from 'sqlite3';
import { expect, test } from '../support/fixtures';

/** Every public page of SPEC §2 with its main heading. */
const PAGES: [path: string, h1: string | RegExp][] = [
  ['/', 'Event production, audiovisual and video for meetings that matter.'],
  ['/home', 'Event production, audiovisual and video for meetings that matter.'],
  ['/creative_services', "Video and presentations that hold a ballroom's attention"],
  ['/event_production', 'Audiovisual and event management from load-in to load-out'],
  ['/online_meetings', 'Bring the people who could not travel into the room'],
  ['/hottrends', 'Hot Trends: event technology, one short e-mail a month'],
  ['/about', 'About Northbeam Event Productions'],
  ['/event_planner', /one portal for speakers, registration and audience response/],
  ['/privacy', 'Privacy Policy'],
  ['/contact', 'Tell us about your meeting'],
  ['/social', 'Tell us about your meeting'],
  ['/blog', 'Notes from the production desk'],
  ['/coming_soon', 'Coming soon'],
];

const MESSAGES = {
  first: 'Must enter a first name.',
  last: 'Must enter a last name.',
  email: 'Invalid email address.',
  phone: 'Invalid phone number.',
  message: 'Please supply a message no larger than 300 characters.',
};

/** Page errors and React's hydration complaints: a prerendered page must hydrate cleanly. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && /hydrat|Minified React error|Content Security Policy/i.test(text))
      errors.push(text);
  });
  return errors;
}

function queryDb<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set');
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(join(dataDir, 'app.db'), sqlite3.OPEN_READONLY, (openError) => {
      if (openError) return reject(openError);
      db.all(sql, params, (error, rows) => {
        db.close();
        if (error) reject(error);
        else resolve(rows as T[]);
      });
    });
  });
}

async function emlFiles(): Promise<string[]> {
  const dir = join(process.env.E2E_DATA_DIR ?? '', 'mail');
  const names = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(names.filter((n) => n.endsWith('.eml')).map((n) => readFile(join(dir, n), 'utf8')));
}

const unique = (label: string) =>
  `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;

test.describe('public pages (SPEC §2)', () => {
  for (const [path, h1] of PAGES) {
    test(`${path} is served complete, hydrates cleanly and has its own title, description and canonical URL`, async ({
      page,
      request,
    }) => {
      // The HTML itself carries the content: a crawler without JavaScript sees the page.
      const raw = await request.get(path);
      expect(raw.status()).toBe(200);
      const html = await raw.text();
      expect(html).toContain('<h1');
      expect(html).toMatch(/<meta name="description" content="[^"]{50,}"/);
      expect(html).toContain('<link rel="canonical"');
      expect(html).toContain('"@type":"Organization"');

      const errors = watchErrors(page);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
      await expect(page).toHaveTitle(/Northbeam Event Productions/);
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()));
      // The contact panel is on every public page but /blog.
      expect(await page.locator('#contact').count()).toBe(path === '/blog' ? 0 : 1);
      await page.waitForLoadState('networkidle');
      expect(errors).toEqual([]);
    });
  }

  test('an unknown route answers 404 with the spec text, in the served HTML too', async ({
    page,
    request,
  }) => {
    const raw = await request.get('/no/such/page');
    expect(raw.status()).toBe(404);
    expect(await raw.text()).toContain('Sorry, Page Not Found.');
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sorry, Page Not Found.');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  });

  test('serves sitemap.xml and robots.txt for this address', async ({ request, baseURL }) => {
    const sitemap = await (await request.get('/sitemap.xml')).text();
    for (const path of ['/', '/creative_services', '/event_production', '/contact', '/privacy']) {
      expect(sitemap).toContain(`<loc>${baseURL}${path}</loc>`);
    }
    expect(sitemap).not.toContain(`${baseURL}/social<`);
    expect(await (await request.get('/robots.txt')).text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  test('each navigation scrolls to the top and updates title and canonical', async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Scrolled again on each try: the page's own scroll-to-top on arrival may land after the first one.
    await expect
      .poll(() =>
        page.evaluate(() => {
          window.scrollTo(0, document.body.scrollHeight);
          return window.scrollY;
        }),
      )
      .toBeGreaterThan(300);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Event Production' })
      .click();
    await expect(page).toHaveURL(/\/event_production$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Audiovisual and event management/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page).toHaveTitle(
      'Event Production: audiovisual and event management | Northbeam Event Productions',
    );
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      `${baseURL}/event_production`,
    );
  });

  test('#contact scrolls to the contact panel', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto('/contact#contact');
    await expect(page.locator('#contact')).toBeInViewport();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await page.goto('/social');
    await page.getByRole('link', { name: 'Go to the contact form' }).click();
    await expect(page).toHaveURL(/\/social#contact$/);
    await expect(page.locator('#contact')).toBeInViewport();
    await expect(page.locator('#contact').getByRole('heading', { name: 'Contact us' })).toBeVisible();
    await expect(page.locator('#contact')).toContainText('Chicago headquarters and warehouse');
    await expect(page.locator('#contact')).toContainText('Orlando convention office');
    await expect(page.locator('#contact')).toContainText('(312) 555-0142');
    await expect(page.locator('#contact')).toContainText('hello@northbeamevents.example');
  });

  test('the scroll-down hint takes the visitor to the client list of four paragraphs', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const clients = page.locator('#clients');
    await expect(clients.locator('article p')).toHaveCount(4);
    await page.getByRole('link', { name: 'Scroll down' }).click();
    await expect(clients).toBeInViewport();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    test(`at ${viewport.width}×${viewport.height} the scroll-down hint covers none of the panels' text`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto('/');
      const hint = page.getByRole('link', { name: 'Scroll down' });
      await expect(hint).toBeInViewport();
      const box = (await hint.boundingBox())!;
      const texts = page.locator('.splash__panel').locator('h2, p');
      await expect(texts).toHaveCount(6);
      for (const text of await texts.all()) {
        const other = (await text.boundingBox())!;
        const overlaps =
          box.x < other.x + other.width &&
          other.x < box.x + box.width &&
          box.y < other.y + other.height &&
          other.y < box.y + box.height;
        expect(overlaps, `the hint covers "${await text.textContent()}"`).toBe(false);
      }
    });
  }

  test('the mobile menu keeps the focus inside and closes with Escape', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/about');
    const toggle = page.getByRole('button', { name: 'Menu' });
    await toggle.click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press('Tab');
      expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();
    await toggle.click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Hot Trends' }).click();
    await expect(page).toHaveURL(/\/hottrends$/);
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
  });

  test('Getting Social makes no third-party request until the visitor asks for the feed', async ({
    page,
    baseURL,
  }) => {
    const outside: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(baseURL ?? '') && !req.url().startsWith('data:')) outside.push(req.url());
    });
    // The feed's own server is outside the test: answer it locally.
    await page.route('https://www.facebook.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Latest posts</p>' }),
    );
    await page.goto('/social');
    await expect(page.getByRole('heading', { name: 'Getting Social' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(outside).toEqual([]);
    await page.getByRole('button', { name: 'Show our latest Facebook posts' }).click();
    const frame = page.frameLocator('iframe[title="Our latest Facebook posts"]');
    await expect(frame.getByText('Latest posts')).toBeVisible();
    expect(outside.some((url) => url.startsWith('https://www.facebook.com/plugins/page.php'))).toBe(true);
  });
});

test.describe('galleries and the lightbox (SPEC §2, §4)', () => {
  test('the photo lightbox works from the keyboard and gives the focus back', async ({ page }) => {
    await page.goto('/event_production');
    const gallery = page.getByRole('list', { name: 'Photo gallery' });
    await expect(gallery.getByRole('button')).toHaveCount(90);
    const first = gallery.getByRole('button').first();
    await first.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('figcaption')).toContainText('1 / 90');
    const image = dialog.locator('img');
    await expect(image).toHaveAttribute('src', '/media/event_production/ep-001.jpg');
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await page.keyboard.press('ArrowRight');
    await expect(dialog.locator('figcaption')).toContainText('2 / 90');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(dialog.locator('figcaption')).toContainText('90 / 90');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(dialog.locator('figcaption')).toContainText('2 / 90');
    // Focus stays in the lightbox.
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(gallery.getByRole('button').nth(1)).toBeFocused();
  });

  test("the play badge of a video thumbnail keeps clear of the title drawn across the picture's middle", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/creative_services');
    const thumbs = page.getByRole('list', { name: 'Video gallery' }).getByRole('button');
    await expect(thumbs).toHaveCount(34);
    for (const index of [0, 5, 20]) {
      const thumb = thumbs.nth(index);
      await thumb.scrollIntoViewIfNeeded();
      const picture = (await thumb.boundingBox())!;
      const badge = (await thumb.locator('.gallery__play').boundingBox())!;
      // Titles are drawn centred, across the middle third of the picture's height.
      const bandTop = picture.y + picture.height / 3;
      const bandBottom = picture.y + (2 * picture.height) / 3;
      expect(badge.y + badge.height <= bandTop || badge.y >= bandBottom).toBe(true);
    }
  });

  test('#18 (issue 29) the lightbox backdrop is opaque: nothing of the page shows behind the photo', async ({
    page,
  }) => {
    for (const size of [
      { width: 1280, height: 800 },
      { width: 375, height: 812 },
    ]) {
      await page.setViewportSize(size);
      await page.goto('/event_production');
      await page.getByRole('list', { name: 'Photo gallery' }).getByRole('button').first().click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      // The overlay's colour has no transparency left for the page to show through.
      const alpha = await page.locator('.lightbox-overlay').evaluate((el) => {
        const colour = getComputedStyle(el).backgroundColor;
        const parts =
          /rgba?\(([^)]+)\)/
            .exec(colour)?.[1]
            ?.split(/[ ,/]+/)
            .filter(Boolean) ?? [];
        return parts.length === 4 ? Number(parts[3]) : 1;
      });
      expect(alpha, `${size.width} px`).toBe(1);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  });

  test('the video lightbox plays an mp4 and closes with its close button', async ({ page, request }) => {
    await page.goto('/creative_services');
    const gallery = page.getByRole('list', { name: 'Video gallery' });
    await expect(gallery.getByRole('button')).toHaveCount(34);
    await gallery.getByRole('button').nth(2).click();
    const dialog = page.getByRole('dialog');
    const video = dialog.locator('video');
    await expect(video.locator('source')).toHaveAttribute('src', '/media/creative_services/cs-03.mp4');
    const clip = await request.get('/media/creative_services/cs-03.mp4');
    expect(clip.status()).toBe(200);
    expect(clip.headers()['content-type']).toBe('video/mp4');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
    await page.keyboard.press('ArrowRight');
    await expect(video.locator('source')).toHaveAttribute('src', '/media/creative_services/cs-04.mp4');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(gallery.getByRole('button').nth(3)).toBeFocused();
  });
});

test.describe('contact form and newsletter (SPEC §2, §3, §4, §5, §7)', () => {
  test('shows each of the spec messages, and clears them on the next submit', async ({ page }) => {
    await page.goto('/contact#contact');
    const form = page.locator('#contact form');
    const send = form.getByRole('button', { name: 'Send message' });
    await send.click();
    for (const text of [MESSAGES.first, MESSAGES.last, MESSAGES.email, MESSAGES.message]) {
      await expect(form.getByText(text, { exact: true })).toBeVisible();
    }
    await expect(form.getByText(MESSAGES.phone)).toHaveCount(0);
    await form.getByLabel('First name').fill('Dana');
    await form.getByLabel('Phone').fill('555-12');
    await form.getByLabel('Message').fill('x'.repeat(301));
    await send.click();
    await expect(form.getByText(MESSAGES.first)).toHaveCount(0);
    await expect(form.getByText(MESSAGES.phone, { exact: true })).toBeVisible();
    await expect(form.getByText(MESSAGES.message, { exact: true })).toBeVisible();
    await expect(form.getByText('301/300')).toBeVisible();
    await form.getByLabel('E-mail').fill('dana@example');
    await send.click();
    await expect(form.getByText(MESSAGES.email, { exact: true })).toBeVisible();
    // Two columns with the form gutter on a wide screen.
    const [a, b] = await Promise.all([
      form.getByLabel('First name').boundingBox(),
      form.getByLabel('Last name').boundingBox(),
    ]);
    expect(a && b && Math.abs(a.y - b.y) < 2 && b.x > a.x + a.width).toBe(true);
  });

  test('a name, company or title over its bound says so under the field', async ({ page }) => {
    await page.goto('/contact#contact');
    const form = page.locator('#contact form');
    await form.getByLabel('First name').fill('D'.repeat(101));
    await form.getByLabel('Title').fill('T'.repeat(201));
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('Please use at most 100 characters.', { exact: true })).toBeVisible();
    await expect(form.getByText('Please use at most 200 characters.', { exact: true })).toBeVisible();
    await form.getByLabel('First name').fill('Dana');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('Please use at most 100 characters.', { exact: true })).toHaveCount(0);
    await expect(form.getByText('Please use at most 200 characters.', { exact: true })).toBeVisible();
  });

  test('a sent message is stored, queued to staff and written out; the form clears after 3 s', async ({
    page,
  }) => {
    const email = unique('dana');
    await page.goto('/contact#contact');
    const form = page.locator('#contact form');
    await form.getByLabel('First name').fill('Dana');
    await form.getByLabel('Last name').fill('Okafor');
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Phone').fill('(312) 555-0199');
    await form.getByLabel('Company').fill('Lakeshore Medical Association');
    await form.getByLabel('Title').fill('Meetings Director');
    await form
      .getByLabel('Message')
      .fill('Staging and two LED walls for a 900-person general session in October.');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText(/Thank you, Dana\. Your message is on its way/)).toBeVisible();
    await expect(form.getByLabel('First name')).toHaveValue('', { timeout: 6_000 });
    await expect(form.getByText(/Thank you, Dana/)).toHaveCount(0, { timeout: 6_000 });

    const rows = await queryDb<Record<string, unknown>>('SELECT * FROM contact_messages WHERE email = ?', [
      email,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      first_name: 'Dana',
      last_name: 'Okafor',
      company: 'Lakeshore Medical Association',
      phone: '(312) 555-0199',
      title: 'Meetings Director',
      subject: 'Website Inquiry',
      hottrends: 'NO',
    });
    await expect
      .poll(async () => (await emlFiles()).find((eml) => eml.includes(email)) ?? '', { timeout: 10_000 })
      .toMatch(/^Subject: Website Inquiry$/m);
    const mail = await queryDb<{ status: string; subject: string }>(
      'SELECT status, subject FROM mail_outbox WHERE text_body LIKE ?',
      [`%${email}%`],
    );
    expect(mail).toEqual([{ status: 'sent', subject: 'Website Inquiry' }]);
  });

  test('the Hot Trends dialog signs up with the newsletter subject', async ({ page }) => {
    const email = unique('lee');
    await page.goto('/hottrends');
    await expect(page.locator('.archive__issue')).toHaveCount(10);
    await expect(page.locator('.archive__date').first()).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    const open = page.getByRole('button', { name: 'Sign up for Hot Trends' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Sign up for Hot Trends' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Message')).toHaveCount(0);
    await expect(dialog.locator('input[name="subject"]')).toHaveValue(
      'User Signed Up For Hot Trends Newsletter',
    );
    await dialog.getByRole('button', { name: 'Sign up' }).click();
    await expect(dialog.getByText(MESSAGES.first, { exact: true })).toBeVisible();
    await dialog.getByLabel('First name').fill('Lee');
    await dialog.getByLabel('Last name').fill('Park');
    await dialog.getByLabel('E-mail').fill(email);
    await dialog.getByRole('button', { name: 'Sign up' }).click();
    await expect(dialog.getByText('Thank you, Lee. You are signed up for Hot Trends.')).toBeVisible();
    const rows = await queryDb<Record<string, unknown>>(
      'SELECT subject, hottrends, message FROM contact_messages WHERE email = ?',
      [email],
    );
    expect(rows).toEqual([
      { subject: 'User Signed Up For Hot Trends Newsletter', hottrends: 'YES', message: null },
    ]);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();
  });
});

test.describe('accessibility (axe-core)', () => {
  for (const [path] of PAGES) {
    test(`${path} has no axe violations`, async ({ page }) => {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  }

  test('the 404 page, the open lightbox, the newsletter dialog and the mobile menu have no axe violations', async ({
    page,
  }) => {
    // Four full axe analyses in one test: more than the default 30 s on a 2-core runner.
    test.slow();
    const check = async () => {
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    };
    await page.goto('/no/such/page');
    await check();
    await page.goto('/event_production');
    await page.getByRole('list', { name: 'Photo gallery' }).getByRole('button').first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await check();
    await page.goto('/hottrends');
    await page.getByRole('button', { name: 'Sign up for Hot Trends' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await check();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await check();
  });
});

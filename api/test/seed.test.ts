import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, dateInZone } from '@avp/shared';
import { DEMO_STORE_IDS, seedDemo } from '../src/db/seed-demo.js';
import type { Database } from '../src/db/index.js';
import { openTestDatabase } from './helpers/app.js';
import type { TestDatabase } from './helpers/app.js';
import { DIALECTS } from './helpers/env.js';

async function counts(db: Database) {
  const { Store, Product, StorePrice } = db.models;
  return { stores: await Store.count(), products: await Product.count(), prices: await StorePrice.count() };
}

let t: TestDatabase | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

describe('date helpers', () => {
  it('reads today in the store time zone and adds days across months', () => {
    const instant = new Date('2026-03-01T03:30:00Z');
    expect(dateInZone(instant, 'America/New_York')).toBe('2026-02-28');
    expect(dateInZone(instant, 'Europe/Paris')).toBe('2026-03-01');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-01-05', -10)).toBe('2025-12-26');
  });
});

describe.each(DIALECTS)('demo content on %s', (dialect) => {
  it('is idempotent: a second run changes nothing', async () => {
    t = await openTestDatabase(dialect);
    const first = await seedDemo(t.db, { timeZone: 'America/New_York' });
    const afterFirst = await counts(t.db);
    const stamps = (await t.db.models.Store.findAll({ order: [['id', 'ASC']] })).map((s) =>
      s.updatedAt.getTime(),
    );

    const second = await seedDemo(t.db, { timeZone: 'America/New_York' });
    expect(second.changed).toBe(0);
    expect(first.changed).toBe(afterFirst.stores + afterFirst.products + afterFirst.prices);
    expect(await counts(t.db)).toEqual(afterFirst);
    expect(afterFirst).toEqual({ stores: 4, products: first.products, prices: 4 * first.products });
    const again = (await t.db.models.Store.findAll({ order: [['id', 'ASC']] })).map((s) =>
      s.updatedAt.getTime(),
    );
    expect(again).toEqual(stamps);
  });

  it('gives every demo product a picture that the web app serves', async () => {
    t = await openTestDatabase(dialect);
    await seedDemo(t.db, { timeZone: 'America/New_York' });
    const publicDir = resolve(import.meta.dirname, '..', '..', 'web', 'public');
    const products = await t.db.models.Product.findAll();
    expect(products.length).toBeGreaterThanOrEqual(5);
    for (const product of products) {
      const images = product.images as unknown as string[];
      expect(images, product.name).toHaveLength(1);
      expect(images[0]).toMatch(/^\/media\/products\/demo-[a-z0-9-]+\.webp$/);
      expect(existsSync(join(publicDir, images[0]!)), images[0]).toBe(true);
    }
  });

  it('makes demo-expo open with priced products, and the other three closed', async () => {
    t = await openTestDatabase(dialect);
    await seedDemo(t.db, { timeZone: 'America/New_York' });
    const { Store, StorePrice, Product } = t.db.models;
    const today = dateInZone(new Date(), 'America/New_York');
    const stores = await Store.findAll();
    expect(stores.map((s) => s.slug).sort()).toEqual([...DEMO_STORE_IDS].sort());
    const byId = Object.fromEntries(stores.map((s) => [s.slug, s]));

    const expo = byId['demo-expo']!;
    expect(expo.name).toMatch(/^Demo Expo \d{4}$/);
    expect(expo).toMatchObject({ isActive: true, isArchived: false, orderCutoff: null });
    expect(expo.deadline >= addDays(today, 30)).toBe(true);
    expect(expo.startDate > expo.deadline).toBe(true);
    expect(expo.endDate > expo.startDate).toBe(true);
    expect(expo.storeText).toBeTruthy();
    expect(expo.emailText).toBeTruthy();

    const prices = await StorePrice.findAll({
      where: { storeId: expo.id },
      include: [{ model: Product, as: 'product' }],
    });
    const priced = prices.filter((p) => p.unitAmount > 0 && Number.isInteger(p.unitAmount));
    expect(priced.length).toBeGreaterThanOrEqual(5);

    expect(byId['demo-late']!.deadline < today).toBe(true);
    expect(byId['demo-late']!.isActive).toBe(true);
    expect(byId['demo-inactive']!.isActive).toBe(false);
    expect(byId['demo-archived']!.isArchived).toBe(true);
    for (const store of stores) {
      expect(await StorePrice.count({ where: { storeId: store.id } })).toBe(await Product.count());
    }
  });

  it('names each store with the year its own show starts, and promises no early-bird price once closed', async () => {
    t = await openTestDatabase(dialect);
    // Late November: the open store's show is in January, the late one's in November.
    await seedDemo(t.db, { timeZone: 'America/New_York', now: new Date('2026-11-25T21:39:00Z') });
    const stores = await t.db.models.Store.findAll();
    const byId = Object.fromEntries(stores.map((s) => [s.slug, s]));
    expect(byId['demo-expo']!.name).toBe('Demo Expo 2027');
    expect(byId['demo-late']!.name).toBe('Demo Late Show 2026');
    expect(byId['demo-late']!.startDate).toBe('2026-11-27');
    for (const store of stores) {
      const year = /\b(\d{4})$/.exec(store.name)?.[1];
      if (year) expect(store.startDate.slice(0, 4), store.name).toBe(year);
    }
    for (const slug of ['demo-late', 'demo-archived']) {
      expect(byId[slug]!.storeText, slug).not.toMatch(/early-bird|deadline/i);
    }
    expect(byId['demo-expo']!.storeText).toMatch(/early-bird/);
  });
});

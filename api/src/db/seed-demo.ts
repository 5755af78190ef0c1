import { addDays, dateInZone } from '@avp/shared';
import type { Model, Transaction } from 'sequelize';
import type { Database } from './connection.js';
import type { DateOnly, ProductCreation, StoreCreation } from './models/index.js';

/**
 * DESIGN 'Demo content': four stores that show each state a store can be in, and a booth A/V catalogue
 * priced in every one of them. Dates are relative to the day it runs (in TZ_STORE). Idempotent: stores are
 * matched by store_id, products by name and prices by (store, product); a second run changes nothing.
 */

export const DEMO_STORE_IDS = ['demo-expo', 'demo-late', 'demo-inactive', 'demo-archived'] as const;

interface DemoProduct {
  name: string;
  description: string;
  unitAmount: number;
  /** Its picture, drawn by `npm run media` (build/media/products.mjs) and served from the web app's media. */
  picture: string;
}

const PRODUCTS: DemoProduct[] = [
  {
    name: '55" LED Monitor with Floor Stand',
    description:
      'Full HD 55-inch commercial LED display on a height-adjustable floor stand, with HDMI input and a 25 ft cable.',
    unitAmount: 45000,
    picture: '/media/products/demo-led-monitor-55.webp',
  },
  {
    name: '70" 4K Display with Floor Stand',
    description:
      '70-inch 4K UHD display on a heavy-duty floor stand for loops, demos and presentations; HDMI and USB media playback.',
    unitAmount: 89500,
    picture: '/media/products/demo-4k-display-70.webp',
  },
  {
    name: 'Laptop Rental',
    description:
      'Current business laptop (Windows 11 or macOS on request) with Microsoft Office, Wi-Fi and a charger.',
    unitAmount: 32500,
    picture: '/media/products/demo-laptop.webp',
  },
  {
    name: 'Wireless Handheld Microphone',
    description: 'UHF wireless handheld microphone with receiver, fresh batteries and a desk stand.',
    unitAmount: 17500,
    picture: '/media/products/demo-wireless-microphone.webp',
  },
  {
    name: 'Powered Speaker Pair with Mixer',
    description:
      'Two 10-inch powered speakers on stands with a 4-channel mixer, for presentations and background music.',
    unitAmount: 39500,
    picture: '/media/products/demo-speakers-mixer.webp',
  },
  {
    name: "Projector with 8' Screen",
    description: "5,000-lumen HD projector with an 8' tripod screen, HDMI cabling and a projector stand.",
    unitAmount: 69500,
    picture: '/media/products/demo-projector-screen.webp',
  },
  {
    name: 'iPad Kiosk with Floor Stand',
    description:
      'Latest-generation iPad in a lockable floor kiosk, ready for lead capture, surveys or a looping demo.',
    unitAmount: 27500,
    picture: '/media/products/demo-ipad-kiosk.webp',
  },
  {
    name: 'Charging Station',
    description: 'Secure eight-device charging tower with lockers and USB-C, Lightning and micro-USB cables.',
    unitAmount: 22500,
    picture: '/media/products/demo-charging-station.webp',
  },
];

const STORE_TEXT =
  'Order by the deadline for 20% early-bird pricing. Equipment is delivered to your booth before the show ' +
  'opens and collected after it closes.';
/** For a store whose ordering is over: no promise of a price that can no longer be had. */
const CLOSED_STORE_TEXT =
  'Online ordering for this show has closed. For equipment at the show, please visit the A/V service desk.';
const EMAIL_TEXT =
  'Thank you for your order. Our crew will set up your equipment in your booth before the show opens. ' +
  'If anything is missing, bring this confirmation to the A/V service desk.';

/** The demo store's BCC address for order confirmations. */
export const DEMO_EXPO_BCC = 'av-orders@northbeam.example';

type DemoStore = Omit<StoreCreation, 'slug'> & { slug: (typeof DEMO_STORE_IDS)[number] };

function demoStores(today: DateOnly): DemoStore[] {
  const expoDeadline = addDays(today, 45);
  const expoStart = addDays(expoDeadline, 4);
  // Each name carries the year its own show starts in, so a name never contradicts its dates.
  const yearOf = (date: DateOnly) => date.slice(0, 4);
  const lateStart = addDays(today, 2);
  const inactiveStart = addDays(today, 45);
  const common = { image: null, orderCutoff: null, storeText: STORE_TEXT, emailText: EMAIL_TEXT, bcc: null };
  return [
    {
      ...common,
      slug: 'demo-expo',
      name: `Demo Expo ${yearOf(expoStart)}`,
      // Confirmation e-mails are blind-copied here (SPEC §2 'Email BCC'); the browser tests look for it.
      bcc: DEMO_EXPO_BCC,
      isActive: true,
      isArchived: false,
      deadline: expoDeadline,
      startDate: expoStart,
      endDate: addDays(expoStart, 2),
    },
    {
      // Past its deadline with the show days away: closed, because the cut-off defaults to the deadline.
      ...common,
      slug: 'demo-late',
      name: `Demo Late Show ${yearOf(lateStart)}`,
      storeText: CLOSED_STORE_TEXT,
      isActive: true,
      isArchived: false,
      deadline: addDays(today, -7),
      startDate: lateStart,
      endDate: addDays(lateStart, 2),
    },
    {
      ...common,
      slug: 'demo-inactive',
      name: `Demo Inactive Summit ${yearOf(inactiveStart)}`,
      isActive: false,
      isArchived: false,
      deadline: addDays(today, 40),
      startDate: inactiveStart,
      endDate: addDays(inactiveStart, 2),
    },
    {
      ...common,
      slug: 'demo-archived',
      name: 'Demo Archived Conference',
      storeText: CLOSED_STORE_TEXT,
      isActive: true,
      isArchived: true,
      deadline: addDays(today, -60),
      startDate: addDays(today, -55),
      endDate: addDays(today, -53),
    },
  ];
}

export interface SeedResult {
  stores: number;
  products: number;
  prices: number;
  /** Rows created or updated by this run; 0 when the demo content was already in place. */
  changed: number;
}

export async function seedDemo(db: Database, options: { timeZone: string; now?: Date }): Promise<SeedResult> {
  const { Store, Product, StorePrice } = db.models;
  const today = dateInZone(options.now ?? new Date(), options.timeZone);
  let changed = 0;

  // Creates the row, or updates only what differs; either counts as a change. Returns the row.
  async function upsert<M extends Model>(
    existing: M | null,
    values: object,
    create: () => Promise<M>,
    transaction: Transaction,
  ): Promise<M> {
    if (existing === null) {
      changed++;
      return create();
    }
    existing.set(values);
    if (existing.changed()) {
      changed++;
      await existing.save({ transaction });
    }
    return existing;
  }

  await db.sequelize.transaction(async (transaction) => {
    const stores = [];
    for (const values of demoStores(today)) {
      const existing = await Store.findOne({ where: { slug: values.slug }, transaction });
      stores.push(await upsert(existing, values, () => Store.create(values, { transaction }), transaction));
    }

    const products = [];
    for (const [index, product] of PRODUCTS.entries()) {
      const values: ProductCreation = {
        name: product.name,
        description: product.description,
        images: [product.picture],
        sortOrder: (index + 1) * 10,
        isActive: true,
      };
      const existing = await Product.findOne({
        where: { name: product.name },
        order: [['id', 'ASC']],
        transaction,
      });
      const row = await upsert(existing, values, () => Product.create(values, { transaction }), transaction);
      products.push({ row, unitAmount: product.unitAmount });
    }

    for (const store of stores) {
      for (const { row: product, unitAmount } of products) {
        const values = { storeId: store.id, productId: product.id, unitAmount, currency: 'usd' };
        const existing = await StorePrice.findOne({
          where: { storeId: store.id, productId: product.id },
          transaction,
        });
        await upsert(existing, values, () => StorePrice.create(values, { transaction }), transaction);
      }
    }

    // Store pages are held in memory by every API process, checked against stores.version (modules/store).
    if (changed > 0) await Store.increment('version', { where: {}, silent: true, transaction });
  });

  return {
    stores: DEMO_STORE_IDS.length,
    products: PRODUCTS.length,
    prices: DEMO_STORE_IDS.length * PRODUCTS.length,
    changed,
  };
}

/** True when the database has no store at all: start-up seeds the demo content only then. */
export async function hasNoStores(db: Database): Promise<boolean> {
  return (await db.models.Store.count()) === 0;
}

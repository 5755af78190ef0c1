import { priceOrder, quantitySchema } from '@avp/shared';
import type { OrderAmounts, PricedLine, PublicProduct } from '@avp/shared';
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import type { StoreInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { storeProducts } from '../store/catalogue.js';

/** A cart as the browser sends it (product ids and counts, never a price), and its pricing by the server. */

export const UNKNOWN_PRODUCT = 'A product in the cart is not sold in this store.';
export const DUPLICATE_PRODUCT = 'A product may appear only once in the cart.';
export const CART_EMPTY_ERROR = 'The cart is empty.';
export const MIXED_CURRENCIES = 'The products in the cart are priced in different currencies.';
export const CART_MAX_LINES = 100;

const cartLineSchema = z.object({
  productId: z.number({ error: UNKNOWN_PRODUCT }).int(UNKNOWN_PRODUCT).positive(UNKNOWN_PRODUCT),
  count: quantitySchema,
});

export const cartInputSchema = z
  .array(cartLineSchema, { error: CART_EMPTY_ERROR })
  .min(1, CART_EMPTY_ERROR)
  .max(CART_MAX_LINES)
  .superRefine((lines, ctx) => {
    const seen = new Set<number>();
    lines.forEach((line, index) => {
      if (seen.has(line.productId)) {
        ctx.addIssue({ code: 'custom', message: DUPLICATE_PRODUCT, path: [index, 'productId'] });
      }
      seen.add(line.productId);
    });
  });
export type CartInput = z.infer<typeof cartInputSchema>;

/** A cart priced from the store's own prices: the amounts every answer about the order carries. */
export type PricedCart = OrderAmounts;

/** Prices a cart from the store's own prices with the shared pricing module, the deadline judged at `now`. */
export async function priceCart(
  db: Database,
  store: StoreInstance,
  cart: CartInput,
  now: Date,
  timeZone: string,
  transaction?: Transaction,
): Promise<PricedCart> {
  return priceCartFrom(await storeProducts(db, store.id, transaction), store, cart, now, timeZone);
}

/** priceCart with the store's products read already (storeProducts). */
export function priceCartFrom(
  storeProductList: readonly PublicProduct[],
  store: StoreInstance,
  cart: CartInput,
  now: Date,
  timeZone: string,
): PricedCart {
  const products = new Map(storeProductList.map((p) => [p.id, p]));
  const fields: Record<string, string> = {};
  const lines: PricedLine[] = [];
  const currencies = new Set<string>();
  cart.forEach(({ productId, count }, index) => {
    const product = products.get(productId);
    if (!product) {
      fields[`cart.${index}.productId`] = UNKNOWN_PRODUCT;
      return;
    }
    currencies.add(product.currency);
    lines.push({
      productId,
      name: product.name,
      unitAmount: product.price,
      quantity: count,
      lineTotal: product.price * count,
    });
  });
  if (Object.keys(fields).length > 0) throw new AppError(400, 'unknown_product', UNKNOWN_PRODUCT, fields);
  if (currencies.size > 1) throw new AppError(400, 'mixed_currencies', MIXED_CURRENCIES);
  const price = priceOrder(
    lines.map((line) => ({ unitAmount: line.unitAmount, quantity: line.quantity })),
    { deadline: store.deadline, now, timeZone },
  );
  return { lines, currency: [...currencies][0] ?? 'usd', ...price };
}

import { cartPriceLines, priceOrder } from '@avp/shared';
import type { StoreData } from './api';
import type { Cart } from './state';
import type { SummaryAmounts, SummaryLine } from './components/CartSummary';

/**
 * The browser's preview of the order's amounts, from the shared pricing module with the store's own prices
 * and deadline. The server prices the order again when it is submitted; these numbers are only shown.
 */
export function previewAmounts(store: StoreData, cart: Cart): SummaryAmounts {
  return priceOrder(cartPriceLines(cart), {
    deadline: store.deadline,
    now: new Date(),
    timeZone: store.time_zone,
  });
}

/** Cart lines against the store's current catalogue: a product no longer sold here drops out. */
export function currentCart(store: StoreData, cart: Cart): Cart {
  const products = new Map(store.products.map((p) => [p.id, p]));
  return cart.flatMap((line) => {
    const product = products.get(line.product.id);
    return product ? [{ product, count: line.count }] : [];
  });
}

export function summaryLines(cart: Cart): SummaryLine[] {
  return cart.map(({ product, count }) => ({
    key: product.id,
    name: product.name,
    picture: product.images[0] ?? null,
    quantity: count,
    unitAmount: product.price,
    lineTotal: product.price * count,
  }));
}

export function currencyOf(store: StoreData): string {
  return store.products[0]?.currency ?? 'usd';
}

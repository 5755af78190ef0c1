/**
 * What is left of a limited product, as this exhibitor sees it (issue #32). The store's answer counts every
 * live hold as taken, this browser's own order's too; so what this exhibitor can still have is what is left
 * plus what their own order holds, until that hold runs out.
 */
import type { StoreProduct, StoredIntent } from './api';
import type { Cart } from './state';

/** One cart line asking for more than there is. */
export interface Shortage {
  productId: number;
  name: string;
  /** What the cart can have: 0 is sold out. */
  left: number;
  requested: number;
}

export const SOLD_OUT = 'Sold out';

export function onlyLeft(left: number): string {
  return `Only ${left} left`;
}

/** A shortage in words, before the exhibitor has chosen anything. */
export function shortageText({ name, left, requested }: Shortage): string {
  return left === 0
    ? `${name} is sold out; your cart has ${requested}.`
    : `Only ${left} ${name} left; your cart has ${requested}.`;
}

/** The same line once the exhibitor has set the cart to what is left. */
export function adjustedText({ name, left }: Shortage): string {
  return left === 0
    ? `${name} is sold out; it is no longer in your cart.`
    : `Only ${left} ${name} left; your cart now has ${left}.`;
}

export function adjustLabel(shortages: Shortage[]): string {
  const only = shortages.length === 1 ? shortages[0] : undefined;
  if (only) return only.left === 0 ? `Remove ${only.name} from the cart` : `Set the cart to ${only.left}`;
  return 'Set the cart to what is left';
}

/** Whether the kept order's hold still stands, by this browser's clock. */
export function holdLive(intent: StoredIntent | null, now = Date.now()): boolean {
  return Boolean(intent?.holdExpiresAt && Date.parse(intent.holdExpiresAt) > now);
}

function ownHeld(intent: StoredIntent | null, productId: number, now: number): number {
  if (!intent || !holdLive(intent, now)) return 0;
  return intent.held?.[productId] ?? 0;
}

/** What this exhibitor can have of a product; null when the store sets no limit. */
export function availableTo(
  product: StoreProduct,
  intent: StoredIntent | null,
  now = Date.now(),
): number | null {
  if (!product.stock) return null;
  return Math.max(0, product.stock.left) + ownHeld(intent, product.id, now);
}

/** How the product card names its stock: sold out, 'Only N left' when few remain, else nothing. */
export function stockLabel(
  product: StoreProduct,
  intent: StoredIntent | null,
  now = Date.now(),
): string | null {
  const left = availableTo(product, intent, now);
  if (left === null) return null;
  if (left === 0) return SOLD_OUT;
  return product.stock?.low ? onlyLeft(left) : null;
}

/** The cart's lines that ask for more than this exhibitor can have. */
export function cartShortages(cart: Cart, intent: StoredIntent | null, now = Date.now()): Shortage[] {
  return cart.flatMap(({ product, count }) => {
    const left = availableTo(product, intent, now);
    return left !== null && count > left
      ? [{ productId: product.id, name: product.name, left, requested: count }]
      : [];
  });
}

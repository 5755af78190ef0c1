/** Cart changes of SPEC §4 'Cart', kept pure so the stored cart and the server's order agree. */
import { QUANTITY_MAX, QUANTITY_MIN } from './constants.js';
import type { PriceLine } from './pricing.js';

export interface CartLine<P extends { id: string | number; price: number }> {
  product: P;
  count: number;
}

/**
 * Sets a product's count: 0 removes it, a product not yet in the cart is appended, and the cart's order
 * is otherwise kept. Counts outside 0..25 are a programming error, not user input, hence the throw.
 */
export function setCartCount<P extends { id: string | number; price: number }>(
  cart: readonly CartLine<P>[],
  product: P,
  count: number,
): CartLine<P>[] {
  if (!Number.isInteger(count) || count < 0 || count > QUANTITY_MAX) {
    throw new RangeError(`Count must be a whole number from 0 to ${QUANTITY_MAX} (got ${count})`);
  }
  const rest = cart.filter((line) => line.product.id !== product.id);
  if (count < QUANTITY_MIN) return rest;
  if (rest.length === cart.length) return [...cart, { product, count }];
  return cart.map((line) => (line.product.id === product.id ? { product, count } : line));
}

export function cartPriceLines(
  cart: readonly CartLine<{ id: string | number; price: number }>[],
): PriceLine[] {
  return cart.map(({ product, count }) => ({ unitAmount: product.price, quantity: count }));
}

export function cartItemCount(cart: readonly { count: number }[]): number {
  return cart.reduce((sum, line) => sum + line.count, 0);
}

import { describe, expect, it } from 'vitest';
import { cartItemCount, cartPriceLines, setCartCount, type CartLine } from './cart.js';

const mic = { id: 'mic', price: 2_500 };
const tv = { id: 7, price: 40_000 };
const cart: CartLine<{ id: string | number; price: number }>[] = [
  { product: mic, count: 2 },
  { product: tv, count: 1 },
];

describe('SPEC §4 Cart: add, update, remove with count 0', () => {
  it.each([
    ['adds a new product at the end', { id: 'cable', price: 500 }, 3, ['mic:2', '7:1', 'cable:3']],
    ['updates a count in place', mic, 5, ['mic:5', '7:1']],
    ['updates by numeric id', tv, 25, ['mic:2', '7:25']],
    ['removes with 0', mic, 0, ['7:1']],
    ['removing an absent product changes nothing', { id: 'none', price: 1 }, 0, ['mic:2', '7:1']],
  ] as const)('%s', (_name, product, count, expected) => {
    const next = setCartCount(cart, product, count);
    expect(next.map((line) => `${line.product.id}:${line.count}`)).toEqual(expected);
    expect(cart.map((line) => line.count)).toEqual([2, 1]); // never mutated
  });

  it.each([-1, 26, 1.5, Number.NaN])('rejects a count of %s', (count) => {
    expect(() => setCartCount(cart, mic, count)).toThrow(RangeError);
  });

  it('turns the cart into price lines and counts items', () => {
    expect(cartPriceLines(cart)).toEqual([
      { unitAmount: 2_500, quantity: 2 },
      { unitAmount: 40_000, quantity: 1 },
    ]);
    expect(cartItemCount(cart)).toBe(3);
    expect(cartItemCount([])).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import type { StoredIntent, StoreProduct } from './api';
import { clockText, minutesLeftText } from './components/HoldTimer';
import { adjustedText, adjustLabel, availableTo, cartShortages, shortageText, stockLabel } from './stock';

const NOW = Date.parse('2026-11-26T12:00:00Z');

function product(id: number, stock: StoreProduct['stock'], name = 'Projector XGA'): StoreProduct {
  return {
    id,
    name,
    description: '',
    images: [],
    default_price: null,
    metadata: { order: id },
    price: 5000,
    currency: 'usd',
    stock,
  };
}

function intent(held: Record<number, number>, expiresAt: string): StoredIntent {
  return {
    orderId: 'o1',
    token: 't',
    clientSecret: 's',
    intentID: 'pi',
    gateway: 'test-gateway',
    holdExpiresAt: expiresAt,
    held,
  };
}

describe('what an exhibitor is told is left', () => {
  it('names few left and sold out, nothing for plenty or no limit', () => {
    expect(stockLabel(product(1, { left: 2, low: true }), null, NOW)).toBe('Only 2 left');
    expect(stockLabel(product(1, { left: 0, low: true }), null, NOW)).toBe('Sold out');
    expect(stockLabel(product(1, { left: 40, low: false }), null, NOW)).toBeNull();
    expect(stockLabel(product(1, null), null, NOW)).toBeNull();
  });

  it("counts this browser's own live hold as its own, and not once the hold has ended", () => {
    const p = product(1, { left: 0, low: true });
    const live = intent({ 1: 3 }, '2026-11-26T12:10:00Z');
    const ended = intent({ 1: 3 }, '2026-11-26T11:59:59Z');
    expect(availableTo(p, live, NOW)).toBe(3);
    expect(stockLabel(p, live, NOW)).toBe('Only 3 left');
    expect(availableTo(p, ended, NOW)).toBe(0);
    expect(stockLabel(p, ended, NOW)).toBe('Sold out');
    expect(availableTo(product(1, null), live, NOW)).toBeNull();
  });

  it('finds the cart lines that ask for more than is left', () => {
    const scarce = product(1, { left: 2, low: true });
    const gone = product(2, { left: 0, low: true }, 'LED Wall');
    const free = product(3, null, 'Lectern Mic');
    const cart = [
      { product: scarce, count: 3 },
      { product: gone, count: 1 },
      { product: free, count: 25 },
    ];
    expect(cartShortages(cart, null, NOW)).toEqual([
      { productId: 1, name: 'Projector XGA', left: 2, requested: 3 },
      { productId: 2, name: 'LED Wall', left: 0, requested: 1 },
    ]);
    expect(cartShortages([{ product: scarce, count: 2 }], null, NOW)).toEqual([]);
  });

  it('words a shortage before and after the click, and the button', () => {
    const short = { productId: 1, name: 'Projector XGA', left: 2, requested: 3 };
    const gone = { productId: 2, name: 'LED Wall', left: 0, requested: 1 };
    expect(shortageText(short)).toBe('Only 2 Projector XGA left; your cart has 3.');
    expect(adjustedText(short)).toBe('Only 2 Projector XGA left; your cart now has 2.');
    expect(shortageText(gone)).toBe('LED Wall is sold out; your cart has 1.');
    expect(adjustedText(gone)).toBe('LED Wall is sold out; it is no longer in your cart.');
    expect(adjustLabel([short])).toBe('Set the cart to 2');
    expect(adjustLabel([gone])).toBe('Remove LED Wall from the cart');
    expect(adjustLabel([short, gone])).toBe('Set the cart to what is left');
  });

  it("writes the hold's time left as m:ss and its marks in words", () => {
    expect(clockText(20 * 60)).toBe('20:00');
    expect(clockText(61.2)).toBe('1:02');
    expect(clockText(-5)).toBe('0:00');
    expect(minutesLeftText(1)).toBe('Less than 1 minute left to pay before your hold ends.');
    expect(minutesLeftText(5)).toBe('Less than 5 minutes left to pay before your hold ends.');
  });
});

/**
 * The exhibitor's client state (SPEC §3/§4: 'Cart and customer info persist in local storage'), in the
 * widget kit's keyed store: per store the cart, the rental information and the order in progress; and the
 * store the exhibitor is ordering from (the /payment route has no store id in it) and the last payment
 * result (the /confirmation route).
 */
import { setCartCount, type CartLine, type CheckoutForm } from '@avp/shared';
import { createKeyedStore, useKeyedStore } from '../../ui';
import type { StoredIntent, StoreProduct } from './api';

export type Cart = CartLine<StoreProduct>[];

/** The form's values as typed (strings), plus the onsite checkbox. */
export type CustomerDraft = Partial<Record<keyof CheckoutForm, string>> & { onsiteSame?: boolean };

export interface PaymentReceiptRef {
  orderId: string;
  token: string;
  storeId: string;
}

const PERSISTED = /^(cart|customer|intent):|^(current-store|payment-result)$/;

export const storeState = createKeyedStore({ prefix: 'avp:store:', persist: (name) => PERSISTED.test(name) });

const EMPTY_CART: Cart = [];

export const keys = {
  cart: (storeId: string) => `cart:${storeId}`,
  customer: (storeId: string) => `customer:${storeId}`,
  intent: (storeId: string) => `intent:${storeId}`,
  currentStore: 'current-store',
  paymentResult: 'payment-result',
};

export function useCart(storeId: string) {
  const { data, setData } = useKeyedStore<Cart>(storeState, keys.cart(storeId));
  return { cart: data ?? EMPTY_CART, setCart: setData };
}

/** Sets a product's count (0 removes it); the order in progress will be repriced when submitted. */
export function setCount(storeId: string, product: StoreProduct, count: number): void {
  storeState.setData<Cart>(keys.cart(storeId), (cart) => setCartCount(cart ?? EMPTY_CART, product, count));
}

/**
 * Counts typed in the cart but not yet applied with Update, per store. Leaving the cart for checkout
 * applies them (applyPendingCounts): what the exhibitor sees in the cart is what the checkout prices.
 */
const pendingCounts = new Map<string, Map<number, { product: StoreProduct; count: number }>>();

export function setPendingCount(storeId: string, product: StoreProduct, count: number | null): void {
  const store = pendingCounts.get(storeId) ?? new Map<number, { product: StoreProduct; count: number }>();
  if (count === null) store.delete(product.id);
  else store.set(product.id, { product, count });
  if (store.size === 0) pendingCounts.delete(storeId);
  else pendingCounts.set(storeId, store);
}

export function applyPendingCounts(storeId: string): void {
  const store = pendingCounts.get(storeId);
  if (!store) return;
  pendingCounts.delete(storeId);
  for (const { product, count } of store.values()) setCount(storeId, product, count);
}

export function useCustomerDraft(storeId: string) {
  const { data, setData } = useKeyedStore<CustomerDraft>(storeState, keys.customer(storeId));
  return { draft: data, setDraft: setData };
}

export function useStoredIntent(storeId: string | undefined) {
  const { data, setData } = useKeyedStore<StoredIntent | null>(storeState, keys.intent(storeId ?? ''));
  return { intent: storeId ? (data ?? null) : null, setIntent: setData };
}

export function useCurrentStoreId(): string | undefined {
  return useKeyedStore<string>(storeState, keys.currentStore).data;
}

export function setCurrentStore(storeId: string): void {
  if (storeState.get<string>(keys.currentStore).data !== storeId)
    storeState.setData(keys.currentStore, storeId);
}

/** SPEC §2: choosing a store in the selector clears its cached cart (and the order made for it). */
export function clearCart(storeId: string): void {
  storeState.clear(keys.cart(storeId));
  storeState.clear(keys.intent(storeId));
}

export function forgetIntent(storeId: string): void {
  storeState.clear(keys.intent(storeId));
}

export function usePaymentResult() {
  return useKeyedStore<PaymentReceiptRef>(storeState, keys.paymentResult).data;
}

/** On success: the cache is cleared and the result kept for the confirmation page (SPEC §2, §4). */
export function recordPayment(result: PaymentReceiptRef): void {
  storeState.setData(keys.paymentResult, result);
  clearCart(result.storeId);
}

/** The cart as the server takes it: product ids and counts only. */
export function cartRequest(cart: Cart) {
  return cart.map(({ product, count }) => ({ productId: product.id, count }));
}

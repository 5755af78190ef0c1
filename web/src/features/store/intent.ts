/**
 * The order in progress (SPEC §4 'Payment': the intent is created when a store with a non-empty cart loads
 * and updated on submit). One create at a time per store, whichever page asks; the result is kept in the
 * keyed store so a reload carries on with the same order.
 */
import { useEffect, useState } from 'react';
import { storeApi, StoreApiError, type StoreData, type StoredIntent } from './api';
import { cartRequest, forgetIntent, keys, storeState, useStoredIntent, type Cart } from './state';

const inflight = new Map<string, Promise<StoredIntent>>();

export function ensureIntent(store: StoreData, cart: Cart): Promise<StoredIntent> {
  const id = store.store_id;
  const existing = storeState.get<StoredIntent | null>(keys.intent(id)).data;
  if (existing && existing.gateway === store.gateway && existing.publicKey === store.publicKey) {
    return Promise.resolve(existing);
  }
  let pending = inflight.get(id);
  if (!pending) {
    pending = storeApi
      .createIntent(id, cartRequest(cart))
      .then((created) => {
        const stored: StoredIntent = {
          orderId: created.orderId,
          token: created.token,
          clientSecret: created.clientSecret,
          intentID: created.intentID,
          gateway: created.gateway,
          ...(created.publicKey ? { publicKey: created.publicKey } : {}),
        };
        storeState.setData(keys.intent(id), stored);
        return stored;
      })
      .finally(() => inflight.delete(id));
    inflight.set(id, pending);
  }
  return pending;
}

/** The kept order can no longer be used (paid elsewhere, or unknown): start a new one. */
export function renewIntent(store: StoreData, cart: Cart): Promise<StoredIntent> {
  forgetIntent(store.store_id);
  return ensureIntent(store, cart);
}

export function isStaleIntentError(error: unknown): boolean {
  return (
    error instanceof StoreApiError &&
    (error.status === 404 ||
      (error.status === 409 && ['order_not_pending', 'wrong_gateway'].includes(error.code)))
  );
}

/** The intent of an open store with items in the cart, created on first need. */
export function useOrderIntent(store: StoreData | undefined, cart: Cart) {
  const { intent } = useStoredIntent(store?.store_id);
  const [failure, setFailure] = useState<{ attempt: number; error: StoreApiError | Error } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const wanted = Boolean(store && !store.closed && cart.length > 0);
  const usable = intent && store && intent.gateway === store.gateway && intent.publicKey === store.publicKey;

  useEffect(() => {
    if (!wanted || usable || !store) return;
    let live = true;
    ensureIntent(store, cart).catch((error: unknown) => {
      if (live) setFailure({ attempt, error: error instanceof Error ? error : new Error(String(error)) });
    });
    return () => {
      live = false;
    };
    // The cart at the moment the intent is made is enough: it is repriced on submit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, usable, store, attempt]);

  return {
    intent: usable ? intent : null,
    error: failure && failure.attempt === attempt ? failure.error : null,
    retry: () => setAttempt((n) => n + 1),
  };
}

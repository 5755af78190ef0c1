/**
 * The order in progress (SPEC §4 'Payment': the intent is created when a store with a non-empty cart loads
 * and updated on submit). One create at a time per store, whichever page asks: every create goes through
 * the same query key, so a second ask while one is under way shares its answer. The result is kept in the
 * keyed store (localStorage), not in the query cache, so a reload carries on with the same order.
 */
import { skipToken, useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { heldOf, storeApi, type StoreData, type StoredIntent } from './api';
import { cartRequest, forgetIntent, keys, storeState, useStoredIntent, type Cart } from './state';

const intentKey = (storeId: string) => ['store', 'intent', storeId] as const;

function usableIntent(store: StoreData): StoredIntent | null {
  const existing = storeState.get<StoredIntent | null>(keys.intent(store.store_id)).data;
  return existing && existing.gateway === store.gateway && existing.publicKey === store.publicKey
    ? existing
    : null;
}

/** The kept intent when it still fits the store, else a new one, kept for the next page. */
async function keptOrCreated(store: StoreData, cart: Cart): Promise<StoredIntent> {
  const existing = usableIntent(store);
  if (existing) return existing;
  const id = store.store_id;
  const created = await storeApi.createIntent(id, cartRequest(cart));
  const stored: StoredIntent = {
    orderId: created.orderId,
    token: created.token,
    clientSecret: created.clientSecret,
    intentID: created.intentID,
    gateway: created.gateway,
    ...(created.publicKey ? { publicKey: created.publicKey } : {}),
    holdExpiresAt: created.holdExpiresAt ?? null,
    held: heldOf(created),
  };
  storeState.setData(keys.intent(id), stored);
  return stored;
}

function intentQuery(store: StoreData, cart: Cart) {
  // Never served from the cache: the keyed store is the one record of the order.
  return { queryKey: intentKey(store.store_id), queryFn: () => keptOrCreated(store, cart), gcTime: 0 };
}

function ensureIntent(queryClient: QueryClient, store: StoreData, cart: Cart): Promise<StoredIntent> {
  const existing = usableIntent(store);
  if (existing) return Promise.resolve(existing);
  return queryClient.fetchQuery(intentQuery(store, cart));
}

/** The kept order can no longer be used (paid elsewhere, or unknown): start a new one. */
export function renewIntent(queryClient: QueryClient, store: StoreData, cart: Cart): Promise<StoredIntent> {
  forgetIntent(store.store_id);
  return ensureIntent(queryClient, store, cart);
}

export function isStaleIntentError(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 404 ||
      (error.status === 409 && ['order_not_pending', 'wrong_gateway'].includes(error.code)))
  );
}

/** The intent of an open store with items in the cart, created on first need. */
export function useOrderIntent(store: StoreData | undefined, cart: Cart) {
  const { intent } = useStoredIntent(store?.store_id);
  const wanted = Boolean(store && !store.closed && cart.length > 0);
  const usable = intent && store && intent.gateway === store.gateway && intent.publicKey === store.publicKey;
  // The cart at the moment the intent is made is enough: it is repriced on submit.
  const query = useQuery({
    queryKey: intentKey(store?.store_id ?? ''),
    queryFn: store ? () => keptOrCreated(store, cart) : skipToken,
    gcTime: 0,
    enabled: wanted && !usable,
  });
  const failed = query.isError && !query.isFetching ? query.error : null;
  return {
    intent: usable ? intent : null,
    error: failed,
    retry: () => void query.refetch(),
  };
}

/** A new hold on the kept order (an update answered): its end and units are kept with the order. */
export function recordHold(
  storeId: string,
  intent: StoredIntent,
  answer: { holdExpiresAt?: string | null; lines: { productId: number; quantity: number }[] },
): StoredIntent {
  const next: StoredIntent = { ...intent, holdExpiresAt: answer.holdExpiresAt ?? null, held: heldOf(answer) };
  const kept = storeState.get<StoredIntent | null>(keys.intent(storeId)).data;
  if (kept?.orderId === intent.orderId) storeState.setData(keys.intent(storeId), next);
  return next;
}

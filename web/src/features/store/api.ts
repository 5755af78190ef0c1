/**
 * The store's calls (docs/api.md 'Store'), through the app's one HTTP client: errors are ApiErrors that keep
 * the server's code, message and field messages, so a page can show the spec's texts; a network failure
 * has status 0.
 */
import type {
  CartRequestLine,
  CreatedIntent,
  OrderReceipt,
  PaymentGatewayKind as GatewayKind,
  PaymentResult,
  PublicStore as StoreData,
  StoreSummary,
  UpdatedIntent,
} from '@avp/shared';
import { apiRequest, type HttpMethod } from '../../lib/api';

// The server's answers, typed once in shared/ for both sides; the names the store pages use.
export type {
  CartRequestLine,
  OrderAmounts,
  OrderReceipt,
  PaymentGatewayKind as GatewayKind,
  PaymentResult,
  PricedLine as OrderLine,
  PublicProduct as StoreProduct,
  PublicStore as StoreData,
  StoreSummary,
} from '@avp/shared';

/** What this browser keeps to carry on with its order (localStorage, per store). */
export type StoredIntent = Pick<
  CreatedIntent,
  'orderId' | 'token' | 'clientSecret' | 'intentID' | 'publicKey'
> & {
  gateway: GatewayKind;
};

function call<T>(method: HttpMethod, path: string, body?: unknown, token?: string): Promise<T> {
  return apiRequest<T>(method, path, body, token ? { headers: { 'X-Order-Token': token } } : {});
}

export const storeApi = {
  listStores: () => call<{ stores: StoreSummary[] }>('GET', '/api/stores').then((r) => r.stores),
  getStore: (storeId: string) =>
    call<{ store: StoreData }>('GET', `/api/stores/${encodeURIComponent(storeId)}`).then((r) => r.store),
  createIntent: (storeId: string, cart: CartRequestLine[]) =>
    call<CreatedIntent>('POST', `/api/stores/${encodeURIComponent(storeId)}/payment-intents`, { cart }),
  updateIntent: (intent: StoredIntent, cart: CartRequestLine[], customer: unknown) =>
    call<UpdatedIntent>('PUT', `/api/orders/${intent.orderId}`, { cart, customer }, intent.token),
  payWithTestCard: (intent: StoredIntent, card: { number: string; expiry: string; cvc: string }) =>
    call<PaymentResult>('POST', `/api/orders/${intent.orderId}/pay`, { card }, intent.token),
  confirm: (order: { orderId: string; token: string }) =>
    call<PaymentResult>('POST', `/api/orders/${order.orderId}/confirm`, {}, order.token),
  getOrder: (order: { orderId: string; token: string }) =>
    call<{ order: OrderReceipt }>('GET', `/api/orders/${order.orderId}`, undefined, order.token).then(
      (r) => r.order,
    ),
};

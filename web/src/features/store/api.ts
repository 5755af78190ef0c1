/**
 * The store's calls (docs/api.md 'Store'). Errors keep the server's code, message and field messages, so a
 * page can show the spec's texts; a network failure has status 0.
 */

// The server's answers, typed once in shared/ for both sides; the names the store pages use.
export type {
  PaymentGatewayKind as GatewayKind,
  PublicProduct as StoreProduct,
  PublicStore as StoreData,
  StoreSummary,
} from '@avp/shared';
import type { PaymentGatewayKind as GatewayKind, PublicStore as StoreData, StoreSummary } from '@avp/shared';

/** What this browser keeps to carry on with its order (localStorage, per store). */
export interface StoredIntent {
  orderId: string;
  token: string;
  clientSecret: string;
  intentID: string;
  gateway: GatewayKind;
  publicKey?: string;
}

export interface OrderLine {
  productId: number;
  name: string;
  unitAmount: number;
  quantity: number;
  lineTotal: number;
}

export interface OrderAmounts {
  currency: string;
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  earlyBird: boolean;
  lines: OrderLine[];
}

export interface PaymentResult {
  orderId: string;
  status: string;
  confirmation: string | null;
  paymentIntent: { id: string; amount: number; currency: string; status: string };
}

export interface OrderReceipt extends OrderAmounts {
  id: string;
  status: string;
  confirmation: string | null;
  paidAt: string | null;
  email: string;
  card: string | null;
  store: Pick<StoreData, 'store_id' | 'name' | 'image' | 'start_date' | 'end_date' | 'store_text'>;
}

export interface CartRequestLine {
  productId: number;
  count: number;
}

export class StoreApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'StoreApiError';
  }
}

export const NETWORK_ERROR = 'Could not reach the server. Please check your connection and try again.';

async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { 'X-Order-Token': token } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new StoreApiError(0, 'network', NETWORK_ERROR);
  }
  let parsed: unknown;
  try {
    parsed = await res.json();
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; fields?: Record<string, string> } })
      ?.error;
    throw new StoreApiError(
      res.status,
      error?.code ?? 'http_error',
      error?.message ?? `The server answered ${res.status}.`,
      error?.fields ?? {},
    );
  }
  return parsed as T;
}

export const storeApi = {
  listStores: () => call<{ stores: StoreSummary[] }>('GET', '/api/stores').then((r) => r.stores),
  getStore: (storeId: string) =>
    call<{ store: StoreData }>('GET', `/api/stores/${encodeURIComponent(storeId)}`).then((r) => r.store),
  createIntent: (storeId: string, cart: CartRequestLine[]) =>
    call<StoredIntent & OrderAmounts>('POST', `/api/stores/${encodeURIComponent(storeId)}/payment-intents`, {
      cart,
    }),
  updateIntent: (intent: StoredIntent, cart: CartRequestLine[], customer: unknown) =>
    call<OrderAmounts & { clientSecret: string; intentID: string }>(
      'PUT',
      `/api/orders/${intent.orderId}`,
      { cart, customer },
      intent.token,
    ),
  payWithTestCard: (intent: StoredIntent, card: { number: string; expiry: string; cvc: string }) =>
    call<PaymentResult>('POST', `/api/orders/${intent.orderId}/pay`, { card }, intent.token),
  confirm: (order: { orderId: string; token: string }) =>
    call<PaymentResult>('POST', `/api/orders/${order.orderId}/confirm`, {}, order.token),
  getOrder: (order: { orderId: string; token: string }) =>
    call<{ order: OrderReceipt }>('GET', `/api/orders/${order.orderId}`, undefined, order.token).then(
      (r) => r.order,
    ),
};

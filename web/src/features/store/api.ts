/**
 * The store's calls (docs/api.md 'Store'), through the app's one HTTP client: errors are ApiErrors that keep
 * the server's code, message and field messages, so a page can show the spec's texts; a network failure
 * has status 0.
 */
import type {
  CartRequestLine,
  CreatedIntent,
  OrderAmounts,
  OrderReceipt,
  PaymentGatewayKind as GatewayKind,
  PaymentResult,
  PublicStore as StoreData,
  StockShortLine,
  StoreSummary,
  UpdatedIntent,
} from '@avp/shared';
import { ApiError, apiRequest, NETWORK_ERROR, type HttpMethod } from '../../lib/api';

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
  /** Until when the order's limited lines are held (issue #32); absent or null: nothing held. */
  holdExpiresAt?: string | null;
  /** Units the hold keeps for this order, per product id. */
  held?: Record<number, number>;
};

/** 409 stock_short: lines ask for more than is left, and nothing was held. */
export class StockShortError extends ApiError {
  constructor(
    message: string,
    readonly lines: StockShortLine[],
  ) {
    super(409, 'stock_short', message);
    this.name = 'StockShortError';
  }
}

function isShortLine(value: unknown): value is StockShortLine {
  const line = value as Partial<StockShortLine> | null;
  return (
    typeof line === 'object' &&
    line !== null &&
    typeof line.productId === 'number' &&
    typeof line.name === 'string' &&
    typeof line.left === 'number' &&
    typeof line.requested === 'number'
  );
}

/**
 * The intent calls, whose 409 stock_short carries the short lines beside the message; the app's client
 * keeps only code, message and fields, so these read the answer themselves (same errors otherwise).
 */
async function holdingCall<T>(method: HttpMethod, path: string, body: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  if (token) headers['X-Order-Token'] = token;
  let res: Response;
  try {
    res = await fetch(path, { method, credentials: 'same-origin', headers, body: JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'network', NETWORK_ERROR);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (res.ok) return parsed as T;
  const error = (parsed as { error?: Record<string, unknown> } | undefined)?.error ?? {};
  const message = typeof error.message === 'string' ? error.message : `The server answered ${res.status}.`;
  if (res.status === 409 && error.code === 'stock_short' && Array.isArray(error.lines))
    throw new StockShortError(message, error.lines.filter(isShortLine));
  const fields =
    error.fields && typeof error.fields === 'object' ? (error.fields as Record<string, string>) : {};
  throw new ApiError(res.status, typeof error.code === 'string' ? error.code : 'http_error', message, fields);
}

/** Units per product id of a priced order (what a hold keeps). */
export function heldOf(answer: {
  lines: Pick<OrderAmounts['lines'][number], 'productId' | 'quantity'>[];
}): Record<number, number> {
  const held: Record<number, number> = {};
  for (const line of answer.lines) held[line.productId] = (held[line.productId] ?? 0) + line.quantity;
  return held;
}

function call<T>(method: HttpMethod, path: string, body?: unknown, token?: string): Promise<T> {
  return apiRequest<T>(method, path, body, token ? { headers: { 'X-Order-Token': token } } : {});
}

export const storeApi = {
  listStores: () => call<{ stores: StoreSummary[] }>('GET', '/api/stores').then((r) => r.stores),
  getStore: (storeId: string) =>
    call<{ store: StoreData }>('GET', `/api/stores/${encodeURIComponent(storeId)}`).then((r) => r.store),
  createIntent: (storeId: string, cart: CartRequestLine[]) =>
    holdingCall<CreatedIntent>('POST', `/api/stores/${encodeURIComponent(storeId)}/payment-intents`, {
      cart,
    }),
  updateIntent: (intent: StoredIntent, cart: CartRequestLine[], customer: unknown) =>
    holdingCall<UpdatedIntent>('PUT', `/api/orders/${intent.orderId}`, { cart, customer }, intent.token),
  payWithTestCard: (intent: StoredIntent, card: { number: string; expiry: string; cvc: string }) =>
    call<PaymentResult>('POST', `/api/orders/${intent.orderId}/pay`, { card }, intent.token),
  confirm: (order: { orderId: string; token: string }) =>
    call<PaymentResult>('POST', `/api/orders/${order.orderId}/confirm`, {}, order.token),
  getOrder: (order: { orderId: string; token: string }) =>
    call<{ order: OrderReceipt }>('GET', `/api/orders/${order.orderId}`, undefined, order.token).then(
      (r) => r.order,
    ),
};

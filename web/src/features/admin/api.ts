/** The staff calls (docs/api.md 'Staff'), typed for the staff pages. */
import { ApiError, apiRequest, NETWORK_ERROR } from '../../lib/api';
import type {
  AuditEntry,
  PullSheet,
  StaffOrderDetail as OrderDetail,
  StaffOrderSummary as OrderSummary,
  StaffPrice,
  StaffProduct,
  StaffStore,
  StoreChangeResult as StoresAnswer,
} from '@avp/shared';
export type {
  AuditEntry,
  OrderDetail,
  OrderSummary,
  PullSheet,
  StaffPrice,
  StaffProduct,
  StaffStore,
  StoresAnswer,
};

export interface OrderFilters {
  store: string;
  status: string;
  from: string;
  to: string;
}

export function orderQuery(filters: OrderFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== '') params.set(key, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export const staffApi = {
  stores: () => apiRequest<StoresAnswer>('GET', '/api/staff/stores'),
  createStore: (body: unknown) => apiRequest<StoresAnswer>('POST', '/api/staff/stores', body),
  updateStore: (id: number, body: unknown) =>
    apiRequest<StoresAnswer>('PUT', `/api/staff/stores/${id}`, body),
  setActive: (id: number, is_active: boolean) =>
    apiRequest<StoresAnswer>('POST', `/api/staff/stores/${id}/active`, { is_active }),
  setArchived: (id: number, is_archived: boolean) =>
    apiRequest<StoresAnswer>('POST', `/api/staff/stores/${id}/archive`, { is_archived }),
  deleteStore: (id: number) => apiRequest<StoresAnswer>('DELETE', `/api/staff/stores/${id}`),
  storeImages: () =>
    apiRequest<{ images: string[] }>('GET', '/api/staff/store-images').then((answer) => answer.images),
  products: () => apiRequest<{ products: StaffProduct[] }>('GET', '/api/staff/products'),
  createProduct: (body: unknown) =>
    apiRequest<{ products: StaffProduct[] }>('POST', '/api/staff/products', body),
  updateProduct: (id: number, body: unknown) =>
    apiRequest<{ products: StaffProduct[] }>('PUT', `/api/staff/products/${id}`, body),
  reorderProducts: (ids: number[]) =>
    apiRequest<{ products: StaffProduct[] }>('POST', '/api/staff/products/reorder', { ids }),
  prices: (storeKey: number) =>
    apiRequest<{ prices: StaffPrice[] }>('GET', `/api/staff/stores/${storeKey}/prices`),
  setPrices: (storeKey: number, prices: { product_id: number; unit_amount: number }[]) =>
    apiRequest<{ prices: StaffPrice[] }>('PUT', `/api/staff/stores/${storeKey}/prices`, { prices }),
  orders: (filters: OrderFilters) =>
    apiRequest<{ orders: OrderSummary[] }>('GET', `/api/staff/orders${orderQuery(filters)}`),
  order: (id: string) => apiRequest<{ order: OrderDetail }>('GET', `/api/staff/orders/${id}`),
  refund: (id: string, body: { amount: number; reason: string; key: string }) =>
    apiRequest<{ order: OrderDetail; replayed: boolean }>('POST', `/api/staff/orders/${id}/refunds`, body),
  resend: (id: string) =>
    apiRequest<{ queued: true; to: string }>('POST', `/api/staff/orders/${id}/resend-confirmation`),
  pullSheet: (storeKey: number, date: string) =>
    apiRequest<PullSheet>('GET', `/api/staff/stores/${storeKey}/pull-sheet${date ? `?date=${date}` : ''}`),
  audit: (store: string) =>
    apiRequest<{ entries: AuditEntry[] }>('GET', `/api/staff/audit${store ? `?store=${store}` : ''}`),
};

/** Sends an image as raw bytes (Content-Type image/…); answers the stored name or URL. */
export async function uploadImage<T>(path: string, file: File): Promise<T> {
  const res = await fetch(`${path}?name=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': file.type || 'application/octet-stream', Accept: 'application/json' },
    body: file,
  });
  const body = (await res.json().catch(() => ({}))) as T & { error?: { message?: string } };
  if (!res.ok) throw new Error(body.error?.message ?? `The server answered ${res.status}.`);
  return body;
}

/** What POST /api/charge.php answers for a card it charged (docs/api.md 'Legacy calls'). */
export interface PaymentTestResult {
  success: true;
  gateway: string;
  paymentIntent: { id: string; amount: number; currency: string; status: string };
  card: { brand: string; last4: string };
}

/**
 * The payment test (SPEC §2: 'A payment test page posts a card form to /api/charge.php'). The call is one
 * of the spec's original ones, whose errors read `{ error: text, code, fields }`.
 */
export async function chargeTestCard(body: {
  card: { number: string; expiry: string; cvc: string };
  amount: number;
}): Promise<PaymentTestResult> {
  let res: Response;
  try {
    res = await fetch('/api/charge.php', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', NETWORK_ERROR);
  }
  const answer = (await res.json().catch(() => ({}))) as Partial<PaymentTestResult> & {
    error?: unknown;
    code?: unknown;
    fields?: Record<string, string>;
  };
  if (!res.ok) {
    throw new ApiError(
      res.status,
      typeof answer.code === 'string' ? answer.code : 'http_error',
      typeof answer.error === 'string' ? answer.error : `The server answered ${res.status}.`,
      answer.fields,
    );
  }
  return answer as PaymentTestResult;
}

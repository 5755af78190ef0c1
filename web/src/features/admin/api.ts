/** The staff calls (docs/api.md 'Staff'), typed for the staff pages. */
import { apiRequest, apiUpload } from '../../lib/api';
import type {
  AuditEntry,
  PullSheet,
  StaffOrderDetail as OrderDetail,
  StaffOrderSummary as OrderSummary,
  StaffPrice,
  StaffProduct,
  StaffStore,
  StaffOverview,
  StockRow,
  StockTable,
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
  StaffOverview,
  StockRow,
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
  settings: () => apiRequest<{ time_zone: string }>('GET', '/api/staff/settings'),
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
  orders: (filters: OrderFilters, signal?: AbortSignal) =>
    apiRequest<{ orders: OrderSummary[] }>('GET', `/api/staff/orders${orderQuery(filters)}`, undefined, {
      signal,
    }),
  order: (id: string) => apiRequest<{ order: OrderDetail }>('GET', `/api/staff/orders/${id}`),
  refund: (id: string, body: { amount: number; reason: string; key: string; backInStock: boolean }) =>
    apiRequest<{ order: OrderDetail; replayed: boolean }>('POST', `/api/staff/orders/${id}/refunds`, body),
  resend: (id: string) =>
    apiRequest<{ queued: true; to: string }>('POST', `/api/staff/orders/${id}/resend-confirmation`),
  stock: (storeKey: number) => apiRequest<StockTable>('GET', `/api/staff/stores/${storeKey}/stock`),
  setStockLimit: (storeKey: number, productId: number, limit: number | null) =>
    apiRequest<unknown>('PUT', `/api/staff/stores/${storeKey}/stock/${productId}`, { limit }),
  overview: (query: { storeId: number; from: string; to: string }) => {
    const params = new URLSearchParams({ storeId: String(query.storeId) });
    if (query.from) params.set('from', query.from);
    if (query.to) params.set('to', query.to);
    return apiRequest<StaffOverview>('GET', `/api/staff/overview?${params.toString()}`);
  },
  pullSheet: (storeKey: number, date: string) =>
    apiRequest<PullSheet>('GET', `/api/staff/stores/${storeKey}/pull-sheet${date ? `?date=${date}` : ''}`),
  audit: (store: string, signal?: AbortSignal) =>
    apiRequest<{ entries: AuditEntry[] }>(
      'GET',
      `/api/staff/audit${store ? `?store=${store}` : ''}`,
      undefined,
      {
        signal,
      },
    ),
};

/** Sends an image as raw bytes (Content-Type image/…); answers the stored name or URL. */
export function uploadImage<T>(path: string, file: File): Promise<T> {
  return apiUpload<T>(`${path}?name=${encodeURIComponent(file.name)}`, file);
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
export function chargeTestCard(body: {
  card: { number: string; expiry: string; cvc: string };
  amount: number;
}): Promise<PaymentTestResult> {
  return apiRequest<PaymentTestResult>('POST', '/api/charge.php', body);
}

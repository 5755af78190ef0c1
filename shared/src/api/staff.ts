import type { OrderStatus, StoreSummary } from './store.js';

/**
 * What the staff calls answer (docs/api.md 'Staff'), typed once for the API and the staff pages.
 */

/** A store as the staff list shows it: SPEC §3's fields, its own Stripe state, and what hangs off it. */
export interface StaffStore extends StoreSummary {
  email_text: string;
  store_text: string;
  bcc: string;
  /** The store's own Stripe account: its publishable key, and whether a secret key is stored (never the key). */
  stripe_publishable_key: string | null;
  has_stripe_secret: boolean;
  /** Orders of every status, and products priced in this store. */
  orders: number;
  products: number;
}

/** Every store change answers with the whole list (SPEC §7), and the store it touched. */
export interface StoreChangeResult {
  store: StaffStore | null;
  stores: StaffStore[];
}

export interface StaffProduct {
  id: number;
  name: string;
  description: string;
  images: string[];
  sort_order: number;
  is_active: boolean;
  /** How many stores price it. */
  stores: number;
}

export interface StaffPrice {
  product_id: number;
  name: string;
  is_active: boolean;
  /** Cents. */
  unit_amount: number;
  currency: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  action: string;
  entity: string;
  entityId: string | null;
  storeId: number | null;
  actor: { id: number; name: string; email: string } | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A store named in an order or a pull sheet. */
export interface StoreRef {
  id: number;
  store_id: string;
  name: string;
}

/** A row of the staff order list; amounts in cents. */
export interface StaffOrderSummary {
  id: string;
  confirmation: string | null;
  status: OrderStatus;
  store: StoreRef;
  company: string;
  name: string;
  email: string;
  booth: string;
  delivery_date: string;
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  refunded_amount: number;
  currency: string;
  created_at: string;
  paid_at: string | null;
}

/** One order, whole: the customer info as submitted (SPEC §3, every field a string), lines and refunds. */
export interface StaffOrderDetail extends StaffOrderSummary {
  customer: Record<string, string>;
  early_bird: boolean;
  gateway: string;
  payment_reference: string | null;
  card: { brand: string; last4: string } | null;
  lines: { product_id: number; name: string; unit_amount: number; quantity: number; line_total: number }[];
  refunds: {
    id: number;
    amount: number;
    reason: string;
    status: string;
    gateway_refund_id: string | null;
    created_at: string;
  }[];
  /** What may still be refunded (cents): the amount captured less refunds done or under way. */
  refundable: number;
  /** Set while the order is `needs_review`: why, and what the provider captured (cents). */
  review: { reason: string; amount_received: number; received_currency: string } | null;
}

/** What to load for one delivery day: equipment totals, and the orders with their booths. */
export interface PullSheetDay {
  date: string;
  /** quantity: units of paid orders (as paid); held: units under live holds of orders not yet paid. */
  items: { product_id: number; name: string; quantity: number; paid: number; held: number }[];
  orders: {
    id: string;
    confirmation: string | null;
    company: string;
    booth: string;
    room: string;
    delivery_time: string;
    pickup_date: string;
    pickup_time: string;
    lines: { name: string; quantity: number }[];
  }[];
}

export interface PullSheet {
  store: StoreRef;
  days: PullSheetDay[];
}

/** One row of a store's stock table (issue #32): limit null = unlimited; left = limit − sold − held, ≥ 0. */
export interface StockRow {
  productId: number;
  name: string;
  limit: number | null;
  held: number;
  sold: number;
  left: number | null;
}

export interface StockTable {
  rows: StockRow[];
}

/** PUT /api/staff/stores/:id/stock/:productId: an integer 0–100000, or null for unlimited. */
export interface StockLimitChange {
  limit: number | null;
}

/** POST /api/staff/orders/:orderId/refunds: backInStock returns the refunded lines' units (default false). */
export interface RefundRequestStock {
  backInStock?: boolean;
}

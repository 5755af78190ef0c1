import type { StoreSummary } from './store.js';

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

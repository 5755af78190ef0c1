/**
 * The staff overview (GET /api/staff/overview, issue #32): one store's paid orders over a span of days,
 * with what is left of its stock, and the uploads received per event per day. Days are dates in TZ_STORE.
 */

import type { StoreRef } from './staff.js';

export interface OverviewDay {
  /** YYYY-MM-DD in TZ_STORE. */
  date: string;
  /** Orders paid that day (refunded ones included: they were paid). */
  orders: number;
  /** Their totals, in cents, as paid. */
  revenue: number;
}

export interface OverviewProduct {
  productId: number;
  name: string;
  units: number;
}

export interface OverviewStock {
  productId: number;
  name: string;
  /** null: no limit set. */
  limit: number | null;
  held: number;
  sold: number;
  /** null when unlimited. */
  left: number | null;
}

export interface OverviewUploads {
  /** The upload event's name, else the event name typed on the form, else ''. */
  event: string;
  date: string;
  files: number;
}

export interface StaffOverview {
  store: StoreRef & { currency: string };
  from: string;
  to: string;
  time_zone: string;
  /** Every day from `from` to `to`, days without orders included. */
  days: OverviewDay[];
  earlyBird: { orders: number; earlyBird: number };
  /** Most units first, at most ten. */
  topProducts: OverviewProduct[];
  stock: OverviewStock[];
  /** Files completed per event per day, by day then event. */
  uploads: OverviewUploads[];
}

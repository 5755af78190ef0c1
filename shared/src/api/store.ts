/**
 * What the public store calls answer (docs/api.md 'Store'): the server builds these shapes and the store
 * pages read them, so both sides compile against the one definition.
 */

export type PaymentGatewayKind = 'stripe' | 'test-gateway';

/** A product as SPEC §3 shapes it (shared productSchema), priced for one store. */
export interface PublicProduct {
  id: number;
  name: string;
  description: string;
  images: string[];
  default_price: string | null;
  metadata: { order: number };
  /** Unit price in cents. */
  price: number;
  currency: string;
}

/** The selector's entry for a store. */
export interface StoreSummary {
  id: number;
  store_id: string;
  name: string;
  is_active: boolean;
  is_archived: boolean;
  image: string | null;
  deadline: string;
  order_cutoff: string | null;
  start_date: string;
  end_date: string;
  /** Inactive, archived or past its order cut-off (SPEC §4 'Store', DESIGN deviation 6). */
  closed: boolean;
}

export interface PublicStore extends StoreSummary {
  store_text: string;
  /** Whether early-bird pricing applies right now; the order is priced again when it is submitted. */
  earlyBird: boolean;
  /** TZ_STORE: the zone the deadline is read in, so the browser's price preview agrees with the server. */
  timeZone: string;
  gateway: PaymentGatewayKind;
  /** Stripe's publishable key, when the store takes payments through Stripe. */
  publicKey?: string;
  products: PublicProduct[];
}

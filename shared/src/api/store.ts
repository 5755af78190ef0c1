/**
 * What the public store calls answer (docs/api.md 'Store'): the server builds these shapes and the store
 * pages read them, so both sides compile against the one definition.
 */

import type { OrderCustomerInfo } from '../schemas/order.js';

export type PaymentGatewayKind = 'stripe' | 'test-gateway';

/**
 * An order's life (SPEC §3 order status): settled means paid, partially refunded or refunded.
 * `needs_review`: the provider captured an amount other than the order's total, or the payment came after
 * the order's hold expired and its units were taken; unpaid, held for staff.
 */
export type OrderStatus =
  'pending' | 'paid' | 'failed' | 'refunded' | 'partially_refunded' | 'canceled' | 'needs_review';

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
  /** What is left to order (issue #32); null when the store sets no limit for the product. */
  stock: ProductStock | null;
}

/** Units left of a limited product: never below 0; 0 is sold out; low when left ≤ STOCK_LOW_THRESHOLD. */
export interface ProductStock {
  left: number;
  low: boolean;
}

/** A cart line that asks for more than is left (409 stock_short). */
export interface StockShortLine {
  productId: number;
  name: string;
  left: number;
  requested: number;
}

/** 409 from intent creation and order update when a line exceeds what is left; nothing is held then. */
export interface StockShortError {
  error: { code: 'stock_short'; message: string; lines: StockShortLine[] };
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
  early_bird: boolean;
  /** TZ_STORE: the zone the deadline is read in, so the browser's price preview agrees with the server. */
  time_zone: string;
  gateway: PaymentGatewayKind;
  /** Stripe's publishable key, when the store takes payments through Stripe. */
  publicKey?: string;
  products: PublicProduct[];
}

/** What a cart line asks for: a product and how many; the server prices it. */
export interface CartRequestLine {
  productId: number;
  count: number;
}

/** A cart line priced by the server; amounts in cents. */
export interface PricedLine {
  productId: number;
  name: string;
  unitAmount: number;
  quantity: number;
  lineTotal: number;
}

/** The amounts and lines a browser shows; the same numbers the e-mail and invoice will carry. */
export interface OrderAmounts {
  currency: string;
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  earlyBird: boolean;
  lines: PricedLine[];
}

/** The answer to creating an order with its payment intent. */
export interface CreatedIntent extends OrderAmounts {
  orderId: string;
  /** Lets this browser update, pay and read the order; shown once, stored only as a hash. */
  token: string;
  clientSecret: string;
  intentID: string;
  gateway: PaymentGatewayKind;
  publicKey?: string;
  /** Until when the order's limited lines are held (ISO); null when no line has a stock limit. */
  holdExpiresAt: string | null;
}

/** The answer to submitting the cart and the customer info. */
export interface UpdatedIntent extends OrderAmounts {
  orderId: string;
  clientSecret: string;
  intentID: string;
  /** Until when the order's limited lines are held (ISO); null when no line has a stock limit. */
  holdExpiresAt: string | null;
}

/** SPEC §3 'Payment intent': the payment response holds an intent with an amount; the number is held apart. */
export interface PaymentResult {
  orderId: string;
  status: OrderStatus;
  /** Set once the order is paid. */
  confirmation: string | null;
  paymentIntent: { id: string; amount: number; currency: string; status: string };
}

/** The confirmation page's data, fetched by order id and token so that a reload keeps the page. */
export interface OrderReceipt extends OrderAmounts {
  id: string;
  status: OrderStatus;
  confirmation: string | null;
  paidAt: string | null;
  email: string;
  card: string | null;
  customer: OrderCustomerInfo | Record<string, never>;
  store: Pick<PublicStore, 'store_id' | 'name' | 'image' | 'start_date' | 'end_date' | 'store_text'>;
}

/**
 * What staff read instead of stored values: order and refund statuses in words, and each audit entry as a
 * sentence with its money formatted (the stored before/after stays available behind a disclosure).
 */
import { formatBytes, formatDate, formatPrice, type AuditEntry, type OrderStatus } from '@avp/shared';

const ORDER_STATUS: Record<OrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
  partially_refunded: 'Partially refunded',
  canceled: 'Canceled',
  needs_review: 'Needs review',
};

const REFUND_STATUS: Record<string, string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

/** 'visa' → 'Visa', as the card's brand is named to people. */
export function cardBrandLabel(brand: string): string {
  return CARD_BRANDS[brand] ?? words(brand);
}

/** A stored value that is no known status is shown in words all the same ('some_state' → 'Some state'). */
function words(value: string): string {
  const text = value.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function orderStatusLabel(status: string): string {
  return ORDER_STATUS[status as OrderStatus] ?? words(status);
}

export function refundStatusLabel(status: string): string {
  return REFUND_STATUS[status] ?? words(status);
}

type Values = Record<string, unknown> | null;

const CARD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
};

const STORE_FIELDS: Record<string, string> = {
  store_id: 'ID',
  name: 'name',
  is_active: 'active',
  is_archived: 'archived',
  image: 'image',
  deadline: 'deadline',
  order_cutoff: 'order cut-off',
  start_date: 'start date',
  end_date: 'end date',
  email_text: 'e-mail text',
  store_text: 'store text',
  bcc: 'BCC',
  stripe_publishable_key: 'Stripe publishable key',
  stripe_secret_key: 'Stripe secret key',
  description: 'description',
  images: 'pictures',
  sort_order: 'position',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'nothing';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return DAY.test(value) ? formatDate(value) : `“${value}”`;
  if (Array.isArray(value)) return `${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** 'deadline from Jan 5, 2027 to Jan 10, 2027; name from “A” to “B”': what differs between two snapshots. */
function changes(before: Values, after: Values): string {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const parts: string[] = [];
  for (const key of keys) {
    const was = before?.[key];
    const now = after?.[key];
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    const label = STORE_FIELDS[key] ?? key.replace(/_/g, ' ');
    if (key === 'stripe_secret_key') parts.push(`${label} replaced`);
    else if (was === undefined) parts.push(`${label} ${shown(now)}`);
    else parts.push(`${label} from ${shown(was)} to ${shown(now)}`);
  }
  return parts.join('; ');
}

const text = (values: Values, key: string): string => {
  const value = values?.[key];
  return typeof value === 'string' ? value : '';
};
const cents = (values: Values, key: string): number | null => {
  const value = values?.[key];
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
};

function money(amount: number | null, currency?: string): string {
  return amount === null ? 'an amount' : formatPrice(amount, currency || undefined);
}

function orderRef(entry: AuditEntry): string {
  return entry.entityId ? `order ${entry.entityId.slice(0, 8)}` : 'an order';
}

/** A store entry's name: from the entry's own snapshot, else from the store list. */
function storeName(entry: AuditEntry, stores: ReadonlyMap<number, string>): string {
  const name =
    text(entry.after, 'name') ||
    text(entry.before, 'name') ||
    (entry.storeId === null ? '' : (stores.get(entry.storeId) ?? ''));
  return name ? `“${name}”` : `#${entry.entityId ?? entry.storeId ?? '?'}`;
}

function priceChanges(before: Values, after: Values, products: ReadonlyMap<number, string>): string {
  const ids = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const parts: string[] = [];
  for (const id of ids) {
    const name = products.get(Number(id)) ?? `product #${id}`;
    const was = cents(before, id);
    const now = cents(after, id);
    if (was === now) continue;
    if (was === null) parts.push(`${name} added at ${money(now)}`);
    else if (now === null) parts.push(`${name} removed (was ${money(was)})`);
    else parts.push(`${name} from ${money(was)} to ${money(now)}`);
  }
  return parts.join('; ');
}

export interface AuditNames {
  stores?: ReadonlyMap<number, string>;
  products?: ReadonlyMap<number, string>;
}

/** An audit entry as a sentence a person reads, e.g. 'Refunded $12.50 of order 3f2a9c1b: “Damaged”.' */
export function auditSentence(entry: AuditEntry, names: AuditNames = {}): string {
  const stores = names.stores ?? new Map<number, string>();
  const products = names.products ?? new Map<number, string>();
  const { before, after } = entry;
  const diff = changes(before, after);
  switch (entry.action) {
    case 'store_create':
      return `Created store ${storeName(entry, stores)}.`;
    case 'store_update':
      return diff
        ? `Changed store ${storeName(entry, stores)}: ${diff}.`
        : `Saved store ${storeName(entry, stores)} unchanged.`;
    case 'store_activate':
      return `Activated store ${storeName(entry, stores)}.`;
    case 'store_deactivate':
      return `Deactivated store ${storeName(entry, stores)}.`;
    case 'store_archive':
      return `Archived store ${storeName(entry, stores)}.`;
    case 'store_unarchive':
      return `Unarchived store ${storeName(entry, stores)}.`;
    case 'store_delete':
      return `Deleted store ${storeName(entry, stores)}.`;
    case 'store_image_upload': {
      const bytes = cents(after, 'bytes');
      return `Uploaded the store image ${text(after, 'image')}${bytes === null ? '' : ` (${formatBytes(bytes)})`}.`;
    }
    case 'product_create':
      return `Created product “${text(after, 'name')}”.`;
    case 'product_update':
      return diff
        ? `Changed product “${text(after, 'name') || text(before, 'name')}”: ${diff}.`
        : `Saved product “${text(after, 'name')}” unchanged.`;
    case 'product_reorder':
      return 'Changed the order of the products.';
    case 'product_image_upload':
      return `Uploaded a product picture (${shown(after?.width)}×${shown(after?.height)} pixels).`;
    case 'prices_update': {
      const list = priceChanges(before, after, products);
      return list
        ? `Changed prices in store ${storeName(entry, stores)}: ${list}.`
        : 'Saved prices unchanged.';
    }
    case 'order_refund': {
      const refund = (after?.refund ?? null) as Values;
      const reason = text(refund, 'reason');
      const status = text(after, 'status');
      return (
        `Refunded ${money(cents(refund, 'amount'))} of ${orderRef(entry)}` +
        `${reason ? `: “${reason}”` : ''}. ` +
        `${money(cents(after, 'refunded_amount'))} refunded in all` +
        `${status ? `; the order is now ${orderStatusLabel(status).toLowerCase()}` : ''}.`
      );
    }
    case 'order_confirmation_resend':
      return `Sent the confirmation e-mail of ${orderRef(entry)} again, to ${text(after, 'to')}.`;
    case 'order_payment_review': {
      const received = money(cents(after, 'amount_received'), text(after, 'received_currency'));
      const total = money(cents(before, 'total'), text(before, 'currency'));
      return `Held ${orderRef(entry)} for review: the provider captured ${received} against a total of ${total}.`;
    }
    case 'payment_test': {
      const amount = money(cents(after, 'amount'), text(after, 'currency'));
      const outcome = text(after, 'outcome');
      const card = (after?.card ?? null) as Values;
      const brand = text(card, 'brand');
      const on = card ? ` on ${CARD_BRANDS[brand] ?? words(brand)} ending in ${text(card, 'last4')}` : '';
      return outcome === 'succeeded'
        ? `Payment test: charged ${amount}${on}.`
        : `Payment test: ${amount} refused (${words(outcome).toLowerCase()}).`;
    }
    case 'sign_in': {
      const how = text(after, 'how');
      const via = text(after, 'via');
      const way = how === 'password' ? ' with a password' : how === 'registration' ? ' on registering' : '';
      const where = via === 'cookie' ? ' in a browser' : via === 'token' ? ' from the desktop uploader' : '';
      return `Signed in${way}${where}.`;
    }
    case 'sign_out':
      return 'Signed out.';
    case 'account_create':
      return 'Created an account.';
    case 'password_change': {
      const ended = cents(after, 'otherSessionsEnded');
      return `Changed the password${ended ? `; ${ended} other ${ended === 1 ? 'session' : 'sessions'} ended` : ''}.`;
    }
    case 'password_reset': {
      const ended = cents(after, 'sessionsEnded');
      return `Set a new password from an e-mailed link${ended ? `; ${ended} ${ended === 1 ? 'session' : 'sessions'} ended` : ''}.`;
    }
    case 'upload_mark_handled':
      return 'Marked an upload submission handled.';
    case 'upload_mark_unhandled':
      return 'Marked an upload submission not handled.';
    default:
      return `${words(entry.action)}${diff ? `: ${diff}` : ''}.`;
  }
}

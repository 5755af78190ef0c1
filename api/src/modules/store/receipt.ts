import {
  EARLY_BIRD_DISCOUNT_PERCENT,
  formatDate,
  formatDateRange,
  formatPrice,
  SERVICE_FEE_PERCENT,
} from '@avp/shared';
import type { OrderCustomerInfo } from '@avp/shared';
import type { OrderInstance, OrderLineInstance, StoreInstance } from '../../db/models/index.js';

/**
 * What a paid order says about itself: the confirmation e-mail (text and HTML) and the lines of the PDF
 * invoice are all built from this one description, so the three never disagree.
 */

/** SPEC §2 / §9 fine print, as the payment page's terms checkbox states it. */
export const RENTAL_TERMS =
  'Rental does NOT include electrical services in the booth. The renter is responsible for loss or damage of equipment in the booth.';
export const TIMES_NOTE = 'Exact delivery and pickup times are set after all exhibit orders are processed.';

export interface ReceiptLine {
  name: string;
  /** The product's picture as an absolute URL (e-mail clients fetch it from outside), or null. */
  picture: string | null;
  quantity: number;
  unitAmount: number;
  lineTotal: number;
}

export interface Receipt {
  confirmation: string;
  storeName: string;
  eventDates: string;
  paidOn: string;
  currency: string;
  lines: ReceiptLine[];
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  /** 'Visa ending in 4242', or null when the gateway did not say. */
  card: string | null;
  customer: OrderCustomerInfo;
  emailText: string;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

export function cardLabel(brand: string | null, last4: string | null): string | null {
  if (!last4) return null;
  const name = brand
    ? (BRANDS[brand.toLowerCase()] ?? brand.charAt(0).toUpperCase() + brand.slice(1))
    : 'Card';
  return `${name} ending in ${last4}`;
}

export function buildReceipt(
  order: OrderInstance,
  lines: readonly OrderLineInstance[],
  store: StoreInstance,
  timeZone: string,
  /** Product id to the absolute URL of its picture. */
  pictures: ReadonlyMap<number, string> = new Map(),
): Receipt {
  if (!order.confirmation || !order.paidAt) throw new Error(`order ${order.id} is not paid`);
  return {
    confirmation: order.confirmation,
    storeName: store.name,
    eventDates: formatDateRange(store.startDate, store.endDate),
    paidOn: formatDate(order.paidAt, timeZone),
    currency: order.currency,
    lines: lines.map((line) => ({
      name: line.name,
      picture: pictures.get(line.productId) ?? null,
      quantity: line.quantity,
      unitAmount: line.unitAmount,
      lineTotal: line.lineTotal,
    })),
    subtotal: order.subtotal,
    discount: order.discount,
    fee: order.fee,
    total: order.total,
    card: cardLabel(order.cardBrand, order.cardLast4),
    customer: order.customer as unknown as OrderCustomerInfo,
    emailText: store.emailText ?? '',
  };
}

/** The amount rows under the lines: subtotal, the discount only when there is one, fee and total. */
export function amountRows(receipt: Receipt): [label: string, amount: string][] {
  const money = (cents: number) => formatPrice(cents, receipt.currency);
  const rows: [string, string][] = [['Subtotal', money(receipt.subtotal)]];
  if (receipt.discount > 0) {
    rows.push([`Early-bird discount (${EARLY_BIRD_DISCOUNT_PERCENT}%)`, `-${money(receipt.discount)}`]);
  }
  rows.push([`Service fee (${SERVICE_FEE_PERCENT}%)`, money(receipt.fee)]);
  rows.push(['Total', money(receipt.total)]);
  return rows;
}

/** The rental information block, label and value. */
export function customerRows(receipt: Receipt): [label: string, value: string][] {
  const c = receipt.customer;
  const schedule = (date: string, time: string) => `${formatDate(date)}${time ? ` at ${time}` : ''}`;
  return [
    ['Company', c.company],
    ['Name', `${c.firstName} ${c.lastName}`],
    ['E-mail', c.email],
    ['Phone', c.phone],
    ['Address', `${c.address}, ${c.city}, ${c.state} ${c.zip}`],
    ['Onsite contact', `${c.onsiteFirstName} ${c.onsiteLastName}, ${c.onsiteEmail}, ${c.onsitePhone}`],
    ['Booth', c.booth],
    ...(c.room ? [['Room', c.room] as [string, string]] : []),
    ['Delivery', schedule(c.deliveryDate, c.deliveryTime)],
    ['Pickup', schedule(c.pickupDate, c.pickupTime)],
  ];
}

export function confirmationSubject(receipt: Receipt): string {
  return `${receipt.storeName} order confirmation ${receipt.confirmation}`;
}

export function confirmationText(receipt: Receipt): string {
  const money = (cents: number) => formatPrice(cents, receipt.currency);
  const charged = receipt.card ? `Your card (${receipt.card})` : 'Your card';
  const out = [
    `Thank you for your order for ${receipt.storeName} (${receipt.eventDates}).`,
    '',
    `Confirmation number: ${receipt.confirmation}`,
    'Please save this number for your records.',
    '',
    `${charged} was charged ${money(receipt.total)} on ${receipt.paidOn}.`,
    '',
    'ORDER SUMMARY',
    ...receipt.lines.map(
      (line) => `${line.quantity} x ${line.name} @ ${money(line.unitAmount)} = ${money(line.lineTotal)}`,
    ),
    '',
    ...amountRows(receipt).map(([label, amount]) => `${label}: ${amount}`),
    '',
    'RENTAL INFORMATION',
    ...customerRows(receipt).map(([label, value]) => `${label}: ${value}`),
    TIMES_NOTE,
    '',
  ];
  if (receipt.emailText.trim() !== '') out.push(receipt.emailText.trim(), '');
  out.push(RENTAL_TERMS, '', 'Your invoice receipt is attached as a PDF.', '');
  return out.join('\n');
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function confirmationHtml(receipt: Receipt): string {
  const e = escapeHtml;
  const money = (cents: number) => e(formatPrice(cents, receipt.currency));
  const cell = 'padding:4px 8px;border-bottom:1px solid #dde3ea;';
  const right = `${cell}text-align:right;white-space:nowrap;`;
  const charged = receipt.card ? `Your card (${e(receipt.card)})` : 'Your card';
  const picture = (line: ReceiptLine) =>
    line.picture
      ? `<img src="${e(line.picture)}" alt="${e(line.name)}" width="48" height="48" ` +
        'style="width:48px;height:48px;margin-right:8px;border-radius:4px;vertical-align:middle;object-fit:cover;">'
      : '';
  const lines = receipt.lines
    .map(
      (line) =>
        `<tr><td style="${cell}">${picture(line)}${e(line.name)}</td><td style="${right}">${line.quantity}</td>` +
        `<td style="${right}">${money(line.unitAmount)}</td><td style="${right}">${money(line.lineTotal)}</td></tr>`,
    )
    .join('');
  const amounts = amountRows(receipt)
    .map(
      ([label, amount]) =>
        `<tr><td colspan="3" style="${right}">${e(label)}</td><td style="${right}">${e(amount)}</td></tr>`,
    )
    .join('');
  const info = customerRows(receipt)
    .map(
      ([label, value]) =>
        `<tr><th style="${cell}text-align:left;">${e(label)}</th><td style="${cell}">${e(value)}</td></tr>`,
    )
    .join('');
  const extra =
    receipt.emailText.trim() === '' ? '' : `<p>${e(receipt.emailText.trim()).replace(/\r?\n/g, '<br>')}</p>`;
  return `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;color:#0d1b2a;line-height:1.5;">
<h1 style="font-size:20px;">${e(receipt.storeName)} order confirmation</h1>
<p>Thank you for your order for ${e(receipt.storeName)} (${e(receipt.eventDates)}).</p>
<p style="font-size:18px;">Confirmation number: <strong>${e(receipt.confirmation)}</strong><br>Please save this number for your records.</p>
<p>${charged} was charged <strong>${money(receipt.total)}</strong> on ${e(receipt.paidOn)}.</p>
<h2 style="font-size:16px;">Order summary</h2>
<table style="border-collapse:collapse;">
<thead><tr><th style="${cell}text-align:left;">Item</th><th style="${right}">Qty</th><th style="${right}">Unit price</th><th style="${right}">Amount</th></tr></thead>
<tbody>${lines}${amounts}</tbody>
</table>
<h2 style="font-size:16px;">Rental information</h2>
<table style="border-collapse:collapse;">${info}</table>
<p>${e(TIMES_NOTE)}</p>
${extra}
<p style="font-size:13px;">${e(RENTAL_TERMS)}</p>
<p style="font-size:13px;">Your invoice receipt is attached as a PDF.</p>
</body></html>`;
}

import type { Transaction } from 'sequelize';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { OrderLineInstance } from '../../db/models/index.js';
import { enqueueMail } from '../mail/index.js';
import { invoicePdf } from './invoice.js';
import { buildReceipt, confirmationHtml, confirmationSubject, confirmationText } from './receipt.js';

/** Each ordered product's first picture, as an absolute URL under PUBLIC_URL: mail is read elsewhere. */
async function linePictures(
  deps: { config: Pick<Config, 'PUBLIC_URL'>; db: Database },
  lines: readonly OrderLineInstance[],
  transaction: Transaction,
): Promise<Map<number, string>> {
  const products = await deps.db.models.Product.findAll({
    where: { id: [...new Set(lines.map((line) => line.productId))] },
    transaction,
  });
  const base = deps.config.PUBLIC_URL.replace(/\/+$/, '');
  const pictures = new Map<number, string>();
  for (const product of products) {
    const value = product.images as unknown;
    const images = typeof value === 'string' ? (JSON.parse(value) as string[]) : (value as string[] | null);
    const first = images?.[0];
    if (first) pictures.set(product.id, /^https?:\/\//.test(first) ? first : `${base}${first}`);
  }
  return pictures;
}

/**
 * Queues the confirmation e-mail of a paid order (receipt and invoice PDF, BCC to the store's list) in the
 * caller's transaction. Used when the order is paid (paid.ts) and when staff resend it.
 *
 * null when the order has no customer details: Stripe can take a payment before the checkout form was
 * sent (a caller holding the intent's client secret may confirm it at once), and there is no address.
 */
export async function enqueueConfirmationMail(
  deps: { config: Pick<Config, 'TZ_STORE' | 'PUBLIC_URL'>; db: Database },
  orderId: string,
  transaction: Transaction,
): Promise<{ mailId: number; confirmation: string; total: number } | null> {
  const { Order, OrderLine, Store } = deps.db.models;
  const order = await Order.findByPk(orderId, { transaction, rejectOnEmpty: true });
  if (order.email === '') return null;
  const lines = await OrderLine.findAll({ where: { orderId }, order: [['id', 'ASC']], transaction });
  const store = await Store.findByPk(order.storeId, { transaction, rejectOnEmpty: true });
  const receipt = buildReceipt(
    order,
    lines,
    store,
    deps.config.TZ_STORE,
    await linePictures(deps, lines, transaction),
  );
  const pdf = await invoicePdf(receipt);
  const mail = await enqueueMail(
    deps.db,
    {
      to: order.email,
      bcc: store.bcc ?? undefined,
      subject: confirmationSubject(receipt),
      text: confirmationText(receipt),
      html: confirmationHtml(receipt),
      attachments: [
        { filename: `invoice-${receipt.confirmation}.pdf`, contentType: 'application/pdf', content: pdf },
      ],
    },
    { transaction },
  );
  return { mailId: mail.id, confirmation: receipt.confirmation, total: order.total };
}

import type { OrderReceipt } from '@avp/shared';
import { cardLabel } from '../store/receipt.js';
import { findOwnOrder } from './access.js';
import type { OrderDeps } from './gateway.js';

/** The confirmation page's data: fetched by id and token, so a reload keeps the page. */
export async function getOrderReceipt(
  { db }: Pick<OrderDeps, 'db'>,
  orderId: string,
  token: string | undefined,
): Promise<OrderReceipt> {
  const order = await findOwnOrder(db, orderId, token);
  const { OrderLine, Store } = db.models;
  const [lines, store] = await Promise.all([
    OrderLine.findAll({ where: { orderId: order.id }, order: [['id', 'ASC']] }),
    Store.findByPk(order.storeId, { rejectOnEmpty: true }),
  ]);
  return {
    id: order.id,
    status: order.status,
    confirmation: order.confirmation,
    paidAt: order.paidAt ? order.paidAt.toISOString() : null,
    email: order.email,
    card: cardLabel(order.cardBrand, order.cardLast4),
    currency: order.currency,
    subtotal: order.subtotal,
    discount: order.discount,
    fee: order.fee,
    total: order.total,
    earlyBird: order.earlyBird,
    lines: lines.map(({ productId, name, unitAmount, quantity, lineTotal }) => ({
      productId,
      name,
      unitAmount,
      quantity,
      lineTotal,
    })),
    customer: order.customer as OrderReceipt['customer'],
    store: {
      store_id: store.slug,
      name: store.name,
      image: store.image,
      start_date: store.startDate,
      end_date: store.endDate,
      store_text: store.storeText ?? '',
    },
  } satisfies OrderReceipt;
}

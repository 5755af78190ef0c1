import type { PullSheet, PullSheetDay } from '@avp/shared';
import { Op, QueryTypes } from 'sequelize';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import { REFUNDABLE } from '../orders/refundable.js';
import { customerOf, day, text } from './order-query.js';
import { findStaffStore } from './stores.js';

const pullSheetQuery = z.object({ date: day });

/**
 * What to load for a store, per delivery day: equipment totals and the orders with their booths. Paid and
 * partially refunded orders count (a fully refunded one is off the truck). Beside each total, `held`: the
 * units of orders being paid for right now (a live stock hold), which may yet join the sheet.
 */
export async function pullSheet(db: Database, storeKey: number, rawQuery: unknown): Promise<PullSheet> {
  const { date } = pullSheetQuery.parse(rawQuery ?? {});
  const store = await findStaffStore(db, storeKey);
  const orders = await db.models.Order.findAll({
    where: { storeId: storeKey, status: { [Op.in]: REFUNDABLE } },
    order: [['createdAt', 'ASC']],
  });
  const lines = orders.length
    ? await db.models.OrderLine.findAll({
        where: { orderId: { [Op.in]: orders.map((o) => o.id) } },
        order: [['id', 'ASC']],
      })
    : [];
  const days = new Map<string, PullSheetDay>();
  for (const order of orders) {
    const c = customerOf(order);
    const delivery = text(c, 'deliveryDate');
    if (date && delivery !== date) continue;
    let sheet = days.get(delivery);
    if (!sheet) {
      sheet = { date: delivery, items: [], orders: [] };
      days.set(delivery, sheet);
    }
    const own = lines.filter((l) => l.orderId === order.id);
    for (const line of own) {
      const item = sheet.items.find((i) => i.product_id === line.productId);
      if (item) {
        item.quantity += line.quantity;
        item.paid += line.quantity;
      } else {
        sheet.items.push({
          product_id: line.productId,
          name: line.name,
          quantity: line.quantity,
          paid: line.quantity,
          held: 0,
        });
      }
    }
    sheet.orders.push({
      id: order.id,
      confirmation: order.confirmation,
      company: text(c, 'company'),
      booth: text(c, 'booth'),
      room: text(c, 'room'),
      delivery_time: text(c, 'deliveryTime'),
      pickup_date: text(c, 'pickupDate'),
      pickup_time: text(c, 'pickupTime'),
      lines: own.map((l) => ({ name: l.name, quantity: l.quantity })),
    });
  }
  await addHeld(db, storeKey, date, days);
  const sorted = [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
  for (const sheet of sorted) sheet.items.sort((a, b) => a.name.localeCompare(b.name));
  return { store: { id: store.id, store_id: store.slug, name: store.name }, days: sorted };
}

/** Units under live holds of pending orders, per delivery day and product, added to the days' items. */
async function addHeld(
  db: Database,
  storeKey: number,
  date: string | undefined,
  days: Map<string, PullSheetDay>,
): Promise<void> {
  const held = await db.sequelize.query<{ order_id: string }>(
    `SELECT h.order_id FROM stock_holds h JOIN orders o ON o.id = h.order_id
      WHERE h.store_id = :storeKey AND h.state = 'held' AND h.expires_at > :now AND o.status = 'pending'`,
    { replacements: { storeKey, now: Date.now() }, type: QueryTypes.SELECT },
  );
  if (held.length === 0) return;
  const ids = held.map((h) => h.order_id);
  const orders = await db.models.Order.findAll({ where: { id: { [Op.in]: ids } } });
  const lines = await db.models.OrderLine.findAll({ where: { orderId: { [Op.in]: ids } } });
  for (const order of orders) {
    const delivery = text(customerOf(order), 'deliveryDate');
    // An order not yet filled in has no delivery day to be loaded on.
    if (delivery === '' || (date && delivery !== date)) continue;
    let sheet = days.get(delivery);
    if (!sheet) {
      sheet = { date: delivery, items: [], orders: [] };
      days.set(delivery, sheet);
    }
    for (const line of lines.filter((l) => l.orderId === order.id)) {
      const item = sheet.items.find((i) => i.product_id === line.productId);
      if (item) item.held += line.quantity;
      else
        sheet.items.push({
          product_id: line.productId,
          name: line.name,
          quantity: 0,
          paid: 0,
          held: line.quantity,
        });
    }
  }
}

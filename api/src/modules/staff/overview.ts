import {
  addDays,
  dateInZone,
  isDateOnly,
  startOfDayIn,
  type OverviewDay,
  type OverviewProduct,
  type OverviewUploads,
  type StaffOverview,
} from '@avp/shared';
import { Op } from 'sequelize';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { OrderStatus } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { listStock } from '../stock/index.js';
import { findStaffStore } from './stores.js';

/** Orders that were paid: a refund later does not undo the sale that day. */
const PAID: OrderStatus[] = ['paid', 'partially_refunded', 'refunded'];
const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;
const TOP_PRODUCTS = 10;
export const OVERVIEW_STORE_REQUIRED = 'Choose a store.';
export const OVERVIEW_DATE = 'Use a date as YYYY-MM-DD.';
export const OVERVIEW_SPAN = `Choose a span of at most ${MAX_DAYS} days, the first day on or before the last.`;

interface OverviewDeps {
  config: Pick<Config, 'TZ_STORE'>;
  db: Database;
}

function one(query: Record<string, unknown>, name: string): string {
  const value = query[name];
  return typeof value === 'string' ? value.trim() : '';
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The query in words a staff member can act on: a store, and from/to as days (default the last 30). */
export function parseOverviewQuery(
  raw: unknown,
  timeZone: string,
  now = new Date(),
): { storeId: number; from: string; to: string } {
  const query = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const storeText = one(query, 'storeId');
  if (!/^\d{1,10}$/.test(storeText))
    throw new AppError(400, 'validation', OVERVIEW_STORE_REQUIRED, { storeId: OVERVIEW_STORE_REQUIRED });
  const fields: Record<string, string> = {};
  const to = one(query, 'to') || dateInZone(now, timeZone);
  if (!isDateOnly(to)) fields.to = OVERVIEW_DATE;
  const from = one(query, 'from') || (isDateOnly(to) ? addDays(to, 1 - DEFAULT_DAYS) : '');
  if (!isDateOnly(from)) fields.from = OVERVIEW_DATE;
  if (Object.keys(fields).length > 0) throw new AppError(400, 'validation', OVERVIEW_DATE, fields);
  const span = daysBetween(from, to);
  if (span < 1 || span > MAX_DAYS)
    throw new AppError(400, 'validation', OVERVIEW_SPAN, { from: OVERVIEW_SPAN });
  return { storeId: Number(storeText), from, to };
}

/**
 * GET /api/staff/overview: per day the store's paid orders and their totals, the early-bird share, the top
 * products by units, what is left of each product, and the files received per upload event per day.
 */
export async function staffOverview(deps: OverviewDeps, rawQuery: unknown): Promise<StaffOverview> {
  const zone = deps.config.TZ_STORE;
  const { storeId, from, to } = parseOverviewQuery(rawQuery, zone);
  const store = await findStaffStore(deps.db, storeId);
  const start = startOfDayIn(from, zone);
  const end = startOfDayIn(addDays(to, 1), zone);
  const { Order, OrderLine, Submission, SubmissionFile, UploadEvent } = deps.db.models;

  const orders = await Order.findAll({
    where: { storeId, status: { [Op.in]: PAID }, paidAt: { [Op.gte]: start, [Op.lt]: end } },
    attributes: ['id', 'paidAt', 'total', 'earlyBird', 'currency'],
  });
  const days = new Map<string, OverviewDay>();
  for (let d = from; d <= to; d = addDays(d, 1)) days.set(d, { date: d, orders: 0, revenue: 0 });
  let earlyBird = 0;
  for (const order of orders) {
    const day = days.get(dateInZone(order.paidAt ?? start, zone));
    if (!day) continue;
    day.orders += 1;
    day.revenue += order.total;
    if (order.earlyBird) earlyBird += 1;
  }

  const lines = orders.length
    ? await OrderLine.findAll({
        where: { orderId: { [Op.in]: orders.map((o) => o.id) } },
        attributes: ['productId', 'name', 'quantity'],
      })
    : [];
  const units = new Map<number, OverviewProduct>();
  for (const line of lines) {
    const product = units.get(line.productId) ?? { productId: line.productId, name: line.name, units: 0 };
    product.units += line.quantity;
    units.set(line.productId, product);
  }
  const topProducts = [...units.values()]
    .sort((a, b) => b.units - a.units || a.name.localeCompare(b.name))
    .slice(0, TOP_PRODUCTS);

  const stock = (await listStock(deps.db, storeId)).map((row) => ({ ...row }));

  const files = await SubmissionFile.findAll({
    where: { status: 'complete', completedAt: { [Op.gte]: start, [Op.lt]: end } },
    attributes: ['submissionId', 'completedAt'],
  });
  const submissionIds = [...new Set(files.map((f) => f.submissionId))];
  const submissions = submissionIds.length
    ? await Submission.findAll({
        where: { id: { [Op.in]: submissionIds } },
        attributes: ['id', 'fields', 'uploadEventId'],
      })
    : [];
  const eventIds = [...new Set(submissions.flatMap((s) => (s.uploadEventId ? [s.uploadEventId] : [])))];
  const events = eventIds.length
    ? await UploadEvent.findAll({ where: { id: { [Op.in]: eventIds } }, attributes: ['id', 'name'] })
    : [];
  const eventNames = new Map(events.map((e) => [e.id, e.name]));
  const eventOf = new Map(
    submissions.map((s) => {
      const typed = (s.fields as Record<string, unknown>).event_name;
      const name =
        (s.uploadEventId && eventNames.get(s.uploadEventId)) || (typeof typed === 'string' ? typed : '');
      return [s.id, name.trim()];
    }),
  );
  const received = new Map<string, OverviewUploads>();
  for (const file of files) {
    const date = dateInZone(file.completedAt ?? start, zone);
    const event = eventOf.get(file.submissionId) ?? '';
    const key = `${date}\u0000${event}`;
    const entry = received.get(key) ?? { event, date, files: 0 };
    entry.files += 1;
    received.set(key, entry);
  }
  const uploads = [...received.values()].sort(
    (a, b) => a.date.localeCompare(b.date) || a.event.localeCompare(b.event),
  );

  return {
    store: { id: store.id, store_id: store.slug, name: store.name, currency: orders[0]?.currency ?? 'usd' },
    from,
    to,
    time_zone: zone,
    days: [...days.values()],
    earlyBird: { orders: orders.length, earlyBird },
    topProducts,
    stock,
    uploads,
  };
}

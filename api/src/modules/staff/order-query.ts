import { addDays, isDateOnly, startOfDayIn } from '@avp/shared';
import { Op } from 'sequelize';
import type { WhereOptions } from 'sequelize';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { ORDER_STATUSES } from '../../db/models/index.js';
import type { OrderAttributes, OrderInstance, OrderStatus, StoreInstance } from '../../db/models/index.js';
import type { Logger } from '../../logger.js';

/**
 * Which orders the staff screens ask for: across stores or for one, by status and by the day they were placed
 * (in TZ_STORE); and the customer info as the screens read it.
 */

export interface StaffOrderDeps {
  config: Config;
  db: Database;
  logger: Logger;
}

/** 'settled' (the default) is every order that was paid: paid, partially refunded or refunded. */
export const STATUS_FILTERS = ['settled', 'all', ...ORDER_STATUSES] as const;
const SETTLED: OrderStatus[] = ['paid', 'partially_refunded', 'refunded'];
// A held order (its capture differed from its total) can give back what was captured.
const ORDER_LIST_MAX = 1000;

export const day = z
  .string()
  .refine(isDateOnly, 'Use a date as YYYY-MM-DD.')
  .optional()
  .or(z.literal('').transform(() => undefined));

export const orderQuerySchema = z.object({
  store: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  status: z.enum(STATUS_FILTERS).default('settled'),
  from: day,
  to: day,
});
export type OrderQuery = z.infer<typeof orderQuerySchema>;

export function text(customer: Record<string, unknown>, key: string): string {
  const value = customer[key];
  return typeof value === 'string' ? value : '';
}

/** The customer info as stored (a JSON column; text on SQLite): its fields are all strings (SPEC §3). */
export function customerOf(order: OrderInstance): Record<string, string> {
  const value = order.customer as unknown;
  const raw = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown> | null;
  return Object.fromEntries(
    Object.entries(raw ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

export async function findOrders(
  { config, db }: Pick<StaffOrderDeps, 'config' | 'db'>,
  query: OrderQuery,
): Promise<{ order: OrderInstance; store: StoreInstance }[]> {
  const where: WhereOptions<OrderAttributes> = {};
  const and: WhereOptions<OrderAttributes>[] = [];
  if (query.store !== undefined) and.push({ storeId: query.store });
  if (query.status === 'settled') and.push({ status: { [Op.in]: SETTLED } });
  else if (query.status !== 'all') and.push({ status: query.status });
  if (query.from) and.push({ createdAt: { [Op.gte]: startOfDayIn(query.from, config.TZ_STORE) } });
  if (query.to) and.push({ createdAt: { [Op.lt]: startOfDayIn(addDays(query.to, 1), config.TZ_STORE) } });
  if (and.length > 0) Object.assign(where, { [Op.and]: and });
  const orders = await db.models.Order.findAll({
    where,
    include: [{ model: db.models.Store, as: 'store', required: true }],
    order: [['createdAt', 'DESC']],
    limit: ORDER_LIST_MAX,
  });
  return orders.map((order) => ({ order, store: (order as typeof order & { store: StoreInstance }).store }));
}

import { stringify } from 'csv-stringify/sync';
import { Op } from 'sequelize';
import type { OrderLineInstance } from '../../db/models/index.js';
import { customerOf, findOrders, orderQuerySchema, text } from './order-query.js';
import type { StaffOrderDeps } from './order-query.js';

/** The warehouse export of the orders a query finds: one row per order line. */

export const CSV_COLUMNS = [
  'confirmation',
  'order_id',
  'status',
  'store_id',
  'store_name',
  'placed_at',
  'paid_at',
  'company',
  'first_name',
  'last_name',
  'email',
  'phone',
  'onsite_name',
  'onsite_phone',
  'booth',
  'room',
  'delivery_date',
  'delivery_time',
  'pickup_date',
  'pickup_time',
  'product_id',
  'product',
  'quantity',
  'unit_price',
  'line_total',
  'order_total',
  'refunded',
] as const;

export type CsvCell = string | number | null;

/** Text a spreadsheet would run as a formula; such a cell gets a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The CSV text: the header row, then one line per row, each ended by CRLF; no byte-order mark. */
export function ordersCsvText(rows: readonly (readonly CsvCell[])[]): string {
  return stringify(rows as CsvCell[][], {
    header: true,
    columns: [...CSV_COLUMNS],
    record_delimiter: 'windows',
    // A lone LF or CR in a cell is quoted too, not only CRLF.
    quote_record_delimiter: true,
    // Spreadsheets trim unquoted cells; these keep their leading and trailing spaces.
    quoted_match: /^\s|\s$/,
    // Not `escape_formulas`, which looks before the apostrophe is added, so it would also quote a cell
    // starting with a tab, and prefixes full-width signs as well: the export keeps its output.
    cast: { string: (value) => (FORMULA_START.test(value) ? `'${value}` : value) },
  });
}

const money = (cents: number) => (cents / 100).toFixed(2);

/** The warehouse export: one row per order line, the order's columns repeated on each. */
export async function ordersCsv(
  deps: Pick<StaffOrderDeps, 'config' | 'db'>,
  rawQuery: unknown,
): Promise<string> {
  const query = orderQuerySchema.parse(rawQuery ?? {});
  const found = await findOrders(deps, query);
  const ids = found.map(({ order }) => order.id);
  const lines =
    ids.length === 0
      ? []
      : await deps.db.models.OrderLine.findAll({
          where: { orderId: { [Op.in]: ids } },
          order: [['id', 'ASC']],
        });
  const byOrder = new Map<string, OrderLineInstance[]>();
  for (const line of lines) byOrder.set(line.orderId, [...(byOrder.get(line.orderId) ?? []), line]);
  const rows: CsvCell[][] = [];
  // Oldest first: the order the warehouse works in.
  for (const { order, store } of [...found].reverse()) {
    const c = customerOf(order);
    for (const line of byOrder.get(order.id) ?? []) {
      rows.push([
        order.confirmation,
        order.id,
        order.status,
        store.slug,
        store.name,
        order.createdAt.toISOString(),
        order.paidAt?.toISOString() ?? null,
        text(c, 'company'),
        text(c, 'firstName'),
        text(c, 'lastName'),
        order.email,
        text(c, 'phone'),
        `${text(c, 'onsiteFirstName')} ${text(c, 'onsiteLastName')}`.trim(),
        text(c, 'onsitePhone'),
        text(c, 'booth'),
        text(c, 'room'),
        text(c, 'deliveryDate'),
        text(c, 'deliveryTime'),
        text(c, 'pickupDate'),
        text(c, 'pickupTime'),
        line.productId,
        line.name,
        line.quantity,
        money(line.unitAmount),
        money(line.lineTotal),
        money(order.total),
        money(order.refundedAmount),
      ]);
    }
  }
  return ordersCsvText(rows);
}

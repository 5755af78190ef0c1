/**
 * Each overview chart said in a sentence or two, for everyone (it is printed above the chart) and for
 * screen readers, which skip the picture.
 */
import { formatPrice, type StaffOverview } from '@avp/shared';

const LONG = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const SHORT = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

const at = (day: string) => new Date(`${day}T12:00:00Z`);
/** 'Nov 12, 2026' */
export const longDay = (day: string) => LONG.format(at(day));
/** 'Nov 12', for axes. */
export const shortDay = (day: string) => SHORT.format(at(day));

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function spanText(overview: Pick<StaffOverview, 'from' | 'to'>): string {
  return `from ${longDay(overview.from)} to ${longDay(overview.to)}`;
}

export function ordersSummary(overview: StaffOverview): string {
  const money = (cents: number) => formatPrice(cents, overview.store.currency);
  const orders = overview.days.reduce((sum, d) => sum + d.orders, 0);
  if (orders === 0) return `No paid orders ${spanText(overview)}.`;
  const revenue = overview.days.reduce((sum, d) => sum + d.revenue, 0);
  const busiest = overview.days.reduce((best, d) => (d.orders > best.orders ? d : best));
  return (
    `${plural(orders, 'paid order')} ${spanText(overview)}, ${money(revenue)} in all. ` +
    `Busiest day: ${longDay(busiest.date)}, with ${plural(busiest.orders, 'order')} (${money(busiest.revenue)}).`
  );
}

export function earlyBirdSummary(overview: StaffOverview): string {
  const { orders, earlyBird } = overview.earlyBird;
  if (orders === 0) return `No paid orders ${spanText(overview)}, so no early-bird share.`;
  const share = Math.round((earlyBird / orders) * 100);
  return `${earlyBird} of ${plural(orders, 'paid order')} (${share}%) had the early-bird discount.`;
}

export function topProductsSummary(overview: StaffOverview): string {
  const [first, ...rest] = overview.topProducts;
  if (!first) return `No equipment ordered ${spanText(overview)}.`;
  const then = rest.slice(0, 2).map((p) => `${p.name}, ${plural(p.units, 'unit')}`);
  return `Most ordered: ${first.name}, ${plural(first.units, 'unit')}${then.length ? `; then ${then.join('; then ')}` : ''}.`;
}

export function stockSummary(overview: StaffOverview): string {
  const limited = overview.stock.filter((row) => row.limit !== null);
  if (limited.length === 0) return 'No product in this store has a limit: every one is unlimited.';
  const soldOut = limited.filter((row) => row.left === 0).map((row) => row.name);
  const open = limited.filter((row) => (row.left ?? 0) > 0);
  const lowest = open.reduce<(typeof open)[number] | null>(
    (low, row) => (low === null || (row.left ?? 0) < (low.left ?? 0) ? row : low),
    null,
  );
  const verb = limited.length === 1 ? 'has' : 'have';
  const parts = [`${limited.length} of ${plural(overview.stock.length, 'product')} ${verb} a limit.`];
  if (soldOut.length) parts.push(`Sold out: ${soldOut.join(', ')}.`);
  if (lowest) parts.push(`Fewest left: ${lowest.name}, ${lowest.left} of ${lowest.limit}.`);
  return parts.join(' ');
}

/** Per event, the files received in the span, most first. */
export function uploadsByEvent(overview: StaffOverview): { event: string; files: number }[] {
  const totals = new Map<string, number>();
  for (const row of overview.uploads) totals.set(row.event, (totals.get(row.event) ?? 0) + row.files);
  return [...totals.entries()]
    .map(([event, files]) => ({ event, files }))
    .sort((a, b) => b.files - a.files || a.event.localeCompare(b.event));
}

export const NO_EVENT = '(no event named)';
export const eventName = (event: string) => event || NO_EVENT;

export function uploadsSummary(overview: StaffOverview): string {
  const events = uploadsByEvent(overview);
  const [top] = events;
  if (!top) return `No uploads received ${spanText(overview)}.`;
  const files = events.reduce((sum, e) => sum + e.files, 0);
  return (
    `${plural(files, 'file')} received ${spanText(overview)} for ${plural(events.length, 'event')}. ` +
    `Most: ${eventName(top.event)}, ${plural(top.files, 'file')}.`
  );
}

/**
 * /staff/overview: one store's paid orders and revenue per day, its early-bird share, top products and
 * stock left, and the uploads received per event per day. Each chart has a summary in words and its numbers
 * as a table; the charts (visx) load with this page only.
 */
import { formatPrice, type StaffOverview } from '@avp/shared';
import { skipToken, useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { errorMessage } from '../../../lib/api';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import { DateInput } from '../../../ui';
import { staffApi } from '../api';
import { staffKeys, useStaffStores } from '../queries';
import { StoreSelect } from '../StoreSelect';
import '../admin.css';
import { ColumnChart, RowChart, SERIES_COLOURS } from './charts';
import {
  earlyBirdSummary,
  eventName,
  longDay,
  ordersSummary,
  shortDay,
  stockSummary,
  topProductsSummary,
  uploadsByEvent,
  uploadsSummary,
} from './summaries';

export default function OverviewPage() {
  useDocumentTitle('Overview');
  const storesQuery = useStaffStores();
  const stores = storesQuery.data?.stores ?? [];
  const [storeKey, setStoreKey] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const query = useQuery({
    queryKey: staffKeys.overview(Number(storeKey), from, to),
    queryFn: storeKey === '' ? skipToken : () => staffApi.overview({ storeId: Number(storeKey), from, to }),
    placeholderData: (previous) => previous,
  });
  const error = query.error ?? storesQuery.error;
  const overview = storeKey === '' ? undefined : query.data;
  return (
    <>
      <div className="staff-heading">
        <h1>Overview</h1>
      </div>
      <div className="staff-filters">
        <StoreSelect stores={stores} value={storeKey} onChange={setStoreKey} />
        <DateInput label="From" value={from} onChange={setFrom} description="Blank: 30 days before To" />
        <DateInput label="To" value={to} onChange={setTo} description="Blank: today" />
      </div>
      {error ? (
        <p role="alert" className="staff-error">
          {errorMessage(error)}
        </p>
      ) : null}
      {storeKey === '' ? <p>Choose a store to see its orders, stock and uploads.</p> : null}
      {storeKey !== '' && query.isPending ? <p role="status">Loading the overview…</p> : null}
      {overview ? <Overview overview={overview} /> : null}
    </>
  );
}

function Overview({ overview }: { overview: StaffOverview }) {
  const money = (cents: number) => formatPrice(cents, overview.store.currency);
  const whole = (n: number) => String(Math.round(n));
  const dates = overview.days.map((d) => d.date);
  const anyOrders = overview.days.some((d) => d.orders > 0);
  const { orders, earlyBird } = overview.earlyBird;
  const limited = overview.stock.filter((row) => row.limit !== null);
  const events = uploadsByEvent(overview);
  // Every day of the span, as the orders' charts: a quiet day shows as a gap, not as nothing.
  const uploadDays = dates;
  return (
    <div className="staff-overview">
      <ChartPanel
        title="Orders per day"
        summary={ordersSummary(overview)}
        chart={
          anyOrders ? (
            <ColumnChart
              categories={dates}
              labelOf={shortDay}
              series={[{ name: 'Orders', values: overview.days.map((d) => d.orders) }]}
              format={whole}
              whole
            />
          ) : null
        }
        table={
          <DataTable
            caption="Orders and revenue per day"
            head={['Day', 'Orders', 'Revenue']}
            rows={overview.days
              .filter((d) => d.orders > 0)
              .map((d) => [longDay(d.date), d.orders, money(d.revenue)])}
          />
        }
      />
      <ChartPanel
        title="Revenue per day"
        summary={
          anyOrders
            ? `Paid totals per day, in ${overview.store.currency.toUpperCase()}.`
            : ordersSummary(overview)
        }
        chart={
          anyOrders ? (
            <ColumnChart
              categories={dates}
              labelOf={shortDay}
              series={[{ name: 'Revenue', values: overview.days.map((d) => d.revenue) }]}
              format={(cents) => money(cents).replace(/\.00$/, '')}
            />
          ) : null
        }
        table={
          <DataTable
            caption="Revenue per day"
            head={['Day', 'Revenue']}
            rows={overview.days.filter((d) => d.orders > 0).map((d) => [longDay(d.date), money(d.revenue)])}
          />
        }
      />
      <ChartPanel
        title="Early-bird share"
        summary={earlyBirdSummary(overview)}
        chart={
          orders > 0 ? (
            <RowChart
              rows={[
                { label: 'Early-bird', value: earlyBird, whole: orders },
                { label: 'Regular price', value: orders - earlyBird, whole: orders },
              ]}
              format={whole}
            />
          ) : null
        }
        table={
          orders > 0 ? (
            <DataTable
              caption="Paid orders by pricing"
              head={['Pricing', 'Orders', 'Share']}
              rows={[
                ['Early-bird', earlyBird, `${Math.round((earlyBird / orders) * 100)}%`],
                [
                  'Regular price',
                  orders - earlyBird,
                  `${Math.round(((orders - earlyBird) / orders) * 100)}%`,
                ],
              ]}
            />
          ) : null
        }
      />
      <ChartPanel
        title="Top products by units"
        summary={topProductsSummary(overview)}
        chart={
          overview.topProducts.length > 0 ? (
            <RowChart
              rows={overview.topProducts.map((p) => ({ label: p.name, value: p.units }))}
              format={whole}
            />
          ) : null
        }
        table={
          <DataTable
            caption="Units ordered per product"
            head={['Product', 'Units']}
            rows={overview.topProducts.map((p) => [p.name, p.units])}
          />
        }
      />
      <ChartPanel
        title="Stock left per product"
        summary={stockSummary(overview)}
        chart={
          limited.length > 0 ? (
            <RowChart
              rows={limited.map((row) => ({ label: row.name, value: row.left ?? 0, whole: row.limit ?? 0 }))}
              format={whole}
            />
          ) : null
        }
        table={
          <DataTable
            caption="Stock per product"
            head={['Product', 'Limit', 'Held', 'Sold', 'Left']}
            rows={overview.stock.map((row) => [
              row.name,
              row.limit ?? 'Unlimited',
              row.held,
              row.sold,
              row.left ?? 'Unlimited',
            ])}
          />
        }
      />
      <ChartPanel
        title="Uploads received per event per day"
        summary={uploadsSummary(overview)}
        chart={
          events.length > 0 ? (
            <>
              <ColumnChart
                categories={uploadDays}
                labelOf={shortDay}
                series={events.map(({ event }) => ({
                  name: eventName(event),
                  values: uploadDays.map(
                    (day) => overview.uploads.find((u) => u.date === day && u.event === event)?.files ?? 0,
                  ),
                }))}
                format={whole}
                whole
              />
              <ul className="staff-chart__legend" aria-hidden="true">
                {events.map(({ event }, k) => (
                  <li key={event}>
                    <span style={{ background: SERIES_COLOURS[k % SERIES_COLOURS.length] }} />
                    {eventName(event)}
                  </li>
                ))}
              </ul>
            </>
          ) : null
        }
        table={
          <DataTable
            caption="Files received per event per day"
            head={['Day', 'Event', 'Files']}
            rows={overview.uploads.map((u) => [longDay(u.date), eventName(u.event), u.files])}
          />
        }
      />
    </div>
  );
}

function ChartPanel({
  title,
  summary,
  chart,
  table,
}: {
  title: string;
  summary: string;
  chart: ReactNode;
  table?: ReactNode;
}) {
  const id = useId();
  return (
    <section className="staff-panel staff-chart-panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="staff-chart__summary">{summary}</p>
      {chart}
      {chart && table ? (
        <details className="staff-chart__table">
          <summary>Show the numbers as a table</summary>
          {table}
        </details>
      ) : null}
    </section>
  );
}

function DataTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string[];
  rows: (string | number)[][];
}) {
  return (
    <div className="staff-table-scroll">
      <table className="staff-table staff-table--fit">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={h} scope="col" className={i > 0 ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) =>
                c === 0 ? (
                  <th key={c} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={c} className="num">
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

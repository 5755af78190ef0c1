/**
 * /staff/orders: orders across stores or for one, filtered by status and the day they were placed, and the
 * CSV export for the warehouse (one row per order line).
 */
import { formatDate, formatPrice } from '@avp/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { DateInput, SelectField } from '../../../ui';
import { orderQuery, staffApi, type OrderFilters } from '../api';
import { orderStatusLabel } from '../labels';
import { staffKeys, useStaffDateTime, useStaffStores } from '../queries';
import { StoreSelect } from '../StoreSelect';

const STATUSES = [
  { id: 'settled', label: 'Paid (incl. refunded)' },
  { id: 'all', label: 'All' },
  { id: 'needs_review', label: 'Needs review' },
  { id: 'pending', label: 'Pending' },
  { id: 'paid', label: 'Paid' },
  { id: 'partially_refunded', label: 'Partially refunded' },
  { id: 'refunded', label: 'Refunded' },
  { id: 'failed', label: 'Failed' },
  { id: 'canceled', label: 'Canceled' },
];

/** The orders matching the filters; while new filters load, the last list stays on screen. */
function useOrders(filters: OrderFilters) {
  return useQuery({
    queryKey: staffKeys.orders(filters),
    queryFn: ({ signal }) => staffApi.orders(filters, signal).then((answer) => answer.orders),
    placeholderData: (previous) => previous,
  });
}

export function OrderList() {
  const stores = useStaffStores().data?.stores ?? [];
  const [filters, setFilters] = useState<OrderFilters>({ store: '', status: 'settled', from: '', to: '' });
  const { data: orders, error } = useOrders(filters);
  const when = useStaffDateTime();
  const failure = error ? errorMessage(error) : null;
  const set = (key: keyof OrderFilters) => (value: string) => setFilters((f) => ({ ...f, [key]: value }));
  return (
    <section aria-labelledby="orders-title">
      <div className="staff-heading">
        <h1 id="orders-title">Orders</h1>
        <a className="kit-button" href={`/api/staff/orders.csv${orderQuery(filters)}`} download>
          Download CSV
        </a>
      </div>
      <div className="staff-filters">
        <StoreSelect stores={stores} value={filters.store} onChange={set('store')} allStores />
        <SelectField label="Status" value={filters.status} onChange={set('status')} options={STATUSES} />
        <DateInput label="Placed from" value={filters.from} onChange={set('from')} />
        <DateInput label="Placed to" value={filters.to} onChange={set('to')} />
      </div>
      {failure ? (
        <p role="alert" className="staff-error">
          {failure}
        </p>
      ) : null}
      {orders === undefined ? (
        <p role="status">Loading orders…</p>
      ) : orders.length === 0 ? (
        <p>No orders match.</p>
      ) : (
        <div className="staff-table-scroll">
          <table className="staff-table" aria-labelledby="orders-title">
            <thead>
              <tr>
                <th>Confirmation</th>
                <th>Store</th>
                <th>Status</th>
                <th>Company</th>
                <th>Booth</th>
                <th>Delivery</th>
                <th className="num">Total</th>
                <th className="num">Refunded</th>
                <th>Placed</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link to={`/staff/orders/${o.id}`}>{o.confirmation ?? o.id.slice(0, 8)}</Link>
                  </td>
                  <td>{o.store.name}</td>
                  <td>
                    {o.status === 'needs_review' ? (
                      <strong>{orderStatusLabel(o.status)}</strong>
                    ) : (
                      orderStatusLabel(o.status)
                    )}
                  </td>
                  <td>{o.company}</td>
                  <td>{o.booth}</td>
                  <td>{o.delivery_date ? formatDate(o.delivery_date) : ''}</td>
                  <td className="num">{formatPrice(o.total, o.currency)}</td>
                  <td className="num">
                    {o.refunded_amount ? formatPrice(o.refunded_amount, o.currency) : ''}
                  </td>
                  <td>{when(o.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * /staff/orders and /staff/orders/:orderId: orders across stores or for one, filtered by status and the
 * day they were placed; the CSV export for the warehouse (one row per order line); an order's detail with
 * the refund (full or partial, with a reason, the amount shown before it is issued) and resending the
 * confirmation e-mail.
 */
import { formatDate, formatPrice } from '@avp/shared';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Button, ConfirmDialog, DateInput, SelectField, TextField } from '../../ui';
import {
  orderQuery,
  staffApi,
  type OrderDetail,
  type OrderFilters,
  type OrderSummary,
  type StaffStore,
} from './api';
import { toCents } from './ProductsPage';

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

export default function OrdersPage() {
  const { orderId } = useParams();
  useDocumentTitle(orderId ? 'Order' : 'Orders');
  return orderId ? <OrderView orderId={orderId} /> : <OrderList />;
}

function OrderList() {
  const [stores, setStores] = useState<StaffStore[]>([]);
  const [filters, setFilters] = useState<OrderFilters>({ store: '', status: 'settled', from: '', to: '' });
  const [orders, setOrders] = useState<OrderSummary[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    void staffApi.stores().then(
      (a) => setStores(a.stores),
      () => undefined,
    );
  }, []);
  useEffect(() => {
    void staffApi.orders(filters).then(
      (a) => {
        setFailure(null);
        setOrders(a.orders);
      },
      (e: unknown) => setFailure(errorMessage(e)),
    );
  }, [filters]);
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
        <SelectField
          label="Store"
          value={filters.store}
          onChange={set('store')}
          placeholder="All stores"
          options={[
            { id: '', label: 'All stores' },
            ...stores.map((s) => ({ id: String(s.id), label: s.name })),
          ]}
        />
        <SelectField label="Status" value={filters.status} onChange={set('status')} options={STATUSES} />
        <DateInput label="Placed from" value={filters.from} onChange={set('from')} />
        <DateInput label="Placed to" value={filters.to} onChange={set('to')} />
      </div>
      {failure ? (
        <p role="alert" className="staff-error">
          {failure}
        </p>
      ) : null}
      {orders === null ? (
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
                  <td>{o.status === 'needs_review' ? <strong>needs review</strong> : o.status}</td>
                  <td>{o.company}</td>
                  <td>{o.booth}</td>
                  <td>{o.delivery_date ? formatDate(o.delivery_date) : ''}</td>
                  <td className="num">{formatPrice(o.total, o.currency)}</td>
                  <td className="num">
                    {o.refunded_amount ? formatPrice(o.refunded_amount, o.currency) : ''}
                  </td>
                  <td>{new Date(o.created_at).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const CUSTOMER_FIELDS: [string, string][] = [
  ['company', 'Company'],
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['email', 'E-mail'],
  ['phone', 'Phone'],
  ['address', 'Address'],
  ['city', 'City'],
  ['state', 'State'],
  ['zip', 'Zip'],
  ['onsiteFirstName', 'Onsite first name'],
  ['onsiteLastName', 'Onsite last name'],
  ['onsiteEmail', 'Onsite e-mail'],
  ['onsitePhone', 'Onsite phone'],
  ['booth', 'Booth'],
  ['room', 'Room'],
  ['deliveryDate', 'Delivery date'],
  ['deliveryTime', 'Delivery time'],
  ['pickupDate', 'Pickup date'],
  ['pickupTime', 'Pickup time'],
];

function newKey(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

function OrderView({ orderId }: { orderId: string }) {
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState<{ cents: number; key: string } | null>(null);
  useEffect(() => {
    void staffApi.order(orderId).then(
      (a) => setOrder(a.order),
      (e: unknown) => setMessage({ error: true, text: errorMessage(e) }),
    );
  }, [orderId]);
  if (!order)
    return message ? (
      <p role="alert" className="staff-error">
        {message.text}
      </p>
    ) : (
      <p role="status">Loading order…</p>
    );
  const money = (cents: number) => formatPrice(cents, order.currency);

  const askRefund = () => {
    const cents = toCents(amount);
    if (cents === null || cents < 1)
      return setMessage({ error: true, text: 'Enter the amount to refund, like 12.50.' });
    if (cents > order.refundable)
      return setMessage({ error: true, text: `At most ${money(order.refundable)} can be refunded.` });
    if (reason.trim() === '')
      return setMessage({ error: true, text: 'Please give a reason for the refund.' });
    setMessage(null);
    // One key per confirmation: a double click or a retry of this refund is the same refund.
    setConfirming({ cents, key: newKey() });
  };
  const issue = () => {
    if (!confirming) return;
    const { cents, key } = confirming;
    setConfirming(null);
    void staffApi.refund(order.id, { amount: cents, reason: reason.trim(), key }).then(
      (a) => {
        setOrder(a.order);
        setAmount('');
        setReason('');
        setMessage({ error: false, text: `Refunded ${money(cents)}.` });
      },
      (e: unknown) => setMessage({ error: true, text: errorMessage(e) }),
    );
  };
  const resend = () =>
    void staffApi.resend(order.id).then(
      (a) => setMessage({ error: false, text: `The confirmation e-mail was queued to ${a.to}.` }),
      (e: unknown) => setMessage({ error: true, text: errorMessage(e) }),
    );

  return (
    <section aria-labelledby="order-title">
      <p>
        <Link to="/staff/orders">All orders</Link>
      </p>
      <h1 id="order-title">Order {order.confirmation ?? order.id}</h1>
      {message ? (
        <p
          role={message.error ? 'alert' : 'status'}
          className={message.error ? 'staff-error' : 'staff-status'}
        >
          {message.text}
        </p>
      ) : null}
      <p>
        {order.store.name} · status <strong>{order.status}</strong> · placed{' '}
        {new Date(order.created_at).toLocaleString()}
        {order.paid_at ? ` · paid ${new Date(order.paid_at).toLocaleString()}` : ''}
      </p>
      {order.review ? (
        <p className="staff-error" role="note">
          Held for review, not paid: {order.review.reason} The provider captured{' '}
          <strong>{formatPrice(order.review.amount_received, order.review.received_currency)}</strong> against
          a total of <strong>{money(order.total)}</strong>. No confirmation was sent; refund what was captured
          and ask the exhibitor to order again.
        </p>
      ) : null}
      <p>
        Payment: {order.gateway}
        {order.card ? ` · ${order.card.brand} ending in ${order.card.last4}` : ''} · reference{' '}
        {order.payment_reference ?? '—'}
      </p>
      <div className="staff-table-scroll">
        <table className="staff-table" aria-label="Lines">
          <thead>
            <tr>
              <th>Product</th>
              <th className="num">Unit price</th>
              <th className="num">Quantity</th>
              <th className="num">Line total</th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((l) => (
              <tr key={l.product_id}>
                <td>{l.name}</td>
                <td className="num">{money(l.unit_amount)}</td>
                <td className="num">{l.quantity}</td>
                <td className="num">{money(l.line_total)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td colSpan={3}>Subtotal</td>
              <td className="num">{money(order.subtotal)}</td>
            </tr>
            <tr>
              <td colSpan={3}>Early-bird discount</td>
              <td className="num">{money(order.discount)}</td>
            </tr>
            <tr>
              <td colSpan={3}>Service fee</td>
              <td className="num">{money(order.fee)}</td>
            </tr>
            <tr>
              <td colSpan={3}>Total</td>
              <td className="num">{money(order.total)}</td>
            </tr>
            <tr>
              <td colSpan={3}>Refunded</td>
              <td className="num">{money(order.refunded_amount)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <div className="staff-panel">
        <h2>Customer</h2>
        <dl className="staff-form">
          {CUSTOMER_FIELDS.map(([key, label]) => (
            <div key={key}>
              <dt className="staff-muted">{label}</dt>
              <dd>{order.customer[key] ?? ''}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div className="staff-panel">
        <h2>E-mail</h2>
        <Button variant="secondary" onPress={resend} isDisabled={!order.confirmation}>
          Resend confirmation e-mail
        </Button>
      </div>
      <div className="staff-panel">
        <h2>Refunds</h2>
        {order.refunds.length > 0 ? (
          <ul>
            {order.refunds.map((r) => (
              <li key={r.id}>
                {money(r.amount)} · {r.status} · {r.reason} · {new Date(r.created_at).toLocaleString()}
              </li>
            ))}
          </ul>
        ) : null}
        {order.refundable > 0 ? (
          <form
            aria-label="Refund"
            className="staff-filters"
            onSubmit={(event) => {
              event.preventDefault();
              askRefund();
            }}
          >
            <TextField
              label="Amount to refund"
              value={amount}
              onChange={setAmount}
              inputMode="decimal"
              description={`At most ${money(order.refundable)}`}
            />
            <TextField label="Reason" value={reason} onChange={setReason} />
            <Button variant="secondary" onPress={() => setAmount((order.refundable / 100).toFixed(2))}>
              Full amount
            </Button>
            <Button type="submit">Refund…</Button>
          </form>
        ) : (
          <p className="staff-muted">Nothing left to refund.</p>
        )}
      </div>
      <ConfirmDialog
        isOpen={confirming !== null}
        title="Issue this refund?"
        text={
          confirming
            ? `${money(confirming.cents)} will be refunded to the card of ${order.email} through ${order.gateway}. Reason: ${reason.trim()}`
            : ''
        }
        confirmLabel={confirming ? `Refund ${money(confirming.cents)}` : 'Refund'}
        onCancel={() => setConfirming(null)}
        onConfirm={issue}
        destructive
      />
    </section>
  );
}

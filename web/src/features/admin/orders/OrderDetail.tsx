/**
 * /staff/orders/:orderId: an order whole (amounts, payment, customer), resending its confirmation e-mail,
 * and its refunds.
 */
import { formatDate, formatPrice, isDateOnly } from '@avp/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { Button } from '../../../ui';
import { staffApi } from '../api';
import { cardBrandLabel, orderStatusLabel } from '../labels';
import { staffKeys, useStaffDateTime } from '../queries';
import { RefundPanel, type Notice } from './RefundDialog';

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

/** A customer's day (delivery, pickup) reads like every other date on the staff screens. */
function customerValue(value: string): string {
  return isDateOnly(value) ? formatDate(value) : value;
}

export function OrderDetail({ orderId }: { orderId: string }) {
  const [notice, setNotice] = useState<Notice>(null);
  const when = useStaffDateTime();
  const { data: order, error } = useQuery({
    queryKey: staffKeys.order(orderId),
    queryFn: () => staffApi.order(orderId).then((answer) => answer.order),
  });
  const resend = useMutation({
    mutationFn: (id: string) => staffApi.resend(id),
    onSuccess: (answer) =>
      setNotice({ error: false, text: `The confirmation e-mail was queued to ${answer.to}.` }),
    onError: (failure) => setNotice({ error: true, text: errorMessage(failure) }),
  });
  if (!order)
    return error ? (
      <p role="alert" className="staff-error">
        {errorMessage(error)}
      </p>
    ) : (
      <p role="status">Loading order…</p>
    );
  const money = (cents: number) => formatPrice(cents, order.currency);

  return (
    <section aria-labelledby="order-title">
      <p>
        <Link to="/staff/orders">All orders</Link>
      </p>
      <h1 id="order-title">Order {order.confirmation ?? order.id}</h1>
      {notice ? (
        <p role={notice.error ? 'alert' : 'status'} className={notice.error ? 'staff-error' : 'staff-status'}>
          {notice.text}
        </p>
      ) : null}
      <p>
        {order.store.name} · status <strong>{orderStatusLabel(order.status)}</strong> · placed{' '}
        {when(order.created_at)}
        {order.paid_at ? ` · paid ${when(order.paid_at)}` : ''}
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
        {order.card ? ` · ${cardBrandLabel(order.card.brand)} ending in ${order.card.last4}` : ''} · reference{' '}
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
              {/* Shown as the exhibitor saw it: an amount taken off. */}
              <td className="num">{order.discount > 0 ? `-${money(order.discount)}` : money(0)}</td>
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
              <dd>{customerValue(order.customer[key] ?? '')}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div className="staff-panel">
        <h2>E-mail</h2>
        <Button variant="secondary" onPress={() => resend.mutate(order.id)} isDisabled={!order.confirmation}>
          Resend confirmation e-mail
        </Button>
      </div>
      <RefundPanel order={order} onNotice={setNotice} />
    </section>
  );
}

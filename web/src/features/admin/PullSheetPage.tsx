/** /staff/pull-sheet: for a store, per delivery day, the equipment to load and the orders it goes to. */
import { formatDate } from '@avp/shared';
import { skipToken, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Button, DateInput } from '../../ui';
import { staffApi } from './api';
import { staffKeys, useStaffStores } from './queries';
import { StoreSelect } from './StoreSelect';
import './admin.css';

export default function PullSheetPage() {
  useDocumentTitle('Pull sheet');
  const storesQuery = useStaffStores();
  const stores = storesQuery.data?.stores ?? [];
  const [storeKey, setStoreKey] = useState('');
  const [date, setDate] = useState('');
  const sheetQuery = useQuery({
    queryKey: staffKeys.pullSheet(Number(storeKey), date),
    queryFn: storeKey === '' ? skipToken : () => staffApi.pullSheet(Number(storeKey), date),
    placeholderData: (previous) => previous,
  });
  const sheet = sheetQuery.data ?? null;
  const error = sheetQuery.error ?? storesQuery.error;
  const failure = error ? errorMessage(error) : null;
  return (
    <>
      <div className="staff-heading">
        <h1>Pull sheet</h1>
        <Button variant="secondary" onPress={() => window.print()}>
          Print
        </Button>
      </div>
      <div className="staff-filters">
        <StoreSelect stores={stores} value={storeKey} onChange={setStoreKey} />
        <DateInput label="Delivery day" value={date} onChange={setDate} description="Blank: every day" />
      </div>
      {failure ? (
        <p role="alert" className="staff-error">
          {failure}
        </p>
      ) : null}
      {sheet && sheet.days.length === 0 ? <p>No paid orders to deliver.</p> : null}
      {sheet && sheet.days.length > 0 ? (
        <p className="staff-muted">
          Paid: units of paid orders, to load. Held: units kept for orders still being paid; they load only
          once paid.
        </p>
      ) : null}
      {sheet?.days.map((day) => (
        <section
          key={day.date}
          className="staff-panel"
          aria-label={`Delivery ${day.date ? formatDate(day.date) : '(no date)'}`}
        >
          <h2>Delivery {day.date ? formatDate(day.date) : '(no date)'}</h2>
          <div className="staff-table-scroll">
            <table className="staff-table staff-table--fit" aria-label="Equipment to load">
              <thead>
                <tr>
                  <th>Equipment</th>
                  <th className="num">Paid</th>
                  <th className="num">Held</th>
                </tr>
              </thead>
              <tbody>
                {day.items.map((item) => (
                  <tr key={item.product_id}>
                    <td>{item.name}</td>
                    <td className="num">{item.paid}</td>
                    <td className="num">{item.held}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3>Orders</h3>
          <ul>
            {day.orders.map((o) => (
              <li key={o.id}>
                {o.confirmation} · {o.company} · booth {o.booth}
                {o.room ? `, ${o.room}` : ''} · {o.delivery_time} ·{' '}
                {o.lines.map((l) => `${l.quantity} × ${l.name}`).join(', ')}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

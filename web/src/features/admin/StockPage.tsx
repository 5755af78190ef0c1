/**
 * /staff/stock: per store, each product's limit (blank = unlimited) with what is held, sold and left. A
 * limit is edited in its row and saved with Enter or Save; the server refuses a limit below what is
 * already sold or held, in a sentence shown beside the field.
 */
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Button, TextField } from '../../ui';
import { staffApi, type StockRow } from './api';
import { staffKeys, useStaffStores } from './queries';
import { StoreSelect } from './StoreSelect';
import './admin.css';

export const STOCK_LIMIT_MAX = 100_000;
export const LIMIT_INVALID = 'Enter a whole number from 0 to 100,000, or leave it blank for unlimited.';

/** The field's text as a limit: blank is unlimited (null); anything else must be a whole number in range. */
export function parseLimit(text: string): { limit: number | null } | { error: string } {
  const trimmed = text.trim().replace(/,/g, '');
  if (trimmed === '') return { limit: null };
  if (!/^\d{1,6}$/.test(trimmed) || Number(trimmed) > STOCK_LIMIT_MAX) return { error: LIMIT_INVALID };
  return { limit: Number(trimmed) };
}

export function limitText(limit: number | null): string {
  return limit === null ? '' : String(limit);
}

export default function StockPage() {
  useDocumentTitle('Stock');
  const storesQuery = useStaffStores();
  const stores = storesQuery.data?.stores ?? [];
  const [storeKey, setStoreKey] = useState('');
  const store = Number(storeKey);
  const stockQuery = useQuery({
    queryKey: staffKeys.stock(store),
    queryFn: storeKey === '' ? skipToken : () => staffApi.stock(store),
  });
  const rows = stockQuery.data?.rows ?? null;
  const error = stockQuery.error ?? storesQuery.error;
  return (
    <>
      <div className="staff-heading">
        <h1>Stock</h1>
      </div>
      <p className="staff-muted">
        Leave a limit blank for unlimited. Held units are kept for orders being paid; they return when a hold
        runs out.
      </p>
      <div className="staff-filters">
        <StoreSelect stores={stores} value={storeKey} onChange={setStoreKey} />
      </div>
      {error ? (
        <p role="alert" className="staff-error">
          {errorMessage(error)}
        </p>
      ) : null}
      {storeKey !== '' && stockQuery.isPending ? <p role="status">Loading the stock…</p> : null}
      {rows && rows.length === 0 ? <p>This store has no products with prices yet.</p> : null}
      {rows && rows.length > 0 ? (
        <table className="staff-table staff-table--cards staff-stock" aria-label="Stock">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Limit</th>
              <th scope="col" className="num">
                Held
              </th>
              <th scope="col" className="num">
                Sold
              </th>
              <th scope="col" className="num">
                Left
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <StockRowEditor key={`${store}:${row.productId}`} storeKey={store} row={row} />
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

function StockRowEditor({ storeKey, row }: { storeKey: number; row: StockRow }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState(limitText(row.limit));
  const [shown, setShown] = useState(row.limit);
  if (shown !== row.limit) {
    // Saved here or changed elsewhere: the field starts again from the limit the server holds.
    setShown(row.limit);
    setText(limitText(row.limit));
  }
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (limit: number | null) => staffApi.setStockLimit(storeKey, row.productId, limit),
    onSuccess: (_answer, limit) => {
      setSaved(limit === null ? `${row.name}: unlimited.` : `${row.name}: limit ${limit}.`);
      void queryClient.invalidateQueries({ queryKey: staffKeys.stock(storeKey) });
    },
    onError: (error) => setProblem(errorMessage(error)),
  });
  const changed = text.trim() !== limitText(row.limit);
  const submit = () => {
    setSaved(null);
    const parsed = parseLimit(text);
    if ('error' in parsed) return setProblem(parsed.error);
    setProblem(null);
    save.mutate(parsed.limit);
  };
  return (
    <tr>
      <th scope="row" data-label="Product" className="staff-stock__name">
        {row.name}
      </th>
      <td data-label="Limit">
        <form
          className="staff-stock__form"
          aria-label={`Limit of ${row.name}`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <TextField
            label={<span className="visually-hidden">Limit of {row.name}</span>}
            value={text}
            onChange={(value) => {
              setText(value);
              setSaved(null);
            }}
            inputMode="numeric"
            placeholder="Unlimited"
            errorMessage={problem ?? undefined}
          />
          {changed ? (
            <Button type="submit" variant="secondary" dense isDisabled={save.isPending}>
              Save
            </Button>
          ) : null}
        </form>
        <p className="staff-status staff-stock__saved" role="status">
          {saved ?? ''}
        </p>
        {/* The refusal is on the field; this says it aloud when it appears. */}
        <p className="visually-hidden" role="alert">
          {problem ?? ''}
        </p>
      </td>
      <td className="num" data-label="Held">
        {row.held}
      </td>
      <td className="num" data-label="Sold">
        {row.sold}
      </td>
      <td className="num" data-label="Left">
        {row.left === null ? 'Unlimited' : row.left}
      </td>
    </tr>
  );
}

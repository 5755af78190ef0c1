import { formatPrice } from '@avp/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, Navigate } from 'react-router';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import '../store.css';
import { Button } from '../../../ui';
import { storeApi } from '../api';
import { CartSummary } from '../components/CartSummary';
import { StoreHeader } from '../components/StoreHeader';
import { usePaymentResult, type PaymentReceiptRef } from '../state';
import { loadedOf, storeQuery } from '../useStoreData';

const POLL_MS = 2_000;
const POLL_LIMIT = 30;

/**
 * /confirmation (SPEC §2): only when a payment result exists. The order is fetched by its id and secret
 * token, so a reload shows the same receipt.
 */
export default function ConfirmationPage() {
  const result = usePaymentResult();
  if (!result) return <Navigate to="/exhibitor_order" replace />;
  return <Receipt key={result.orderId} result={result} />;
}

/**
 * The pictures of the store's products by id, for the summary's thumbnails (null while asked; empty if the
 * store cannot say). Asked alongside the order, so the receipt appears whole rather than shifting.
 */
function useProductPictures(storeId: string): ReadonlyMap<number, string> | null {
  const { data: store, isError } = useQuery(storeQuery(storeId));
  if (store)
    return new Map(store.products.flatMap((p) => (p.images[0] ? [[p.id, p.images[0]] as const] : [])));
  return isError ? new Map() : null;
}

function Receipt({ result }: { result: PaymentReceiptRef }) {
  useDocumentTitle('Order confirmation');
  const query = useQuery({
    queryKey: ['store', 'order', result.orderId],
    queryFn: () => storeApi.getOrder(result),
    // A payment still processing at the provider (some methods take a moment): look again shortly.
    refetchInterval: (current) =>
      current.state.data?.status === 'pending' && current.state.dataUpdateCount <= POLL_LIMIT
        ? POLL_MS
        : false,
    gcTime: 0,
  });
  const loaded = loadedOf(query);
  const pictures = useProductPictures(result.storeId);
  // Focus starts at the page's heading once the receipt is shown (and again if its status changes), not
  // on <body>, where the payment page's button left it.
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStatus = loaded.status === 'ready' && pictures !== null ? loaded.data.status : null;
  useEffect(() => {
    if (shownStatus) heading.current?.focus();
  }, [shownStatus]);

  if (loaded.status === 'loading' || (loaded.status === 'ready' && pictures === null)) {
    return (
      <p className="store-loading" role="status">
        Loading your receipt…
      </p>
    );
  }
  if (loaded.status !== 'ready') {
    return (
      <div className="store-page">
        <div className="store-alert" role="alert">
          <p>
            {loaded.status === 'not-found'
              ? 'This receipt could not be found.'
              : `Your receipt could not be loaded. ${loaded.error}`}
          </p>
          {loaded.status === 'error' ? <Button onPress={() => void query.refetch()}>Retry</Button> : null}
          <p>
            <Link to="/exhibitor_order">Back to the stores</Link>
          </p>
        </div>
      </div>
    );
  }
  const order = loaded.data;
  const paid = order.status === 'paid';
  const held = order.status === 'needs_review';
  return (
    <div className="store-page store-confirmation">
      <StoreHeader store={order.store} />
      <section className="store-panel" aria-label="Confirmation">
        <h2 className="store-panel__title" tabIndex={-1} ref={heading}>
          {paid
            ? 'Thank you for your order'
            : held
              ? 'Your order needs a check'
              : 'Your payment is processing'}
        </h2>
        {held ? (
          <p role="alert">
            The amount your payment provider took does not match this order&apos;s total, so the order is not
            confirmed yet. Our staff have been told and will contact you at <strong>{order.email}</strong> to
            put it right; nothing more will be charged.
          </p>
        ) : paid ? (
          <>
            <p className="store-confirmation__charged">
              Your card was charged{' '}
              <strong data-testid="charged-amount">{formatPrice(order.total, order.currency)}</strong>
              {order.card ? ` (${order.card})` : ''}.
            </p>
            <p className="store-confirmation__number">
              Your confirmation number is{' '}
              <strong data-testid="confirmation-number">{order.confirmation}</strong>. Please save it for your
              records.
            </p>
            <p>
              An e-mail confirmation with your order summary and invoice receipt will be sent to{' '}
              <strong>{order.email}</strong>.
            </p>
          </>
        ) : (
          <p role="status">
            We are waiting for the payment provider to confirm your payment of{' '}
            {formatPrice(order.total, order.currency)}. This page updates by itself.
          </p>
        )}
      </section>
      <CartSummary
        title="Order summary"
        lines={order.lines.map((line) => ({
          key: line.productId,
          picture: pictures?.get(line.productId) ?? null,
          ...line,
        }))}
        amounts={order}
        currency={order.currency}
      />
      <p>
        <Link to={`/exhibitor_order/${encodeURIComponent(order.store.store_id)}`}>Back to the store</Link>
      </p>
    </div>
  );
}

import { earlyBirdUntil, formatDate, STORE_CLOSED_NOTICE } from '@avp/shared';
import { useEffect, type ReactNode } from 'react';
import { Button } from '../../../ui';
import { useDocumentTitle } from '../../../lib/useDocumentTitle';
import type { StoreData } from '../api';
import { setCurrentStore } from '../state';
import { useStoreData } from '../useStoreData';
import { StoreHeader } from './StoreHeader';
import { StoreNotFound } from './StoreNotFound';

/**
 * Every order page of one store: the store is loaded (loading text, an error with Retry, or the 404 page for
 * an unknown store id), the exhibitor header is drawn, and a closed store shows 'This store is currently
 * closed.' in place of the page's own content. While early-bird pricing lasts, its last day is named.
 */
export function StoreFrame({
  storeId,
  children,
}: {
  storeId: string;
  children: (store: StoreData) => ReactNode;
}) {
  const loaded = useStoreData(storeId);
  const store = loaded.data;
  useDocumentTitle(store ? `${store.name} Order Form` : 'Exhibitor order');
  useEffect(() => {
    if (store) setCurrentStore(store.store_id);
  }, [store]);

  if (loaded.status === 'not-found') return <StoreNotFound />;
  if (loaded.status === 'loading') {
    return (
      <p className="store-loading" role="status">
        Loading the store…
      </p>
    );
  }
  if (loaded.status === 'error') {
    return (
      <div className="store-page">
        <div className="store-alert" role="alert">
          <p>The store could not be loaded. {loaded.error}</p>
          <Button onPress={loaded.retry}>Retry</Button>
        </div>
      </div>
    );
  }
  const ready = loaded.data;
  return (
    <div className="store-page">
      <StoreHeader store={ready} />
      {ready.closed ? (
        <p className="store-closed" role="status">
          {STORE_CLOSED_NOTICE}
        </p>
      ) : (
        <>
          {ready.early_bird ? (
            <p className="store-earlybird">{earlyBirdUntil(formatDate(ready.deadline))}</p>
          ) : null}
          {children(ready)}
        </>
      )}
    </div>
  );
}

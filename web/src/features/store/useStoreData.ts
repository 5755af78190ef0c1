import { useEffect, useState } from 'react';
import { storeApi, StoreApiError, type StoreData, type StoreSummary } from './api';

/**
 * Store data for the order pages. A store seen before renders at once from memory and is fetched again
 * in the background (whether it is closed depends on the clock); a failure leaves a message and a retry
 * (DESIGN deviation 5). Callers key their component by store id, so one hook serves one store.
 */
export type Loaded<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'ready'; data: T; error?: undefined }
  | { status: 'not-found'; data?: undefined; error?: undefined }
  | { status: 'error'; data?: undefined; error: string };

const stores = new Map<string, StoreData>();

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function useStoreData(storeId: string) {
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<StoreData>>(() => {
    const cached = stores.get(storeId);
    return cached ? { status: 'ready', data: cached } : { status: 'loading' };
  });

  useEffect(() => {
    let live = true;
    storeApi.getStore(storeId).then(
      (store) => {
        stores.set(storeId, store);
        if (live) setLoaded({ status: 'ready', data: store });
      },
      (error: unknown) => {
        if (!live) return;
        if (error instanceof StoreApiError && error.status === 404) setLoaded({ status: 'not-found' });
        // A failed refresh of a store already shown keeps showing it.
        else
          setLoaded((previous) =>
            previous.status === 'ready' ? previous : { status: 'error', error: messageOf(error) },
          );
      },
    );
    return () => {
      live = false;
    };
  }, [storeId, attempt]);

  const retry = () => {
    setLoaded((previous) => (previous.status === 'ready' ? previous : { status: 'loading' }));
    setAttempt((n) => n + 1);
  };
  return { ...loaded, retry };
}

export function useStoreList() {
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<StoreSummary[]>>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    storeApi.listStores().then(
      (list) => {
        if (live) setLoaded({ status: 'ready', data: list });
      },
      (error: unknown) => {
        if (live) setLoaded({ status: 'error', error: messageOf(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  const retry = () => {
    setLoaded({ status: 'loading' });
    setAttempt((n) => n + 1);
  };
  return { ...loaded, retry };
}

import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { storeApi } from './api';

/**
 * Store data for the order pages. A store seen before renders at once from the cache and is fetched again
 * in the background (whether it is closed depends on the clock); a failure leaves a message and a retry
 * (DESIGN deviation 5). Callers key their component by store id, so one hook serves one store.
 */
export type Loaded<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'ready'; data: T; error?: undefined }
  | { status: 'not-found'; data?: undefined; error?: undefined }
  | { status: 'error'; data?: undefined; error: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A query as the pages show it; a retry under way shows as loading, a failed refresh keeps what is shown. */
export function loadedOf<T>(query: UseQueryResult<T>): Loaded<T> {
  const failed = query.isError && !query.isFetching ? query.error : null;
  if (failed instanceof ApiError && failed.status === 404) return { status: 'not-found' };
  if (query.data !== undefined) return { status: 'ready', data: query.data };
  if (failed) return { status: 'error', error: messageOf(failed) };
  return { status: 'loading' };
}

/** One store's public data; the order pages and the receipt's pictures share it. */
export function storeQuery(storeId: string) {
  return {
    queryKey: ['store', 'data', storeId],
    queryFn: () => storeApi.getStore(storeId),
    // Kept for the whole visit, so going back to a store never shows 'loading' again.
    gcTime: Infinity,
    // What is left of each product (issue #32) is asked afresh when the tab is shown again.
    refetchOnWindowFocus: 'always' as const,
  };
}

export function useStoreData(storeId: string) {
  const query = useQuery(storeQuery(storeId));
  return { ...loadedOf(query), retry: () => void query.refetch() };
}

export function useStoreList() {
  const query = useQuery({
    queryKey: ['store', 'list'],
    queryFn: () => storeApi.listStores(),
    // The selector always asks afresh: an open or closed store must not be shown from an old visit.
    gcTime: 0,
  });
  return { ...loadedOf(query), retry: () => void query.refetch() };
}

import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Puts a change's answer in the cache. A fetch of the same key still under way began before the change and
 * would answer the data as it was: a product saved while the staff page's first load was in flight was
 * gone from the table once that load came in. Such a fetch is dropped and asked again, now that the cache
 * holds the answer (refetch cancels a fetch under way only for a query that has data).
 */
export function putQueryData<T>(
  client: QueryClient,
  key: QueryKey,
  data: T | ((old: T | undefined) => T),
): void {
  const fetching = client.isFetching({ queryKey: key, exact: true }) > 0;
  client.setQueryData<T>(key, data);
  if (fetching) void client.refetchQueries({ queryKey: key, exact: true });
}

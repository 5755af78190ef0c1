/**
 * The staff pages' server state. Each answer is cached under its own key, so a page shows the answer to
 * what it asks now: a late answer to an earlier question (filters changed meanwhile) is never shown.
 */
import { DEFAULT_TZ_STORE, formatDateTime } from '@avp/shared';
import { useQuery } from '@tanstack/react-query';
import { staffApi, type OrderFilters } from './api';

export const staffKeys = {
  all: ['staff'] as const,
  settings: ['staff', 'settings'] as const,
  stores: ['staff', 'stores'] as const,
  storeImages: ['staff', 'store-images'] as const,
  products: ['staff', 'products'] as const,
  prices: (storeKey: number) => ['staff', 'prices', storeKey] as const,
  orderLists: ['staff', 'orders'] as const,
  orders: (filters: OrderFilters) => ['staff', 'orders', filters] as const,
  order: (orderId: string) => ['staff', 'order', orderId] as const,
  pullSheet: (storeKey: number, date: string) => ['staff', 'pull-sheet', storeKey, date] as const,
  stock: (storeKey: number) => ['staff', 'stock', storeKey] as const,
  overview: (storeKey: number, from: string, to: string) =>
    ['staff', 'overview', storeKey, from, to] as const,
  audit: (store: string) => ['staff', 'audit', store] as const,
};

/** Every store, for the pickers of the staff pages. */
export function useStaffStores() {
  return useQuery({ queryKey: staffKeys.stores, queryFn: () => staffApi.stores() });
}

/**
 * The company's zone (TZ_STORE), which every staff screen prints times in. Until the server has said, the
 * default zone stands in (the same unless TZ_STORE was changed).
 */
export function useStaffTimeZone(): string {
  const { data } = useQuery({
    queryKey: staffKeys.settings,
    queryFn: () => staffApi.settings(),
    staleTime: Infinity,
  });
  return data?.time_zone ?? DEFAULT_TZ_STORE;
}

/** formatDateTime in the staff zone: 'Nov 25, 2026, 9:39 PM EST'. */
export function useStaffDateTime(): (value: string) => string {
  const zone = useStaffTimeZone();
  return (value: string) => formatDateTime(value, zone);
}

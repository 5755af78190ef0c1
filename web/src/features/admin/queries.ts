/**
 * The staff pages' server state. Each answer is cached under its own key, so a page shows the answer to
 * what it asks now: a late answer to an earlier question (filters changed meanwhile) is never shown.
 */
import { useQuery } from '@tanstack/react-query';
import { staffApi, type OrderFilters } from './api';

export const staffKeys = {
  all: ['staff'] as const,
  stores: ['staff', 'stores'] as const,
  storeImages: ['staff', 'store-images'] as const,
  products: ['staff', 'products'] as const,
  prices: (storeKey: number) => ['staff', 'prices', storeKey] as const,
  orderLists: ['staff', 'orders'] as const,
  orders: (filters: OrderFilters) => ['staff', 'orders', filters] as const,
  order: (orderId: string) => ['staff', 'order', orderId] as const,
  pullSheet: (storeKey: number, date: string) => ['staff', 'pull-sheet', storeKey, date] as const,
  audit: (store: string) => ['staff', 'audit', store] as const,
};

/** Every store, for the pickers of the staff pages. */
export function useStaffStores() {
  return useQuery({ queryKey: staffKeys.stores, queryFn: () => staffApi.stores() });
}

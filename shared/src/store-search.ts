/** The store selector of SPEC §2 'Exhibitor order pages'. */
import { STORE_SEARCH_MIN_EXCLUSIVE } from './constants.js';

export interface SearchableStore {
  name: string;
  store_id: string;
}

/**
 * Stores whose name or store id contains the search text, ignoring case. Text of 2 characters or fewer
 * (after trimming, so padding cannot make a short query count) gives no results at all; the trimmed text
 * is also what is matched, so a trailing space typed by habit does not hide a store.
 */
export function searchStores<T extends SearchableStore>(stores: readonly T[], text: string): T[] {
  const needle = text.trim().toLowerCase();
  if (needle.length <= STORE_SEARCH_MIN_EXCLUSIVE) return [];
  return stores.filter(
    (store) => store.name.toLowerCase().includes(needle) || store.store_id.toLowerCase().includes(needle),
  );
}

/** The selector lists only stores that are active and not archived. */
export function listedStores<T extends { is_active: boolean; is_archived: boolean }>(
  stores: readonly T[],
): T[] {
  return stores.filter((store) => store.is_active && !store.is_archived);
}

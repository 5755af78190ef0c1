/**
 * Whether a store takes orders. SPEC §4 closes a store when it is inactive or past its deadline; DESIGN
 * deviation 6 separates the two meanings of that deadline: it ends early-bird pricing, while ordering
 * ends with the order cut-off, which defaults to the deadline and may be set later by staff.
 */
import { DEFAULT_TZ_STORE } from './constants.js';
import { isOnOrBeforeDay } from './dates.js';

export interface StoreSchedule {
  is_active: boolean;
  is_archived: boolean;
  deadline: string;
  /** Empty or absent means 'the deadline'. */
  order_cutoff?: string | null | undefined;
}

export function effectiveCutoff(store: Pick<StoreSchedule, 'deadline' | 'order_cutoff'>): string {
  return store.order_cutoff || store.deadline;
}

export function isStoreClosed(store: StoreSchedule, now: Date, timeZone: string = DEFAULT_TZ_STORE): boolean {
  if (!store.is_active || store.is_archived) return true;
  return !isOnOrBeforeDay(effectiveCutoff(store), now, timeZone);
}

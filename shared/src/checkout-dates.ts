/**
 * Delivery and pickup dates of the checkout form (SPEC §5 'Date constraints', §9 defaults). All values
 * are 'YYYY-MM-DD' strings, which order correctly as plain strings, so no time zone is ever involved.
 * An empty string counts as 'not chosen yet', since that is what an untouched form field holds.
 */
import { DEFAULT_DELIVERY_TIME } from './constants.js';
import { isDateOnly } from './dates.js';

export interface DateRange {
  /** Inclusive. */
  min: string;
  /** Inclusive. */
  max: string;
}

export interface EventDates {
  eventStart: string;
  eventEnd: string;
}

/** Delivery runs from the event start to the chosen pickup date, or to the event end while none is chosen. */
export function deliveryDateRange({
  eventStart,
  eventEnd,
  pickupDate,
}: EventDates & { pickupDate?: string | null }): DateRange {
  return { min: eventStart, max: pickupDate || eventEnd };
}

/** Pickup runs from the chosen delivery date, or the event start while none is chosen, to the event end. */
export function pickupDateRange({
  eventStart,
  eventEnd,
  deliveryDate,
}: EventDates & { deliveryDate?: string | null }): DateRange {
  return { min: deliveryDate || eventStart, max: eventEnd };
}

export function isWithinRange(date: string, range: DateRange): boolean {
  return isDateOnly(date) && date >= range.min && date <= range.max;
}

export interface Schedule {
  deliveryDate: string;
  deliveryTime: string;
  pickupDate: string;
  pickupTime: string;
}

/** SPEC §9: delivery at 8:00 AM on the store's start date, pickup on its end date with the time left open. */
export function defaultSchedule(store: { start_date: string; end_date: string }): Schedule {
  return {
    deliveryDate: store.start_date,
    deliveryTime: DEFAULT_DELIVERY_TIME,
    pickupDate: store.end_date,
    pickupTime: '',
  };
}

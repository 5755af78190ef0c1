/**
 * Order pricing, exactly as DESIGN.md 'Pricing' states it. The server prices every order with this and
 * the browser uses it only for a preview, so both must agree to the cent: all amounts are integer cents
 * and every rounding is integer arithmetic.
 */
import {
  DEFAULT_TZ_STORE,
  EARLY_BIRD_DISCOUNT_PERCENT,
  QUANTITY_MAX,
  QUANTITY_MIN,
  SERVICE_FEE_PERCENT,
} from './constants.js';
import { isOnOrBeforeDay } from './dates.js';

export interface PriceLine {
  /** Unit price in cents. */
  unitAmount: number;
  quantity: number;
}

export interface PricingContext {
  /** The store's deadline, 'YYYY-MM-DD': the last day of early-bird pricing. */
  deadline: string;
  /** When the order is priced; the server passes the moment the exhibitor submits the payment. */
  now: Date;
  /** The zone the deadline is read in (TZ_STORE). */
  timeZone?: string;
}

export interface OrderPrice {
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  earlyBird: boolean;
}

function assertCents(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a whole, non-negative number of cents (got ${value})`);
  }
}

/**
 * `percent`% of `cents`, rounded half-up to the cent. Adding 50 before the integer division by 100 is the
 * half-up rule without ever forming a fraction, so no float drift can creep in.
 */
export function percentOfHalfUp(cents: number, percent: number): number {
  assertCents(cents, 'Amount');
  assertCents(percent, 'Percent');
  const scaled = cents * percent;
  if (!Number.isSafeInteger(scaled + 50)) throw new RangeError(`Amount too large to price: ${cents}`);
  return Math.floor((scaled + 50) / 100);
}

/** Early-bird pricing lasts to the end of the deadline day in the store's zone. */
export function isEarlyBird(deadline: string, now: Date, timeZone: string = DEFAULT_TZ_STORE): boolean {
  return isOnOrBeforeDay(deadline, now, timeZone);
}

export function subtotalOf(lines: readonly PriceLine[]): number {
  let subtotal = 0;
  for (const { unitAmount, quantity } of lines) {
    assertCents(unitAmount, 'Unit amount');
    if (!Number.isInteger(quantity) || quantity < QUANTITY_MIN || quantity > QUANTITY_MAX) {
      throw new RangeError(
        `Quantity must be a whole number from ${QUANTITY_MIN} to ${QUANTITY_MAX} (got ${quantity})`,
      );
    }
    subtotal += unitAmount * quantity;
    assertCents(subtotal, 'Subtotal');
  }
  return subtotal;
}

export function priceOrder(lines: readonly PriceLine[], context: PricingContext): OrderPrice {
  const subtotal = subtotalOf(lines);
  const earlyBird = isEarlyBird(context.deadline, context.now, context.timeZone);
  const discount = earlyBird ? percentOfHalfUp(subtotal, EARLY_BIRD_DISCOUNT_PERCENT) : 0;
  const fee = percentOfHalfUp(subtotal - discount, SERVICE_FEE_PERCENT);
  return { subtotal, discount, fee, total: subtotal - discount + fee, earlyBird };
}

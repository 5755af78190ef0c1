/**
 * SPEC §3 'Order customer info' and 'Payment intent'; §5 'Checkout', 'Date constraints', 'Pay now'.
 */
import { z } from 'zod';
import { deliveryDateRange, pickupDateRange, type DateRange } from '../checkout-dates.js';
import { ADDRESS_MAX, COMPANY_MAX, NAME_MAX, PHONE_MAX, SHORT_TEXT_MAX } from '../constants.js';
import { addDays, isDateOnly } from '../dates.js';
import { formatDate } from '../format.js';
import {
  CHECKOUT_INVALID_EMAIL,
  CHECKOUT_INVALID_PHONE,
  dateMustBeAfter,
  dateMustBeBefore,
  FIELD_REQUIRED,
  INVALID_TIME_FORMAT_12H_MERIDIEM,
  TERMS_REQUIRED,
} from '../messages.js';
import { isValidOrderEmail } from '../validation/email.js';
import { isValidOrderPhone } from '../validation/phone.js';
import { dateOnly, emailText, optionalText, requiredText, unlessEmpty, whenStrings } from './common.js';

const required = (max: number) => requiredText(FIELD_REQUIRED, max);
// An empty field shows only 'This field is required.', never a format message as well (the order-email
// check itself already lets an empty value pass, SPEC §5).
const email = () =>
  emailText(FIELD_REQUIRED, (v) => v !== '').refine(isValidOrderEmail, CHECKOUT_INVALID_EMAIL);
const phone = () => required(PHONE_MAX).refine(unlessEmpty(isValidOrderPhone), CHECKOUT_INVALID_PHONE);
/** 12-hour clock with AM/PM: '8:00 AM' (the default) as well as the picker's '08:00 am'. */
const TIME_12H = /^(0?[1-9]|1[0-2]):[0-5]\d ?[AaPp][Mm]$/;
/** The format is the bound: a longer text, or one with a NUL, is not a time. */
const time = () =>
  z
    .string({ error: FIELD_REQUIRED })
    .trim()
    .min(1, FIELD_REQUIRED)
    .refine(
      unlessEmpty((v) => TIME_12H.test(v)),
      INVALID_TIME_FORMAT_12H_MERIDIEM,
    );

export const orderCustomerInfoSchema = z.object({
  company: required(COMPANY_MAX),
  firstName: required(NAME_MAX),
  lastName: required(NAME_MAX),
  email: email(),
  phone: phone(),
  address: required(ADDRESS_MAX),
  city: required(SHORT_TEXT_MAX),
  state: required(SHORT_TEXT_MAX),
  zip: required(SHORT_TEXT_MAX),
  onsiteFirstName: required(NAME_MAX),
  onsiteLastName: required(NAME_MAX),
  onsiteEmail: email(),
  onsitePhone: phone(),
  booth: required(SHORT_TEXT_MAX),
  room: optionalText(SHORT_TEXT_MAX),
  deliveryDate: dateOnly(),
  deliveryTime: time(),
  pickupDate: dateOnly(),
  pickupTime: time(),
});
export type OrderCustomerInfo = z.infer<typeof orderCustomerInfoSchema>;
export type OrderCustomerInfoInput = z.input<typeof orderCustomerInfoSchema>;

/**
 * The widget words a range violation as 'Date must be after {day}' for the day before the first allowed
 * one (SPEC §5 'Form widget rules'); the same wording is used here so both sides read alike.
 */
function rangeMessage(date: string, range: DateRange): string | undefined {
  if (date < range.min) return dateMustBeAfter(formatDate(addDays(range.min, -1)));
  if (date > range.max) return dateMustBeBefore(formatDate(addDays(range.max, 1)));
  return undefined;
}

/**
 * The rental information form of a given store: every field of the customer info, with delivery and
 * pickup dates inside the event dates and delivery on or before pickup.
 */
export function checkoutFormSchema(store: { start_date: string; end_date: string }) {
  return orderCustomerInfoSchema.superRefine(
    (info, ctx) => {
      const eventDates = { eventStart: store.start_date, eventEnd: store.end_date };
      const pickupDate = isDateOnly(info.pickupDate) ? info.pickupDate : undefined;
      const deliveryDate = isDateOnly(info.deliveryDate) ? info.deliveryDate : undefined;
      if (deliveryDate) {
        const message = rangeMessage(deliveryDate, deliveryDateRange({ ...eventDates, pickupDate }));
        if (message) ctx.addIssue({ code: 'custom', message, path: ['deliveryDate'] });
      }
      if (pickupDate) {
        const message = rangeMessage(pickupDate, pickupDateRange({ ...eventDates, deliveryDate }));
        if (message) ctx.addIssue({ code: 'custom', message, path: ['pickupDate'] });
      }
    },
    whenStrings('deliveryDate', 'pickupDate'),
  );
}
export type CheckoutForm = z.infer<ReturnType<typeof checkoutFormSchema>>;

/** The 'Onsite contact is the same as the purchaser' checkbox: copies name, e-mail and phone. */
export function copyPurchaserToOnsite<
  T extends Pick<OrderCustomerInfo, 'firstName' | 'lastName' | 'email' | 'phone'>,
>(
  info: T,
): T & Pick<OrderCustomerInfo, 'onsiteFirstName' | 'onsiteLastName' | 'onsiteEmail' | 'onsitePhone'> {
  return {
    ...info,
    onsiteFirstName: info.firstName,
    onsiteLastName: info.lastName,
    onsiteEmail: info.email,
    onsitePhone: info.phone,
  };
}

export const paymentIntentSchema = z.object({
  clientSecret: z.string().min(1),
  intentID: z.string().min(1),
  /** The confirmation number the exhibitor is told to save. */
  confirmation: z.string().min(1),
});
export type PaymentIntent = z.infer<typeof paymentIntentSchema>;

/** Pay now stays disabled until the rental terms are accepted. */
export const payNowSchema = z.object({
  terms: z.literal(true, { error: TERMS_REQUIRED }),
});
export type PayNowForm = z.infer<typeof payNowSchema>;

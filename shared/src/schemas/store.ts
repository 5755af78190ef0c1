/**
 * SPEC §3 'Store', 'Product', 'Cart item'; §5 'Quantities'; the staff store form of §2 'Admin page';
 * and the order cut-off of DESIGN deviation 6.
 */
import { z } from 'zod';
import {
  DEFAULT_CURRENCY,
  LONG_TEXT_MAX,
  NAME_LONG_MAX,
  QUANTITY_DEFAULT,
  QUANTITY_MAX,
  QUANTITY_MIN,
} from '../constants.js';
import { isDateOnly } from '../dates.js';
import {
  CART_COUNT_INVALID,
  invalidEmailAddress,
  QUANTITY_INVALID,
  STORE_CUTOFF_BEFORE_DEADLINE,
  STORE_END_BEFORE_START,
  STORE_ID_INVALID,
  STORE_IMAGE_INVALID,
  STORE_NAME_REQUIRED,
} from '../messages.js';
import { isValidEmail } from '../validation/email.js';
import { bounded, dateOnly, idSchema, numberInput, requiredText, whenStrings } from './common.js';

/** Lowercase letters, digits and dashes, 2 to 64 long, starting and ending with a letter or digit. */
export const STORE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$/;
export const storeIdSchema = z
  .string({ error: STORE_ID_INVALID })
  .trim()
  .regex(STORE_ID_PATTERN, STORE_ID_INVALID);

const dateOnlyValue = z.string().refine(isDateOnly);

export const productSchema = z.object({
  id: z.union([z.string().min(1), idSchema]),
  name: z.string().min(1),
  description: z.string().default(''),
  images: z.array(z.string()).default([]),
  /** The payment provider's id of the product's default price, when it has one. */
  default_price: z.string().nullable().default(null),
  /** metadata.order sorts the products on the store page. */
  metadata: z
    .object({ order: z.union([z.string(), z.number()]).optional() })
    .loose()
    .default({}),
  /** Unit price in cents. */
  price: z.number().int().nonnegative(),
  currency: z
    .string()
    .regex(/^[a-zA-Z]{3}$/)
    .transform((v) => v.toLowerCase())
    .default(DEFAULT_CURRENCY),
});
export type Product = z.infer<typeof productSchema>;
export type ProductInput = z.input<typeof productSchema>;

/**
 * A store as the order pages and the staff list receive it. Secret keys never leave the server
 * (DESIGN deviation 3).
 */
export const storeSchema = z.object({
  id: idSchema,
  store_id: storeIdSchema,
  name: z.string().min(1),
  is_active: z.boolean().default(true),
  is_archived: z.boolean().default(false),
  image: z.string().nullable().default(null),
  /** Last day of early-bird pricing. */
  deadline: dateOnlyValue,
  start_date: dateOnlyValue,
  end_date: dateOnlyValue,
  /** Last day orders are taken; null means the deadline (deviation 6). */
  order_cutoff: dateOnlyValue.nullable().default(null),
  email_text: z.string().default(''),
  store_text: z.string().default(''),
  bcc: z.string().default(''),
  products: z.array(productSchema).optional(),
  publicKey: z.string().optional(),
});
export type Store = z.infer<typeof storeSchema>;
export type StoreInput = z.input<typeof storeSchema>;

export const quantitySchema = numberInput(
  z
    .number({ error: QUANTITY_INVALID })
    .int(QUANTITY_INVALID)
    .min(QUANTITY_MIN, QUANTITY_INVALID)
    .max(QUANTITY_MAX, QUANTITY_INVALID)
    .default(QUANTITY_DEFAULT),
);

/** The cart's Update control: 0 removes the item (SPEC §4 'Cart'). */
export const cartCountSchema = numberInput(
  z
    .number({ error: CART_COUNT_INVALID })
    .int(CART_COUNT_INVALID)
    .min(0, CART_COUNT_INVALID)
    .max(QUANTITY_MAX, CART_COUNT_INVALID),
);

export const cartItemSchema = z.object({
  product: productSchema,
  count: quantitySchema,
});
export type CartItem = z.infer<typeof cartItemSchema>;
export const cartSchema = z.array(cartItemSchema);

/** Splits a BCC field on commas, semicolons and whitespace, dropping empty entries. */
export function parseEmailList(text: string): string[] {
  return text.split(/[\s,;]+/).filter((entry) => entry !== '');
}

const bccSchema = bounded(z.string(), LONG_TEXT_MAX)
  .default('')
  .superRefine((text, ctx) => {
    for (const entry of parseEmailList(text)) {
      if (!isValidEmail(entry)) ctx.addIssue({ code: 'custom', message: invalidEmailAddress(entry) });
    }
  })
  // Stored in one normal form, whatever separators staff typed.
  .transform((text) => parseEmailList(text).join(', '));

/** Optional form fields: a blank or absent value is stored as null. */
function blankToNull(value: unknown): unknown {
  return value === undefined || (typeof value === 'string' && value.trim() === '') ? null : value;
}

const optionalDate = z.preprocess(blankToNull, dateOnly().nullable());

const imageFileName = z.preprocess(
  blankToNull,
  bounded(z.string().trim(), NAME_LONG_MAX)
    .refine((v) => !/[/\\]/.test(v) && v !== '.' && v !== '..', STORE_IMAGE_INVALID)
    .nullable(),
);

/** Only real dates are compared: a malformed one already carries its own message. */
function isBefore(date: string, other: string): boolean {
  return isDateOnly(date) && isDateOnly(other) && date < other;
}

/** The staff create/edit dialog. */
export const storeFormSchema = z
  .object({
    /** Read-only; present when editing. */
    id: idSchema.optional(),
    name: requiredText(STORE_NAME_REQUIRED, NAME_LONG_MAX),
    store_id: storeIdSchema,
    image: imageFileName,
    deadline: dateOnly(),
    start_date: dateOnly(),
    end_date: dateOnly(),
    order_cutoff: optionalDate,
    bcc: bccSchema,
    email_text: bounded(z.string(), LONG_TEXT_MAX).default(''),
    store_text: bounded(z.string(), LONG_TEXT_MAX).default(''),
    is_active: z.boolean().default(true),
    is_archived: z.boolean().default(false),
  })
  .superRefine(
    (form, ctx) => {
      if (isBefore(form.end_date, form.start_date)) {
        ctx.addIssue({ code: 'custom', message: STORE_END_BEFORE_START, path: ['end_date'] });
      }
      if (form.order_cutoff !== null && isBefore(form.order_cutoff, form.deadline)) {
        ctx.addIssue({ code: 'custom', message: STORE_CUTOFF_BEFORE_DEADLINE, path: ['order_cutoff'] });
      }
    },
    whenStrings('deadline', 'start_date', 'end_date'),
  );
export type StoreForm = z.infer<typeof storeFormSchema>;
export type StoreFormInput = z.input<typeof storeFormSchema>;

/**
 * The two phone checks of SPEC §5. Surrounding whitespace is ignored by both: it is invisible in an input
 * and never a reason to refuse a number.
 */
import { PHONE_DIGITS_MAX, PHONE_DIGITS_MIN } from '../constants.js';

const DIGITS_ONLY = new RegExp(`^\\d{${PHONE_DIGITS_MIN},${PHONE_DIGITS_MAX}}$`);
// (123) 456-7890, (123)456-7890 or 123-456-7890; only spaces may follow the ')', or one dash: the
// registration error asks for '(xxx)-xxx-xxxx' (SPEC §5), so that form must pass too.
const PUNCTUATED = /^(?:\(\d{3}\)(?: *|-)|\d{3}-)\d{3}-\d{4}$/;

/** The shared check (contact and registration forms). */
export function isValidPhone(value: string): boolean {
  const v = value.trim();
  return DIGITS_ONLY.test(v) || PUNCTUATED.test(v);
}

const SEP = '[ .-]';
// Optional country code: 1-3 digits, optionally after '+', and always followed by a separator so that the
// country code and the area code cannot run together. The area code may be parenthesised; the groups may
// be separated by a space, '-' or '.', or not at all. An extension is introduced by 'x'.
const NORTH_AMERICAN = new RegExp(
  `^(?:\\+?\\d{1,3}${SEP})?(?:\\(\\d{3}\\)|\\d{3})${SEP}?\\d{3}${SEP}?\\d{4}(?: *x\\d+)?$`,
);

/** The order form's check (SPEC §5 'Phone': North American style). */
export function isValidOrderPhone(value: string): boolean {
  return NORTH_AMERICAN.test(value.trim());
}

/** Building blocks the schemas share, and the error flattening the API and forms answer with. */
import { z } from 'zod';
import { isDateOnly } from '../dates.js';
import { FIELD_REQUIRED, INVALID_DATE } from '../messages.js';

/**
 * A trimmed, non-empty string. The same message covers a missing value and a blank one, because a form
 * shows a single text for 'this must be filled in'. It does not abort parsing (that would also silence
 * the cross-field checks), so a format check chained after it must let '' through: see `unlessEmpty`.
 */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, message);
}

/** Wraps a format check so that an empty value, already reported as missing, gets no second message. */
export function unlessEmpty(check: (value: string) => boolean): (value: string) => boolean {
  return (value) => value === '' || check(value);
}

/** A trimmed string that may be absent; absent becomes '' so consumers never test for undefined. */
export function optionalText() {
  return z.string().trim().default('');
}

/** A 'YYYY-MM-DD' calendar date that must be given. */
export function dateOnly(requiredMessage: string = FIELD_REQUIRED, invalidMessage: string = INVALID_DATE) {
  return requiredText(requiredMessage).refine(unlessEmpty(isDateOnly), invalidMessage);
}

/**
 * Accepts a number or the text of an HTML input or select (which is always a string): blank becomes
 * 'absent' so that a default or a required message applies, other text becomes a number (or NaN, which
 * the number schema then rejects with its own message).
 */
export function numberInput<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    return value.trim() === '' ? undefined : Number(value);
  }, schema);
}

/**
 * Options for a cross-field check that must run even when some other field failed (zod skips it by
 * default once any field has the wrong type), so a form shows every message at once. It still waits
 * until the fields it reads are strings, which keeps the check itself free of type tests.
 */
export function whenStrings(...keys: string[]) {
  return {
    when: ({ value }: { value: unknown }) =>
      typeof value === 'object' &&
      value !== null &&
      keys.every((key) => typeof (value as Record<string, unknown>)[key] === 'string'),
  };
}

/** Positive integer primary keys, as the database issues them. */
export const idSchema = z.number().int().positive();

/** Field path ('' for the whole value, 'a.b' or 'items.0.count' when nested) to the first message for it. */
export type FieldErrors = Record<string, string>;

export function fieldErrors(error: z.ZodError): FieldErrors {
  const result: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    if (!Object.hasOwn(result, key)) result[key] = issue.message;
  }
  return result;
}

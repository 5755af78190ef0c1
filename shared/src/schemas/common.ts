/** Building blocks the schemas share, and the error flattening the API and forms answer with. */
import { z } from 'zod';
import { isDateOnly } from '../dates.js';
import { EMAIL_MAX } from '../constants.js';
import { FIELD_REQUIRED, INVALID_DATE, TEXT_HAS_NUL, tooManyCharacters } from '../messages.js';

/** Length as a person counts it and as PostgreSQL's varchar(n) does: code points, not UTF-16 units. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

export function containsNul(value: string): boolean {
  return value.includes('\u0000');
}

/**
 * The two checks every text that is stored needs, chained onto a string schema: no NUL (PostgreSQL refuses
 * it in text) and at most `max` characters (the size of its column). `count` measures the value in the
 * form it will be stored in.
 */
export function bounded<T extends z.ZodType<string>>(
  schema: T,
  max: number,
  count: (value: string) => number = characterCount,
): T {
  return schema
    .refine((value) => !containsNul(value), TEXT_HAS_NUL)
    .refine((value) => count(value) <= max, tooManyCharacters(max));
}

/**
 * A trimmed, non-empty string of at most `max` characters. The same message covers a missing value and a
 * blank one, because a form shows a single text for 'this must be filled in'. It does not abort parsing
 * (that would also silence the cross-field checks), so a format check chained after it must let '' through:
 * see `unlessEmpty`.
 */
export function requiredText(message: string, max: number) {
  return bounded(z.string({ error: message }).trim().min(1, message), max);
}

/**
 * A trimmed e-mail address checked by `isValid`, whose message also covers a missing value. Its length is
 * counted lowercased, as the accounts table stores it (lowercasing can lengthen a few letters).
 */
export function emailText(message: string, isValid: (value: string) => boolean) {
  return bounded(z.string({ error: message }).trim(), EMAIL_MAX, (value) =>
    characterCount(value.toLowerCase()),
  ).refine(isValid, message);
}

/** Wraps a format check so that an empty value, already reported as missing, gets no second message. */
export function unlessEmpty(check: (value: string) => boolean): (value: string) => boolean {
  return (value) => value === '' || check(value);
}

/**
 * A trimmed string of at most `max` characters that may be absent; absent becomes '' so consumers never
 * test for undefined.
 */
export function optionalText(max: number) {
  return bounded(z.string().trim(), max).default('');
}

/**
 * A 'YYYY-MM-DD' calendar date that must be given. The format is its bound: a longer text, or one with a
 * NUL, is not a date.
 */
export function dateOnly(requiredMessage: string = FIELD_REQUIRED, invalidMessage: string = INVALID_DATE) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .refine(unlessEmpty(isDateOnly), invalidMessage);
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

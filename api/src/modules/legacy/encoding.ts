import { AppError } from '../../http/errors.js';

/**
 * The original pages base64-encode passwords (SPEC §3 'Client user'), upload chunks ('Upload submission')
 * and three store fields ('Store'). These read them back, strictly: a value that is not base64 is refused
 * rather than decoded into something else.
 */

export const NOT_BASE64 = 'This field must be sent base64-encoded.';

// Standard and URL-safe alphabets, padded or not (btoa pads; some encoders do not).
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const DATA_URL_PREFIX = /^data:[^,]*;base64,/;

function invalid(field: string): AppError {
  return new AppError(400, 'validation_failed', NOT_BASE64, { [field]: NOT_BASE64 });
}

/** The bytes of a base64 value (a `data:…;base64,` prefix, as FileReader gives it, is allowed). */
export function decodeBase64Bytes(value: string, field: string): Buffer {
  const text = value.replace(DATA_URL_PREFIX, '').replace(/\s+/g, '');
  if (!BASE64.test(text) || text.replace(/=+$/, '').length % 4 === 1) throw invalid(field);
  return Buffer.from(text, 'base64');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of a base64 value. Browsers' btoa takes Latin-1 only, so pages encode either UTF-8 bytes
 * (btoa(unescape(encodeURIComponent(text)))) or Latin-1 text; UTF-8 is tried first.
 */
export function decodeBase64Text(value: string, field: string): string {
  const bytes = decodeBase64Bytes(value, field);
  try {
    return utf8.decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/**
 * A body with the named fields decoded from base64. A field that is absent or not a string is left as it
 * is, for the service's own validation to name.
 */
export function decodeFields(body: unknown, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(typeof body === 'object' && body !== null ? body : {}) };
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = out[field];
    if (typeof value !== 'string') continue;
    try {
      out[field] = decodeBase64Text(value, field);
    } catch {
      errors[field] = NOT_BASE64;
    }
  }
  if (Object.keys(errors).length > 0) throw new AppError(400, 'validation_failed', NOT_BASE64, errors);
  return out;
}

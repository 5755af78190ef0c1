/**
 * The shared e-mail check of SPEC §5: local part, '@', then either a dotted domain whose last label has at
 * least two letters or a bracketed IPv4 address. It is the classic pattern the product has always used,
 * tightened in two places: an IPv4 octet must be 0-255 and a domain label may not start or end with '-'.
 */

// Dot-atom (no empty or dangling dots) or a quoted string such as "john doe".
const LOCAL_PART = String.raw`(?:[^<>()\[\]\\.,;:\s@"]+(?:\.[^<>()\[\]\\.,;:\s@"]+)*|"[^"\\\r\n]+")`;
const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';
const DOMAIN = `(?:${LABEL}\\.)+[a-zA-Z]{2,}`;
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `\\[${OCTET}(?:\\.${OCTET}){3}\\]`;
const EMAIL = new RegExp(`^${LOCAL_PART}@(?:${IPV4}|${DOMAIN})$`);

export function isValidEmail(value: string): boolean {
  return EMAIL.test(value.trim());
}

/** The order form's variant: empty passes the format check (SPEC §5); 'required' is a separate rule. */
export function isValidOrderEmail(value: string): boolean {
  return value.trim() === '' || isValidEmail(value);
}

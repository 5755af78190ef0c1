/** POST /api/contact (api/src/modules/contact): the contact form and the Hot Trends sign-up. */
import type { ContactForm, ContactFormVariant } from '@avp/shared';
import { site } from '../../../content/site';

export const CONTACT_ENDPOINT = '/api/contact';

export type SubmitResult =
  { ok: true } | { ok: false; status: number; message: string; fields?: Record<string, string> };

// not in SPEC: the spec swallows a failed call; DESIGN deviation 5 shows it and lets the visitor retry.
export const SEND_FAILED = `Your message could not be sent. Please try again in a moment, or call us at ${site.phone}.`;
export const NETWORK_FAILED = 'We could not reach our server. Please check your connection and try again.';

export interface ContactSubmission extends ContactForm {
  variant: ContactFormVariant;
  /** The honeypot (server: HONEYPOT_FIELD); people never see it, so it is empty for them. */
  website: string;
}

interface ErrorBody {
  error?: { code?: string; message?: string; fields?: Record<string, string> };
}

export async function submitContact(body: ContactSubmission, signal?: AbortSignal): Promise<SubmitResult> {
  let res: Response;
  try {
    res = await fetch(CONTACT_ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch {
    return { ok: false, status: 0, message: NETWORK_FAILED };
  }
  if (res.ok) return { ok: true };
  const payload = (await res.json().catch(() => ({}))) as ErrorBody;
  if (res.status === 400 && payload.error?.fields) {
    return {
      ok: false,
      status: 400,
      message: payload.error.message ?? SEND_FAILED,
      fields: payload.error.fields,
    };
  }
  if (res.status === 429 && payload.error?.message) {
    return { ok: false, status: 429, message: payload.error.message };
  }
  return { ok: false, status: res.status, message: SEND_FAILED };
}

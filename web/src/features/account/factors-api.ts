/**
 * The calls of passkeys, two-step sign-in and fresh sign-in (docs/api.md 'Passkeys and two-step sign-in').
 * The password sign-in is asked here rather than through apiRequest because its 401 'second_factor_required'
 * carries the pending token beside the error, which ApiError does not keep.
 */
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
} from '@simplewebauthn/browser';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { ApiError, apiRequest, NETWORK_ERROR } from '../../lib/api';
import type { SignedInBody } from '../../lib/session';

export interface FactorSignedIn extends SignedInBody {
  secondFactorSetupRequired?: boolean;
}

export interface SecondFactorMethods {
  totp: boolean;
  recoveryCode: boolean;
  passkey: boolean;
}

export interface PendingSignIn {
  pendingToken: string;
  methods: SecondFactorMethods;
  message: string;
}

export type PasswordSignIn = { signedIn: FactorSignedIn } | { pending: PendingSignIn };

/** POST /api/auth/login: signed in, or a second step is needed; other failures throw ApiError. */
export async function passwordSignIn(body: Record<string, unknown>): Promise<PasswordSignIn> {
  let res: Response;
  try {
    res = await fetch('/api/auth/login', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network', NETWORK_ERROR);
  }
  const answer = (await res.json().catch(() => ({}))) as {
    error?: { code?: string; message?: string; fields?: Record<string, string> };
    secondFactor?: { pendingToken: string; methods: SecondFactorMethods };
  } & FactorSignedIn;
  if (res.ok) return { signedIn: answer };
  if (answer.error?.code === 'second_factor_required' && answer.secondFactor) {
    return { pending: { ...answer.secondFactor, message: answer.error.message ?? '' } };
  }
  throw new ApiError(
    res.status,
    answer.error?.code ?? 'http_error',
    answer.error?.message ?? `The server answered ${res.status}.`,
    answer.error?.fields ?? {},
  );
}

export const PASSKEY_CANCELLED = 'The passkey was not used. Please try again.';
export const PASSKEY_UNSUPPORTED = 'This browser cannot use passkeys.';

/** What the browser's WebAuthn refusal means to the person (cancelled, timed out, not allowed). */
export function passkeyFailure(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return PASSKEY_CANCELLED;
  if (name === 'InvalidStateError') return 'This passkey is already registered on this account.';
  return error instanceof Error && error.message ? error.message : PASSKEY_CANCELLED;
}

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();
export const autofillSupported = (): Promise<boolean> => browserSupportsWebAuthnAutofill();

/**
 * Sign in with a passkey alone; `autofill`: the browser offers it from the e-mail field's suggestions.
 * `stillWanted` is asked once the challenge is in, before the browser is: a request begun later cancels
 * the one waiting (WebAuthnAbortService), so an autofill request whose challenge came back after the
 * button was pressed would have cancelled the button's (on a slow network: "The passkey was not used").
 */
export async function passkeySignIn(
  autofill = false,
  stillWanted: () => boolean = () => true,
): Promise<FactorSignedIn> {
  const optionsJSON = await apiRequest<PublicKeyCredentialRequestOptionsJSON>(
    'POST',
    '/api/auth/passkey-options',
  );
  if (!stillWanted()) throw new DOMException('Replaced by another passkey request.', 'AbortError');
  const credential = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
  return apiRequest<FactorSignedIn>('POST', '/api/auth/passkey', { credential });
}

/** Stops a waiting autofill request (the page is left, or the button is used instead). */
export function cancelPasskeyRequest(): void {
  WebAuthnAbortService.cancelCeremony();
}

export function finishWithCode(pendingToken: string, code: string): Promise<FactorSignedIn> {
  return apiRequest<FactorSignedIn>('POST', '/api/auth/second-factor', { pendingToken, code });
}

export async function finishWithPasskey(pendingToken: string): Promise<FactorSignedIn> {
  const optionsJSON = await apiRequest<PublicKeyCredentialRequestOptionsJSON>(
    'POST',
    '/api/auth/second-factor/passkey-options',
    { pendingToken },
  );
  const credential = await startAuthentication({ optionsJSON });
  return apiRequest<FactorSignedIn>('POST', '/api/auth/second-factor/passkey', { pendingToken, credential });
}

export interface PasskeyRow {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface FactorState {
  passkeys: PasskeyRow[];
  totp: boolean;
  recoveryCodesLeft: number;
  staffFactorRequired: boolean;
}

export const loadFactors = () => apiRequest<FactorState>('GET', '/api/account/second-factor');

export async function addPasskey(name: string): Promise<PasskeyRow> {
  const optionsJSON = await apiRequest<PublicKeyCredentialCreationOptionsJSON>(
    'POST',
    '/api/account/passkeys/options',
  );
  const credential = await startRegistration({ optionsJSON });
  return apiRequest<PasskeyRow>('POST', '/api/account/passkeys', { name, credential });
}

export const removePasskey = (id: number) => apiRequest<void>('DELETE', `/api/account/passkeys/${id}`);

export const startTotp = () => apiRequest<{ secret: string; uri: string }>('POST', '/api/account/totp');
export const confirmTotp = (code: string) =>
  apiRequest<{ recoveryCodes: string[] }>('POST', '/api/account/totp/confirm', { code });
export const disableTotp = () => apiRequest<void>('DELETE', '/api/account/totp');
export const renewRecoveryCodes = () =>
  apiRequest<{ recoveryCodes: string[] }>('POST', '/api/account/recovery-codes');

/**
 * Access tokens for cloud imports across the process boundary. The engine process asks ('token' from the
 * host) and the main process answers from its CloudAccounts ('token' to the host): the connected
 * accounts, and the refresh tokens that keep them, never leave the main process, which alone has
 * safeStorage (docs/decisions.md 'Cloud accounts live in the main process'). Only short-lived access
 * tokens cross, one per import start or renewal.
 */
import { CLOUD_PROVIDERS } from '@avp/shared';
import type { CloudProvider } from '@avp/shared';
import { CloudAccountError } from '../engine/cloud/errors.js';
import type { CloudTokenSource } from '../engine/imports.js';
import type { FromHost, ToHost } from './protocol.js';

type TokenRequest = Extract<FromHost, { type: 'token' }>;
type TokenAnswer = Extract<ToHost, { type: 'token' }>;

/**
 * The engine process's CloudTokenSource: each call is a request to the parent, settled by its answer.
 * A refusal comes back as the CloudAccountError the accounts threw, code included, so the engine tells
 * 'connect it first' from 'sign in again' exactly as it does with the accounts in its own process.
 */
export function relayedTokenSource(post: (message: TokenRequest) => void): {
  source: CloudTokenSource;
  /** Settles the request the answer names (an answer to no pending request is dropped). */
  answer(message: TokenAnswer): void;
  /** Fails every request still waiting (the parent has gone). */
  failAll(message: string): void;
} {
  let nextId = 1;
  const pending = new Map<number, { resolve(token: string): void; reject(error: Error): void }>();
  return {
    source: {
      accessToken(provider, options = {}) {
        const id = nextId++;
        return new Promise<string>((resolve, reject) => {
          pending.set(id, { resolve, reject });
          post({ type: 'token', id, provider, forceRefresh: options.forceRefresh === true });
        });
      },
    },
    answer(message) {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.ok) waiting.resolve(message.token);
      else
        waiting.reject(
          message.code ? new CloudAccountError(message.code, message.message) : new Error(message.message),
        );
    },
    failAll(message) {
      const waiting = [...pending.values()];
      pending.clear();
      for (const each of waiting) each.reject(new Error(message));
    },
  };
}

export const NO_CLOUD_ACCOUNTS = 'Cloud accounts are not available in this window.';

/** The main process's answer to one request, from its accounts (none: every request is refused). */
export async function answerTokenRequest(
  accounts: CloudTokenSource | undefined,
  request: { id: number; provider: unknown; forceRefresh: unknown },
): Promise<TokenAnswer> {
  const { id } = request;
  // Checked, since it comes from another process: a provider name, nothing else, reaches the accounts.
  const provider = (CLOUD_PROVIDERS as readonly unknown[]).includes(request.provider)
    ? (request.provider as CloudProvider)
    : null;
  if (!provider) return { type: 'token', id, ok: false, code: 'bad_ref', message: 'No such cloud provider.' };
  if (!accounts) return { type: 'token', id, ok: false, code: 'not_connected', message: NO_CLOUD_ACCOUNTS };
  try {
    const token = await accounts.accessToken(provider, { forceRefresh: request.forceRefresh === true });
    return { type: 'token', id, ok: true, token };
  } catch (error) {
    const code = error instanceof CloudAccountError ? error.code : null;
    return { type: 'token', id, ok: false, code, message: (error as Error).message };
  }
}

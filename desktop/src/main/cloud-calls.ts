/**
 * The window's cloud-account calls, answered where the accounts live: the main process in the app (their
 * refresh tokens sealed by safeStorage) and the development bridge's process. Pure Node, so both share
 * it. Arguments come from the window and are checked here; a CloudAccountError becomes a Result with
 * its sentence and code (the window shows the one and acts on the other), anything else stays an error.
 */
import { CLOUD_PROVIDERS } from '@avp/shared';
import type { CloudProvider } from '@avp/shared';
import { CloudAccountError } from '../engine/cloud/errors.js';
import type { CloudAccounts } from '../engine/cloud/accounts.js';
import type { DesktopApi, Result } from './api.js';

export type CloudMethod =
  'cloudProviders' | 'connectCloud' | 'cancelConnect' | 'disconnectCloud' | 'browseCloud' | 'searchCloud';

export type CloudCalls = {
  [K in CloudMethod]: (args: unknown[]) => ReturnType<DesktopApi[K]>;
};

/** Longer search text is cut: no provider searches on a paragraph. */
const MAX_QUERY = 200;

function providerOf(value: unknown): CloudProvider {
  if ((CLOUD_PROVIDERS as readonly unknown[]).includes(value)) return value as CloudProvider;
  throw new Error(`No such cloud provider: ${String(value)}`);
}

async function asResult<T>(run: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await run() } as Result<T>;
  } catch (error) {
    if (error instanceof CloudAccountError) return { ok: false, message: error.message, code: error.code };
    throw error;
  }
}

export function cloudCalls(accounts: CloudAccounts): CloudCalls {
  /** Sign-ins under way, one per provider, so Cancel (or a second Connect) can stop the waiting one. */
  const connecting = new Map<CloudProvider, AbortController>();

  return {
    cloudProviders: () => Promise.resolve(accounts.providers()),
    connectCloud: ([raw]) => {
      const provider = providerOf(raw);
      // A second Connect (the first browser tab closed, say) starts over with a fresh sign-in page.
      connecting.get(provider)?.abort();
      const controller = new AbortController();
      connecting.set(provider, controller);
      return asResult(() => accounts.connect(provider, { signal: controller.signal })).finally(() => {
        if (connecting.get(provider) === controller) connecting.delete(provider);
      });
    },
    cancelConnect: ([raw]) => {
      connecting.get(providerOf(raw))?.abort();
      return Promise.resolve();
    },
    disconnectCloud: ([raw]) => {
      const provider = providerOf(raw);
      return asResult(() => accounts.disconnect(provider));
    },
    browseCloud: ([raw, folderId]) => {
      const provider = providerOf(raw);
      const folder = typeof folderId === 'string' && folderId !== '' ? folderId : null;
      return asResult(() => accounts.browse(provider, folder));
    },
    searchCloud: ([raw, query]) => {
      const provider = providerOf(raw);
      const text = typeof query === 'string' ? query.slice(0, MAX_QUERY) : '';
      return asResult(() => accounts.search(provider, text));
    },
  };
}

export const CLOUD_METHODS: readonly CloudMethod[] = [
  'cloudProviders',
  'connectCloud',
  'cancelConnect',
  'disconnectCloud',
  'browseCloud',
  'searchCloud',
];

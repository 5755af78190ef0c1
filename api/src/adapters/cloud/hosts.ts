import type { CloudProvider } from '@avp/shared';
import type { Config } from '../../config.js';
import { isRangeGet, rangeFetch } from './range-fetch.js';
import { CloudRefusedError } from './types.js';

/**
 * The hosts each provider serves files from (docs/api.md 'Download hosts', with the documentation each
 * comes from). The server fetches a URL only when it is on one of these,
 * for the link a client posts and for every redirect after it, so an import can never be pointed at
 * an internal address (SSRF). The configured API base URLs (stand-ins in tests, a proxy in staging) are
 * allowed by their exact origin; the provider's public hosts only over HTTPS.
 */
const PUBLIC_HOSTS: Record<CloudProvider, readonly string[]> = {
  'google-drive': ['googleapis.com', '*.googleapis.com', '*.googleusercontent.com'],
  dropbox: ['dropbox.com', '*.dropbox.com', '*.dropboxapi.com', '*.dropboxusercontent.com'],
  box: ['box.com', '*.box.com', '*.boxcloud.com'],
  onedrive: [
    'graph.microsoft.com',
    '*.sharepoint.com',
    // Personal OneDrive: Graph's …/content answers with a 302 to my.microsoftpersonalcontent.com.
    '*.microsoftpersonalcontent.com',
    'onedrive.live.com',
    '*.1drv.com',
    '*.1drv.ms',
    '*.livefilestore.com',
  ],
};

export type HostConfig = Pick<
  Config,
  'GOOGLE_API_URL' | 'DROPBOX_API_URL' | 'DROPBOX_CONTENT_URL' | 'BOX_API_URL' | 'GRAPH_API_URL'
>;

function configuredOrigins(config: HostConfig, provider: CloudProvider): string[] {
  const bases: Record<CloudProvider, string[]> = {
    'google-drive': [config.GOOGLE_API_URL],
    dropbox: [config.DROPBOX_API_URL, config.DROPBOX_CONTENT_URL],
    box: [config.BOX_API_URL],
    onedrive: [config.GRAPH_API_URL],
  };
  return bases[provider].map((base) => new URL(base).origin);
}

function matches(pattern: string, host: string): boolean {
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
  return host === pattern;
}

/** Whether the server may fetch `url` for this provider. */
export function isProviderUrl(config: HostConfig, provider: CloudProvider, url: string): boolean {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return false;
  if (parsed.username || parsed.password) return false;
  if (configuredOrigins(config, provider).includes(parsed.origin)) return true;
  if (parsed.protocol !== 'https:' || (parsed.port !== '' && parsed.port !== '443')) return false;
  const host = parsed.hostname.toLowerCase();
  return PUBLIC_HOSTS[provider].some((pattern) => matches(pattern, host));
}

export const FOREIGN_LINK = 'This link is not on the cloud provider’s own servers, so it cannot be imported.';

/** Throws the client's 400 unless `url` is on the provider's hosts. */
export function assertProviderUrl(config: HostConfig, provider: CloudProvider, url: string): void {
  if (!isProviderUrl(config, provider, url)) throw new CloudRefusedError(FOREIGN_LINK, 400);
}

const MAX_REDIRECTS = 5;

/**
 * fetch() that follows redirects itself, only to the provider's hosts. The Authorization header never
 * follows a redirect: the download URLs Box, Graph and Drive redirect to are pre-authenticated, must not
 * receive the client's token, and some refuse a request that carries one. A byte download (a GET with a
 * Range header) goes over node:http (range-fetch.ts), everything else through fetch.
 */
export async function providerFetch(
  config: HostConfig,
  provider: CloudProvider,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  let current = String(url);
  const headers = new Headers(init.headers);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    assertProviderUrl(config, provider, current);
    const response = isRangeGet(init, headers)
      ? await rangeFetch(current, headers, init.signal)
      : await fetch(current, { ...init, headers, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || response.status === 304 || !location) {
      return response;
    }
    await response.body?.cancel();
    headers.delete('authorization');
    current = new URL(location, current).href;
  }
  throw new CloudRefusedError('The provider redirected this file too many times.', 400);
}

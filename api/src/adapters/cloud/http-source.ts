import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { CloudProvider } from '@avp/shared';
import { checkRange, errorForStatus, networkError } from './errors.js';
import { providerFetch } from './hosts.js';
import { nodeBodyOf } from './range-fetch.js';
import type { HostConfig } from './hosts.js';

/**
 * Bytes start..end of a file at `url` on the provider's hosts: a Range GET through providerFetch (so
 * every redirect is checked, and the token does not follow one to another origin), the answer's range
 * checked before a byte is used. Any other answer becomes the matching cloud error.
 */
export async function readRange(
  config: HostConfig,
  provider: CloudProvider,
  url: string,
  range: { start: number; end: number },
  init: { token?: string | null; signal?: AbortSignal | undefined } = {},
): Promise<Readable> {
  let response: Response;
  try {
    response = await providerFetch(config, provider, url, {
      headers: {
        Range: `bytes=${range.start}-${range.end}`,
        ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      },
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch (error) {
    throw networkError(error);
  }
  if (response.status !== 206 && response.status !== 200) {
    const detail = await response.text().catch(() => '');
    throw errorForStatus(response.status, response.headers.get('retry-after'), detail);
  }
  try {
    checkRange(response, range);
  } catch (error) {
    await response.body?.cancel();
    throw error;
  }
  if (!response.body) return Readable.from([]);
  return nodeBodyOf(response.body) ?? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
}

/** The size (from Content-Range) and name (from Content-Disposition) of a file behind a direct link. */
export async function probeLink(
  config: HostConfig,
  provider: CloudProvider,
  url: string,
  token: string | null,
  signal?: AbortSignal,
): Promise<{ size: number | null; name: string | null; mimeType: string | null }> {
  let response: Response;
  try {
    response = await providerFetch(config, provider, url, {
      headers: { Range: 'bytes=0-0', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    throw networkError(error);
  }
  await response.body?.cancel();
  if (response.status === 416) return { size: 0, name: null, mimeType: null };
  if (response.status !== 206 && response.status !== 200) {
    throw errorForStatus(response.status, response.headers.get('retry-after'));
  }
  const total = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
  const length = response.status === 200 ? response.headers.get('content-length') : undefined;
  const disposition = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="([^"]+)"/i.exec(disposition)?.[1];
  return {
    size: total !== undefined ? Number(total) : length ? Number(length) : null,
    name: star ? decodeURIComponent(star) : (plain ?? null),
    mimeType: response.headers.get('content-type'),
  };
}

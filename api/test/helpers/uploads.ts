import { createHash, randomBytes } from 'node:crypto';
import { UploadClient } from '@avp/shared';
import type { TransportRequest, TransportResponse, UploadSource } from '@avp/shared';

/**
 * The shared upload client's transport over Node's fetch, as the desktop app would use it: a cookie
 * session (with the Origin a browser sends) or a bearer token.
 */
export function fetchTransport(
  baseUrl: string,
  auth: { cookie?: string; bearer?: string },
): (request: TransportRequest) => Promise<TransportResponse> {
  return async (request) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (auth.cookie) {
      headers.cookie = auth.cookie;
      headers.origin = baseUrl;
    }
    if (auth.bearer) headers.authorization = `Bearer ${auth.bearer}`;
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (request.body) {
      headers['content-type'] = 'application/octet-stream';
      body = request.body as Uint8Array<ArrayBuffer>;
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    const res = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body,
      signal: request.signal as AbortSignal | undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
}

export function nodeClient(baseUrl: string, auth: { cookie?: string; bearer?: string }): UploadClient {
  return new UploadClient({
    transport: fetchTransport(baseUrl, auth),
    createHasher: () => {
      const hash = createHash('sha256');
      return { update: (data) => void hash.update(data), digest: () => hash.digest('hex') };
    },
    retry: { retries: 2, baseMs: 20, maxMs: 100 },
  });
}

/** Random bytes in memory as an upload source. */
export function memorySource(size: number, name = 'clip.mov', lastModified = 1_700_000_000_000) {
  const bytes = randomBytes(size);
  const source: UploadSource = {
    name,
    size,
    type: 'video/quicktime',
    lastModified,
    read: async (start, end) => bytes.subarray(start, end),
  };
  return { source, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

export const sponsorForm = {
  form_type: 'sponsor' as const,
  event_name: 'Expo 2027',
  sponsor_company: 'Acme AV',
};

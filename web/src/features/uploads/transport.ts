/**
 * The browser's side of the shared upload client: a fetch transport (same-origin cookie session) and a
 * File as an upload source, read a slice at a time.
 */
import { UploadClient } from '@avp/shared';
import type { TransportRequest, TransportResponse, UploadSource } from '@avp/shared';

export async function fetchTransport(request: TransportRequest): Promise<TransportResponse> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (request.body) {
    headers['Content-Type'] = 'application/octet-stream';
    body = request.body as Uint8Array<ArrayBuffer>;
  } else if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  const res = await fetch(request.path, {
    method: request.method,
    credentials: 'same-origin',
    headers,
    body,
    signal: request.signal as AbortSignal | undefined,
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed };
}

export function fileSource(file: File): UploadSource {
  return {
    name: file.name,
    size: file.size,
    type: file.type || 'application/octet-stream',
    lastModified: file.lastModified,
    read: async (start, end) => new Uint8Array(await file.slice(start, end).arrayBuffer()),
  };
}

export function browserUploadClient(): UploadClient {
  return new UploadClient({ transport: fetchTransport });
}

/**
 * The browser's side of the shared upload client: a fetch transport (same-origin cookie session), a
 * File as an upload source, read a slice at a time, and the sha-256 computed in a Web Worker
 * (hashing.ts).
 */
import { UploadClient } from '@avp/shared';
import type { TransportRequest, TransportResponse } from '@avp/shared';
import { browserHasher, type BlobSource, type HashPort, type HashReply } from './hashing';

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

export function fileSource(file: File): BlobSource {
  return {
    blob: file,
    name: file.name,
    size: file.size,
    type: file.type || 'application/octet-stream',
    lastModified: file.lastModified,
    read: async (start, end) => new Uint8Array(await file.slice(start, end).arrayBuffer()),
  };
}

/** A module worker running hash.worker.ts (Vite bundles it as a file of its own, same origin). */
export function spawnHashWorker(): HashPort {
  const worker = new Worker(new URL('./hash.worker.ts', import.meta.url), {
    type: 'module',
    name: 'sha-256',
  });
  return {
    post: (request) => worker.postMessage(request),
    listen: (onReply, onBroken) => {
      worker.onmessage = (event: MessageEvent<HashReply>) => onReply(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        onBroken();
      };
      worker.onmessageerror = () => onBroken();
    },
    terminate: () => worker.terminate(),
  };
}

export function browserUploadClient(): UploadClient {
  return new UploadClient({
    transport: fetchTransport,
    createHasher: browserHasher(typeof Worker === 'undefined' ? null : spawnHashWorker),
  });
}

/**
 * The browser's side of the shared upload client: a fetch transport (same-origin cookie session), a
 * File as an upload source, read a slice at a time, and the sha-256 computed in a Web Worker
 * (hashing.ts).
 */
import { giveBackMemory, UploadClient } from '@avp/shared';
import type { TransportRequest, TransportResponse } from '@avp/shared';
import { browserHasher, type BlobSource, type HashPort, type HashReply } from './hashing';

function parse(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A part's bytes through XMLHttpRequest, the one browser API that says how much of a request body has
 * gone out: the client hears it (request.onProgress) and gives up a part that stops moving.
 */
export function xhrTransport(request: TransportRequest): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    const signal = request.signal as AbortSignal | undefined;
    if (signal?.aborted) {
      reject(new DOMException('The operation was aborted.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open(request.method, request.path);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => request.onProgress?.(event.loaded);
    // The answer arriving is progress too.
    xhr.onprogress = () => request.onProgress?.(request.body?.length ?? 0);
    xhr.onload = () => {
      done();
      resolve({ status: xhr.status, body: parse(xhr.responseText) });
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError('The connection to the server failed.'));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('The operation was aborted.', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort);
    xhr.send(request.body as Uint8Array<ArrayBuffer>);
    request.onProgress?.(0);
  });
}

/** fetch for the JSON calls; parts go through xhrTransport, which reports their progress. */
export async function fetchTransport(request: TransportRequest): Promise<TransportResponse> {
  if (request.body && typeof XMLHttpRequest !== 'undefined') return xhrTransport(request);
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
  return { status: res.status, body: parse(await res.text()) };
}

export function fileSource(file: File): BlobSource {
  const size = file.size;
  return {
    blob: file,
    name: file.name,
    size,
    type: file.type || 'application/octet-stream',
    lastModified: file.lastModified,
    // A file sent in one part is read whole: File.slice costs a call to Chromium's browser process, which
    // bench:portal's profile found in its longest tasks while 2,000 small files were sent.
    read: async (start, end) =>
      new Uint8Array(
        await (start === 0 && end === size ? file.arrayBuffer() : file.slice(start, end).arrayBuffer()),
      ),
    // Each read is a buffer of its own, read by nobody once the client is done with it: its memory goes
    // back at once, not at a full collection of the page (2,000 small files are 2 GB of such buffers).
    release: giveBackMemory,
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

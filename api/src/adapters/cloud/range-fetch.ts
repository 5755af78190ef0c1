import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { giveBackMemory } from '../buffer-memory.js';
import { CloudTransientError } from './types.js';

/**
 * fetch() for the byte downloads (GET with a Range header, no body), over node:http / node:https.
 *
 * The SDKs want a WHATWG Response, and undici's fetch delivers one whose body is a web ReadableStream;
 * turning that back into a Node stream (Readable.fromWeb) costs a promise and a queue hop per chunk, and
 * with undici's own per-chunk work it was about a third of the import's processor time. Here the
 * Response's body is a web stream that reads the Node response lazily (nothing moves until it is read),
 * and the Node response stays reachable from it (nodeBodyOf), so the import reads the socket's chunks
 * as they come while an SDK that reads the body the web way (an error's text) still can.
 *
 * Only what the downloads need: no request body, no redirects (providerFetch follows them itself,
 * checking each hop), no content coding (identity is asked for; a byte range of a compressed answer
 * would not be the file's bytes).
 */

const nodeBodies = new WeakMap<object, Readable>();

/** The Node stream behind a Response body made by rangeFetch, if it was one and has not been read the web way. */
export function nodeBodyOf(body: unknown): Readable | undefined {
  return body !== null && typeof body === 'object' ? nodeBodies.get(body) : undefined;
}

/** Whether rangeFetch can make this request (else the caller uses fetch). */
export function isRangeGet(init: RequestInit, headers: Headers): boolean {
  const method = (init.method ?? 'GET').toUpperCase();
  return method === 'GET' && (init.body === undefined || init.body === null) && headers.has('range');
}

/** Statuses a Response must not have a body for. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function lazyWebBody(source: IncomingMessage): ReadableStream<Uint8Array> {
  let iterator: AsyncIterator<Buffer> | undefined;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        nodeBodies.delete(stream);
        iterator ??= source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.length));
      },
      cancel() {
        source.destroy();
      },
    },
    { highWaterMark: 0 },
  );
  nodeBodies.set(stream, source);
  return stream;
}

/**
 * Gives back the memory of each of the answer's socket reads as soon as the HTTP parser has taken it.
 * Node's parser copies a body's bytes out of every read (its body chunks are buffers of their own), so
 * each read is a second buffer of up to 64 KiB outside V8's heap, garbage once parsed; left to the
 * collector, a copy's worth of them counted towards V8's external-memory limit, which starts a full
 * collection of the whole heap each time it is reached (bench:import). Only a read that is its whole
 * ArrayBuffer, seen after the parser's own listener (added when the socket was given the request, so
 * before this one), and only while this answer has the socket: not once it ends and the socket may
 * carry another request, whose parser listener would then come after this one.
 */
function releaseReads(res: IncomingMessage): void {
  const socket = res.socket;
  if (!socket) return;
  const stop = () => {
    socket.off('data', giveBackMemory);
    res.off('end', stop);
    res.off('close', stop);
  };
  socket.on('data', giveBackMemory);
  res.once('end', stop);
  res.once('close', stop);
}

export function rangeFetch(url: string, headers: Headers, signal?: AbortSignal | null): Promise<Response> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const outgoing: Record<string, string> = {};
  headers.forEach((value, name) => {
    outgoing[name] = value;
  });
  outgoing['accept-encoding'] = 'identity';
  return new Promise<Response>((resolve, reject) => {
    const req = send(target, { method: 'GET', headers: outgoing, ...(signal ? { signal } : {}) });
    req.on('error', reject);
    req.once('response', (res) => {
      const status = res.statusCode ?? 0;
      const coding = res.headers['content-encoding'];
      if (coding && coding !== 'identity') {
        res.destroy();
        reject(new CloudTransientError(`The provider sent this byte range encoded (${coding}).`));
        return;
      }
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
        responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      }
      // A failure after the answer began reaches whoever reads the body, not this request.
      res.on('error', () => undefined);
      if (status < 200 || status > 599) {
        res.destroy();
        reject(new CloudTransientError(`The provider answered ${status}.`));
        return;
      }
      const body = NULL_BODY.has(status) ? null : lazyWebBody(res);
      if (body) releaseReads(res);
      if (!body) res.resume();
      resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
    });
    req.end();
  });
}

import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { ClientRequest } from 'node:http';
import { UploadClient } from '@avp/shared';
import type {
  RetryPolicy,
  TransportRequest,
  TransportResponse,
  UploadSource,
  UploadTransport,
} from '@avp/shared';
import { createUploadStorage } from '../../src/adapters/storage/index.js';
import type { TestApp } from './app.js';

/** The sha-256 of a file as its storage holds it, read back through the app's storage driver. */
export async function storedSha(app: TestApp, fileId: string): Promise<string> {
  const row = await app.db.models.SubmissionFile.findByPk(fileId);
  const hash = createHash('sha256');
  for await (const chunk of await createUploadStorage(app.config).read(row!.storageKey)) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

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
  return uploadClient(fetchTransport(baseUrl, auth));
}

/** The shared upload client with sha-256 from node:crypto, over `transport`, retrying quickly. */
export function uploadClient(transport: UploadTransport, retry: Partial<RetryPolicy> = {}): UploadClient {
  return new UploadClient({
    transport,
    createHasher: () => {
      const hash = createHash('sha256');
      return { update: (data) => void hash.update(data), digest: () => hash.digest('hex') };
    },
    retry: { retries: 2, baseMs: 20, maxMs: 100, ...retry },
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

/** The status of a request whose connection the server closed before the client read an answer. */
export const CUT = 0;

export interface RawAnswer {
  status: number;
  body: unknown;
}

/**
 * PUTs several bodies to the same URL at once over node:http, writing them 64 KiB at a time in turn, so
 * their bytes reach the server interleaved rather than one request after the other. A request the server
 * answers before its body is all sent (a refusal) gets no more of it, as a client would stop sending.
 */
export async function interleavedPuts(
  url: string,
  headers: Record<string, string>,
  bodies: Buffer[],
  chunk = 64 * 1024,
): Promise<RawAnswer[]> {
  const requests = bodies.map((body) => {
    const req = request(url, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': body.length },
    });
    const sending = { req, body, answered: false, answer: undefined as unknown as Promise<RawAnswer> };
    sending.answer = new Promise<RawAnswer>((resolve, reject) => {
      req.on('error', (error: NodeJS.ErrnoException) => {
        // Once answered, writing the rest may fail (the server closed the connection); the answer stands.
        if (sending.answered) return;
        // A refusal closes the connection: when it comes while the body is still being written, the
        // client sees the connection cut before it can read the answer (the shared client retries).
        if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve({ status: CUT, body: undefined });
        else reject(error);
      });
      req.once('response', (res) => {
        sending.answered = true;
        req.emit('answered');
        const parts: Buffer[] = [];
        res.on('data', (data: Buffer) => parts.push(data));
        res.once('error', reject);
        res.once('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            body: text === '' ? undefined : (JSON.parse(text) as unknown),
          });
        });
      });
    });
    return sending;
  });
  const longest = Math.max(...bodies.map((b) => b.length));
  for (let offset = 0; offset < longest; offset += chunk) {
    // An early answer comes with the connection's close: let it be read before writing more, or the write
    // meets the closed socket (EPIPE) and the answer is lost with it.
    await new Promise((resolve) => setImmediate(resolve));
    const waits: Promise<void>[] = [];
    for (const sending of requests) {
      const { req, body } = sending;
      if (offset >= body.length || sending.answered || req.destroyed) continue;
      if (!req.write(body.subarray(offset, offset + chunk))) waits.push(drained(req));
    }
    await Promise.all(waits);
  }
  for (const { req, answered } of requests) if (!answered) req.end();
  return Promise.all(requests.map((r) => r.answer));
}

/** Resolves when a request can take more, has been answered, or has closed. */
function drained(req: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const events = ['drain', 'answered', 'close'];
    const done = () => {
      for (const event of events) req.off(event, done);
      resolve();
    };
    for (const event of events) req.on(event, done);
  });
}

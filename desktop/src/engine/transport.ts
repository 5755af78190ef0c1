/**
 * The shared upload client's transport over got (DESIGN 'Stack': got for the desktop's HTTP): a
 * keep-alive agent, connect/idle/response timeouts, no retries of its own (the shared client's policy
 * decides), the proxy from HTTP_PROXY/HTTPS_PROXY/NO_PROXY when set, a bearer token, part bodies streamed
 * through the bandwidth bucket.
 */
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import got from 'got';
import type { Got } from 'got';
import type { TransportRequest, TransportResponse, UploadTransport } from '@avp/shared';
import type { TokenBucket } from './token-bucket.js';
import { networkWords } from './failures.js';
import { DEFAULT_TIMEOUTS } from './timeouts.js';

/** Bytes handed to the socket per bucket withdrawal. */
const CHUNK = 64 * 1024;

export interface GotTransportOptions {
  baseUrl: string;
  /** The bearer token of the signed-in session (read on every request). */
  token: () => string | null;
  bucket?: TokenBucket;
  /** Called after the server confirmed a part (2xx on a part PUT). */
  onPartStored?: (fileId: string, partNumber: number) => void;
  /** ms; defaults (timeouts.ts) suit a slow uplink: 10 s to connect, 60 s of silence on the socket. */
  timeouts?: { connect?: number; socket?: number; response?: number };
  userAgent?: string;
}

export function proxyEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv | undefined {
  const keys = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];
  return keys.some((k) => env[k]) ? env : undefined;
}

/** Keep-alive agents; Node ≥ 24.5 routes them through HTTP(S)_PROXY (honouring NO_PROXY) given proxyEnv. */
export function createAgents(env: NodeJS.ProcessEnv = process.env): { http: http.Agent; https: https.Agent } {
  const proxy = proxyEnv(env);
  const options = {
    keepAlive: true,
    keepAliveMsecs: 10_000,
    maxSockets: 16,
    ...(proxy ? { proxyEnv: proxy } : {}),
  };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

export function createHttp(options: Pick<GotTransportOptions, 'baseUrl' | 'timeouts' | 'userAgent'>): Got {
  return got.extend({
    prefixUrl: options.baseUrl.replace(/\/+$/, ''),
    agent: createAgents(),
    throwHttpErrors: false,
    retry: { limit: 0 },
    responseType: 'text',
    timeout: {
      connect: options.timeouts?.connect ?? DEFAULT_TIMEOUTS.connectMs,
      socket: options.timeouts?.socket ?? DEFAULT_TIMEOUTS.idleMs,
      // The caller (the shared client) times each call itself; this only ends an answer that never comes.
      response: options.timeouts?.response ?? DEFAULT_TIMEOUTS.completeMs,
    },
    headers: { 'user-agent': options.userAgent ?? 'av-upload (desktop engine)', accept: 'application/json' },
  });
}

const PART_PATH = /\/files\/([^/]+)\/parts\/(\d+)$/;

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The body of a part, released to the socket at the bucket's pace. */
function throttled(bytes: Uint8Array, bucket: TokenBucket, signal?: AbortSignal): Readable {
  async function* chunks() {
    for (let offset = 0; offset < bytes.length; offset += CHUNK) {
      const piece = bytes.subarray(offset, Math.min(bytes.length, offset + CHUNK));
      await bucket.take(piece.length, signal);
      yield piece;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

export function gotTransport(
  options: GotTransportOptions,
  client: Got = createHttp(options),
): UploadTransport {
  return async (request: TransportRequest): Promise<TransportResponse> => {
    const signal = request.signal as AbortSignal | undefined;
    const headers: Record<string, string> = {};
    const token = options.token();
    if (token) headers.authorization = `Bearer ${token}`;
    const part = request.method === 'PUT' ? PART_PATH.exec(request.path) : null;
    let body: string | Readable | Uint8Array | undefined;
    if (request.body) {
      headers['content-type'] = 'application/octet-stream';
      headers['content-length'] = String(request.body.length);
      body =
        options.bucket && options.bucket.bytesPerSecond > 0
          ? throttled(request.body, options.bucket, signal)
          : Buffer.from(request.body.buffer, request.body.byteOffset, request.body.length);
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    let res;
    try {
      res = await client(request.path.replace(/^\/+/, ''), {
        method: request.method,
        headers,
        body,
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      // Words naming the server and the cause, never a bare 'connect ECONNREFUSED 127.0.0.1:3600'.
      throw networkWords(error, options.baseUrl.replace(/\/+$/, ''), {
        connectMs: options.timeouts?.connect ?? DEFAULT_TIMEOUTS.connectMs,
      });
    }
    if (part && res.statusCode >= 200 && res.statusCode < 300) {
      options.onPartStored?.(decodeURIComponent(part[1]!), Number(part[2]));
    }
    return { status: res.statusCode, body: parse(res.body) };
  };
}

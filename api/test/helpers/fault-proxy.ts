import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, request as httpRequest, Agent } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

/**
 * Faults at the network boundary, for tests and for the soak (test/soak/): proxies a test puts between our
 * code and something it talks to (PostgreSQL, S3, the API itself), and breaks on demand.
 *
 * startTcpFaultProxy({ target: { host, port } }) → TcpFaultProxy, a plain TCP relay:
 *   cut()          resets every open connection (RST), as a restarting server or a dropped NAT entry does
 *   refuse()       stops listening and resets every open connection: new ones are refused (ECONNREFUSED)
 *                  until accept()
 *   accept()       listens again, on the same port
 *   hold()         forwards nothing more, either way, on every connection, open or new, until release():
 *                  a stalled link or a blackhole (TCP's own flow control holds the senders; nothing is lost
 *                  or reordered, as with a route that drops packets and TCP retransmitting them later)
 *   release()      forwards again
 *   connections    how many connections are open now; opened: how many were ever accepted
 *
 * startS3FaultProxy({ target: 'http://127.0.0.1:…' }) → S3FaultProxy, an HTTP relay in front of an
 * S3-compatible server (headers, Host included, passed unchanged, so SigV4 signatures still hold):
 *   fault = { kind, share }   from now on, that share (0..1, default 1) of requests meets the fault:
 *     'slowdown'  503 with S3's SlowDown error XML (S3 docs, 'Error responses': "Please reduce your request rate.")
 *     'internal'  500 with S3's InternalError XML ("We encountered an internal error. Please try again.")
 *     'reset'     the client's connection is reset before any answer
 *     'slow'      the answer waits `slowMs` (default 3000) before it is forwarded
 *   fault = null              everything forwarded again
 *   counts                    { forwarded, faulted } so far
 *   inFlight                  { now, most }: requests received and not yet answered, now and at most at once
 *
 * Both: url, port, close(). Erasable TypeScript with node: imports only, so .mjs scripts run it under tsx
 * or Node's type stripping alike.
 */

export interface TcpFaultProxy {
  url: string;
  port: number;
  readonly connections: number;
  readonly opened: number;
  cut(): void;
  refuse(): Promise<void>;
  accept(): Promise<void>;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | undefined;
  /** Bytes flow both ways (not held). */
  piped: boolean;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startTcpFaultProxy(options: {
  target: { host: string; port: number };
  host?: string;
  port?: number;
}): Promise<TcpFaultProxy> {
  const host = options.host ?? '127.0.0.1';
  const pairs = new Set<Pair>();
  let held = false;
  let opened = 0;

  // Held, a pair is unpiped as well as paused: a pipe resumes its source on the destination's 'drain',
  // which would let bytes through a hold.
  const flow = (pair: Pair) => {
    const { client, upstream } = pair;
    if (!upstream) return;
    if (held && pair.piped) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      pair.piped = false;
    } else if (!held && !pair.piped) {
      client.pipe(upstream);
      upstream.pipe(client);
      pair.piped = true;
    }
  };

  const connectUpstream = (pair: Pair) => {
    const upstream = connect(options.target.port, options.target.host);
    pair.upstream = upstream;
    upstream.setNoDelay(true);
    upstream.on('error', () => pair.client.destroy());
    upstream.on('close', () => pair.client.destroy());
    flow(pair);
  };

  const server = createServer((client) => {
    opened++;
    client.setNoDelay(true);
    const pair: Pair = { client, upstream: undefined, piped: false };
    pairs.add(pair);
    client.on('error', () => pair.upstream?.destroy());
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    // While held, a new connection is accepted but not carried further: its first bytes wait with it.
    if (held) client.pause();
    else connectUpstream(pair);
  });
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  let listening = true;

  const reset = (socket: Socket | undefined) => {
    if (!socket || socket.destroyed) return;
    if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
  };

  return {
    url: `tcp://${host}:${port}`,
    port,
    get connections() {
      return pairs.size;
    },
    get opened() {
      return opened;
    },
    cut() {
      for (const pair of [...pairs]) {
        reset(pair.client);
        reset(pair.upstream);
      }
    },
    async refuse() {
      if (!listening) return;
      listening = false;
      // close() waits for the open connections to end: it stops new ones at once, and they are cut here.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const pair of [...pairs]) {
        reset(pair.client);
        reset(pair.upstream);
      }
      await closed;
    },
    async accept() {
      if (listening) return;
      await listen(server, port, host);
      listening = true;
    },
    hold() {
      held = true;
      for (const pair of pairs) flow(pair);
    },
    release() {
      held = false;
      for (const pair of pairs) {
        if (pair.upstream) flow(pair);
        else connectUpstream(pair);
      }
    },
    async close() {
      const closed = listening ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined;
      listening = false;
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      await closed;
    },
  };
}

export type S3FaultKind = 'slowdown' | 'internal' | 'reset' | 'slow';

export interface S3FaultProxy {
  url: string;
  port: number;
  fault: { kind: S3FaultKind; share?: number; slowMs?: number } | null;
  readonly counts: { forwarded: number; faulted: number };
  readonly inFlight: { now: number; most: number };
  /** Every request that reached the proxy, in order: its method, its path with the query, its Range. */
  readonly requests: { method: string; url: string; range?: string }[];
  close(): Promise<void>;
}

/** S3's error document (docs: 'Error responses', REST error response). */
function s3Error(code: string, message: string, resource: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${code}</Code><Message>${message}</Message><Resource>${resource.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</Resource>` +
    `<RequestId>${randomBytes(8).toString('hex').toUpperCase()}</RequestId>` +
    `<HostId>${randomBytes(24).toString('base64')}</HostId></Error>`
  );
}

export async function startS3FaultProxy(options: {
  target: string;
  host?: string;
  port?: number;
  random?: () => number;
}): Promise<S3FaultProxy> {
  const target = new URL(options.target);
  const random = options.random ?? Math.random;
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const counts = { forwarded: 0, faulted: 0 };
  const inFlight = { now: 0, most: 0 };
  const requests: { method: string; url: string; range?: string }[] = [];
  const state: S3FaultProxy = {
    url: '',
    port: 0,
    fault: null,
    counts,
    inFlight,
    requests,
    close: async () => undefined,
  };

  const answerError = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    code: string,
    text: string,
  ) => {
    // The body the client is sending is read and dropped, so it sees the answer rather than a broken pipe.
    req.resume();
    const body = s3Error(code, text, req.url ?? '/');
    res.writeHead(status, {
      'content-type': 'application/xml',
      'content-length': Buffer.byteLength(body),
      ...(status === 503 ? { 'retry-after': '1' } : {}),
    });
    res.end(body);
  };

  const forward = (req: IncomingMessage, res: ServerResponse, delayMs: number) => {
    counts.forwarded++;
    const upstream = httpRequest({
      host: target.hostname,
      port: Number(target.port),
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent,
    });
    upstream.on('response', (answer) => {
      const send = () => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };

  const server = createHttpServer((req, res) => {
    req.on('error', () => res.destroy());
    requests.push({ method: req.method ?? '', url: req.url ?? '/', range: req.headers.range });
    inFlight.most = Math.max(inFlight.most, ++inFlight.now);
    res.on('close', () => inFlight.now--);
    const fault = state.fault;
    if (!fault || random() >= (fault.share ?? 1)) {
      forward(req, res, 0);
      return;
    }
    counts.faulted++;
    switch (fault.kind) {
      case 'slowdown':
        return answerError(req, res, 503, 'SlowDown', 'Please reduce your request rate.');
      case 'internal':
        return answerError(
          req,
          res,
          500,
          'InternalError',
          'We encountered an internal error. Please try again.',
        );
      case 'reset':
        if (typeof req.socket.resetAndDestroy === 'function') req.socket.resetAndDestroy();
        else req.socket.destroy();
        return;
      case 'slow':
        // Counted as faulted and as forwarded: it does reach the server, late.
        forward(req, res, fault.slowMs ?? 3_000);
        return;
    }
  });
  server.keepAliveTimeout = 65_000;
  await listen(server as unknown as Server, options.port ?? 0, options.host ?? '127.0.0.1');
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://${options.host ?? '127.0.0.1'}:${state.port}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    agent.destroy();
  };
  return state;
}

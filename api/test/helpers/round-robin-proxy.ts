import { Agent, createServer, request } from 'node:http';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer standing in for the one in front of several API machines: each HTTP request goes to the
 * next upstream in turn. It balances requests, not connections, because a client keeps its connection
 * alive and a TCP balancer would pin it to one process, which is not what a multi-process test must show.
 *
 * Like nginx with `max_fails=1`, an upstream that fails is left out of the rotation for `downMs`, then
 * tried again; a request whose connection was refused goes on to the next upstream, and one that failed
 * after its body began to flow is answered 502. So a killed process costs its requests in flight, which
 * clients retry, and nothing after.
 *
 * test/bench/scale.mjs imports this file as it is (Node strips the types), so it stays erasable
 * TypeScript with node: imports only.
 */

export interface Upstream {
  host: string;
  port: number;
}

export interface ProxiedRequest {
  method: string;
  path: string;
  /** Index of the upstream the request was sent to. */
  upstream: number;
  /** The upstream's status, or 502 when it failed before answering. */
  status: number;
}

export interface RoundRobinProxy {
  url: string;
  port: number;
  /** Requests answered, in the order their answers began; only kept with `record: true`. */
  readonly log: ProxiedRequest[];
  /** Called as a request is handed to an upstream, before any answer (a test may act mid-request). */
  onForward: ((forwarded: { method: string; path: string; upstream: number }) => void) | undefined;
  close(): Promise<void>;
}

/** Names the upstream that answered, on every answer, so a test can tell which process served it. */
export const SERVED_BY = 'x-served-by';

// RFC 9110 §7.6.1: these describe one connection and are not forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

export async function startRoundRobinProxy(
  upstreams: Upstream[],
  options: { host?: string; port?: number; downMs?: number; record?: boolean } = {},
): Promise<RoundRobinProxy> {
  if (upstreams.length === 0) throw new Error('a proxy needs at least one upstream');
  const downMs = options.downMs ?? 2_000;
  const record = options.record ?? true;
  const downUntil = upstreams.map(() => 0);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const log: ProxiedRequest[] = [];
  let turn = 0;

  /**
   * The next upstream in turn that is neither resting after a failure nor already tried for this request;
   * when all are resting, the next untried one anyway; undefined when every one has been tried.
   */
  function pick(tried: ReadonlySet<number>): number | undefined {
    const now = Date.now();
    const untried = upstreams.length - tried.size;
    if (untried === 0) return undefined;
    let fallback: number | undefined;
    for (let step = 0; step < upstreams.length; step++) {
      const index = turn++ % upstreams.length;
      if (tried.has(index)) continue;
      if (downUntil[index]! <= now) return index;
      fallback ??= index;
    }
    return fallback;
  }

  const state: RoundRobinProxy = {
    url: '',
    port: 0,
    log,
    onForward: undefined,
    close: async () => undefined,
  };

  const server = createServer((req: IncomingMessage, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const headers = endToEnd(req.headers);
    const from = req.socket.remoteAddress ?? '';
    const prior = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = prior ? `${String(prior)}, ${from}` : from;
    headers['x-forwarded-proto'] = 'http';
    const tried = new Set<number>();

    const send = (index: number) => {
      tried.add(index);
      const target = upstreams[index]!;
      const forwarded: ClientRequest = request({
        host: target.host,
        port: target.port,
        method,
        path,
        headers,
        agent,
      });
      let answered = false;
      let failed = false;
      // The client's body is read only once the upstream is connected: until then nothing of it is spent,
      // so a refused connection can pass the request to the next upstream (nginx's proxy_next_upstream).
      let reading = false;
      const read = () => {
        if (reading || failed) return;
        reading = true;
        req.pipe(forwarded);
      };
      const note = (status: number) => {
        if (record) log.push({ method, path, upstream: index, status });
      };

      forwarded.on('socket', (socket) => {
        if (socket.connecting) socket.once('connect', read);
        else read();
      });
      forwarded.on('response', (upstreamRes) => {
        answered = true;
        const out = endToEnd(upstreamRes.headers);
        out[SERVED_BY] = String(index);
        // The upstream closes after an answer given before it read the whole body (a refused part): so
        // does the proxy, or the client would go on sending into a connection nobody reads.
        if (/\bclose\b/i.test(String(upstreamRes.headers.connection ?? ''))) out.connection = 'close';
        res.writeHead(upstreamRes.statusCode ?? 502, out);
        note(upstreamRes.statusCode ?? 502);
        upstreamRes.pipe(res);
        upstreamRes.on('error', () => res.destroy());
      });
      forwarded.on('error', () => {
        // After an answer, failing to send the rest of a body the upstream no longer wanted changes nothing.
        if (answered || failed) return;
        failed = true;
        downUntil[index] = Date.now() + downMs;
        if (!reading) {
          const next = pick(tried);
          if (next !== undefined) {
            send(next);
            return;
          }
        }
        req.unpipe(forwarded);
        if (res.headersSent) {
          res.destroy();
          return;
        }
        note(502);
        res.writeHead(502, {
          'content-type': 'application/json',
          connection: 'close',
          [SERVED_BY]: String(index),
        });
        res.end(
          JSON.stringify({ error: { code: 'bad_gateway', message: 'The upstream failed to answer.' } }),
        );
      });
      res.once('close', () => {
        if (!res.writableFinished) forwarded.destroy();
      });
      state.onForward?.({ method, path, upstream: index });
    };

    req.on('error', () => res.destroy());
    send(pick(tried)!);
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  state.port = port;
  state.url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    agent.destroy();
  };
  return state;
}

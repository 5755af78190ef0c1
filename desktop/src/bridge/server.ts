/**
 * The development bridge's HTTP server (development only, never part of the app): it serves the built
 * renderer with the bridge's script added to its page, and the DesktopApi over HTTP (POST per call) and
 * Server-Sent Events (onChange), relayed to a real engine process as the app's main process relays
 * them, so the renderer runs in a plain browser against the real engine and the real API.
 *
 * The API can read any file on this machine (submit takes paths), so it answers only its own page: the
 * Host header must name the loopback port it listens on (no DNS rebinding), and a call must be a JSON
 * POST from its own origin (no cross-site form or fetch).
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import type { EngineClient } from '../engine-host/client.js';
import type { CloudCalls } from '../main/cloud-calls.js';
import { bridgeCalls, isBridgeMethod } from './calls.js';
import type { SignInPages } from './sign-in.js';

/** The app's CSP (src/main/index.ts) with connect-src 'self' for the bridge's own API. */
export const BRIDGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
  "form-action 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

export const SHIM_PATH = '/__bridge/shim.js';
const EVENTS_PATH = '/__bridge/events';
/** The last cloud sign-in page 'opened' (JSON, null before any): what the system browser would show. */
export const SIGN_IN_PATH = '/__bridge/sign-in';
const API_PREFIX = '/__bridge/api/';
const MAX_BODY = 1024 * 1024;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export interface BridgeOptions {
  engine: EngineClient;
  /** Today's log file, when the bridge keeps one (--log-dir). */
  logPath?: () => string | null;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** The compiled page script that defines window.avUpload over this server (dist/bridge/client/shim.js). */
  shimFile: string;
  /** The cloud accounts' calls and the sign-in pages they open (none: no cloud accounts). */
  cloud?: { calls: CloudCalls; signIns: SignInPages };
}

/** The renderer's page with the bridge's script first, so window.avUpload exists before the app runs. */
export function injectShim(html: string): string {
  const tag = `<script type="module" src="${SHIM_PATH}"></script>\n    `;
  const at = html.indexOf('<script');
  return at === -1 ? html.replace('</head>', `${tag}</head>`) : html.slice(0, at) + tag + html.slice(at);
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(type.startsWith('text/html') ? { 'content-security-policy': BRIDGE_CSP } : {}),
  });
  res.end(body);
}

const json = (res: ServerResponse, status: number, value: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value ?? null));

function ownHosts(req: IncomingMessage): Set<string> {
  const port = req.socket.localPort;
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

async function readBody(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('Request body too large.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createBridgeServer(options: BridgeOptions): Server {
  const { engine } = options;
  const calls = bridgeCalls(engine, {
    ...(options.logPath ? { logPath: options.logPath } : {}),
    ...(options.cloud ? { cloud: options.cloud.calls } : {}),
  });
  const signIns = options.cloud?.signIns;
  const rendererDir = path.resolve(options.rendererDir);

  async function serveFile(res: ServerResponse, pathname: string): Promise<void> {
    const file = path.resolve(rendererDir, `.${decodeURIComponent(pathname)}`);
    if (!file.startsWith(rendererDir + path.sep)) return send(res, 404, 'text/plain', 'Not found.');
    try {
      const body = await readFile(file);
      send(res, 200, TYPES[path.extname(file)] ?? 'application/octet-stream', body);
    } catch {
      send(res, 404, 'text/plain', 'Not found.');
    }
  }

  async function servePage(res: ServerResponse): Promise<void> {
    try {
      const html = await readFile(path.join(rendererDir, 'index.html'), 'utf8');
      send(res, 200, TYPES['.html']!, injectShim(html));
    } catch {
      send(res, 503, 'text/plain; charset=utf-8', 'The renderer is not built: run `npm run desktop:build`.');
    }
  }

  function events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const push = (snapshot: unknown) => res.write(`data: ${JSON.stringify(snapshot)}\n\n`);
    push(engine.snapshot());
    const off = engine.onChange(push);
    // The panel shows each sign-in page as a link, as the system browser would open it.
    const offSignIn = signIns?.onOpen((page) =>
      res.write(`event: sign-in\ndata: ${JSON.stringify(page)}\n\n`),
    );
    // Keeps proxies and the browser from calling an idle stream dead.
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    req.on('close', () => {
      off();
      offSignIn?.();
      clearInterval(ping);
    });
  }

  async function call(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`)
      return json(res, 403, { error: 'Refused: not the bridge page.' });
    if (!req.headers['content-type']?.startsWith('application/json'))
      return json(res, 415, { error: 'Send JSON.' });
    if (!isBridgeMethod(method, calls)) return json(res, 404, { error: `No such call: ${method}` });
    let args: unknown;
    try {
      args = JSON.parse((await readBody(req)) || '[]');
    } catch (error) {
      return json(res, 400, { error: (error as Error).message });
    }
    try {
      const value = await calls[method](Array.isArray(args) ? args : []);
      json(res, 200, { value: value ?? null });
    } catch (error) {
      // What ipcRenderer.invoke would reject with in the app.
      json(res, 500, { error: (error as Error).message });
    }
  }

  return createServer((req, res) => {
    const run = async () => {
      if (!ownHosts(req).has(req.headers.host ?? '')) return send(res, 421, 'text/plain', 'Unknown host.');
      const { pathname } = new URL(req.url ?? '/', 'http://bridge.invalid');
      if (req.method === 'POST' && pathname.startsWith(API_PREFIX))
        return call(req, res, pathname.slice(API_PREFIX.length));
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return send(res, 405, 'text/plain', 'Method not allowed.');
      if (pathname === '/' || pathname === '/index.html') return servePage(res);
      // The app has no icon of its own in the page; answer the browser's guess without a 404 in the console.
      if (pathname === '/favicon.ico') return send(res, 204, 'image/x-icon', '');
      if (pathname === SHIM_PATH) {
        const body = await readFile(options.shimFile).catch(() => null);
        return body
          ? send(res, 200, TYPES['.js']!, body)
          : send(res, 503, 'text/plain', 'The bridge script is not built: run `npm run desktop:bridge`.');
      }
      if (pathname === EVENTS_PATH) return events(req, res);
      if (pathname === SIGN_IN_PATH) return json(res, 200, signIns?.latest() ?? null);
      return serveFile(res, pathname);
    };
    run().catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain', (error as Error).message);
      else res.destroy();
    });
  });
}

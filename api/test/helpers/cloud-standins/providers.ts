import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Dropbox, Box and Microsoft Graph at the network boundary, on one local server, as the server's sources
 * call them:
 *
 *   Dropbox  POST /2/files/get_metadata, POST /2/files/get_temporary_link (API, bearer token);
 *            GET /dropbox/direct/:id (a Chooser direct link) and /dropbox/temp/:id (a temporary link),
 *            bytes with Range, no token
 *   Box      GET /2.0/files/:id (metadata), GET /2.0/files/:id/content (bearer token; a 302 to
 *            /box-dl/:id, or a 202 with Retry-After while 'not ready')
 *   Graph    GET /v1.0/drives/:drive/items/:item, and …/content (bearer token; a 302 to /graph-dl/:item);
 *            a file is found by its driveId and id, each as sent, percent-decoded
 *
 * The download hosts refuse a request that carries an Authorization header, as pre-authenticated URLs
 * may, so a token passed along would show. Faults on demand: a token that stops being accepted, expired
 * links, Box's 202, a redirect to a foreign host.
 */
export interface ProviderFile {
  id: string;
  name: string;
  data: Buffer;
  /** Graph: the drive the item `id` is in (both may contain '!', as personal OneDrive ids do). */
  driveId?: string;
}

export interface ProvidersStandIn {
  url: string;
  files: Map<string, ProviderFile>;
  /** The bearer token the APIs accept. */
  token: string;
  /** Dropbox links (direct and temporary) issued before this moment answer 410. */
  linksValidFrom: number;
  /** Box answers the next N content requests with 202 and Retry-After: 1. */
  boxNotReady: number;
  /** After this many byte downloads, Dropbox links issued so far expire (410). */
  expireLinksAfter: number | null;
  /** After this many byte downloads, the APIs stop accepting the token (until `token` is set again). */
  expireTokenAfter: number | null;
  /** Box and Graph redirect their content to this URL instead of their download host. */
  redirectTo: string | null;
  /** Byte requests per download route and file: `box-dl box-1 bytes=0-…`. */
  downloads: string[];
  /** Requests that reached a download host with an Authorization header (a leaked token). */
  leakedTokens: number;
  close(): Promise<void>;
}

export async function startProvidersStandIn(): Promise<ProvidersStandIn> {
  const state = {
    files: new Map<string, ProviderFile>(),
    token: 'provider-token',
    linksValidFrom: 0,
    boxNotReady: 0,
    redirectTo: null as string | null,
    expireLinksAfter: null as number | null,
    expireTokenAfter: null as number | null,
    downloads: [] as string[],
    leakedTokens: 0,
  };
  let base = '';

  const json = (res: ServerResponse, status: number, body: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const authorised = (req: IncomingMessage) => req.headers.authorization === `Bearer ${state.token}`;

  function bytes(req: IncomingMessage, res: ServerResponse, route: string, file: ProviderFile): void {
    if (req.headers.authorization) {
      state.leakedTokens++;
      return json(res, 400, { error: 'pre-authenticated URL: no Authorization header expected' });
    }
    state.downloads.push(`${route} ${file.id} ${req.headers.range ?? ''}`);
    if (state.expireLinksAfter !== null && state.downloads.length >= state.expireLinksAfter) {
      state.linksValidFrom = Date.now() + 1;
      state.expireLinksAfter = null;
    }
    if (state.expireTokenAfter !== null && state.downloads.length >= state.expireTokenAfter) {
      state.token = `${state.token}-expired`;
      state.expireTokenAfter = null;
    }
    const match = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    const start = match ? Number(match[1]) : 0;
    const end = match ? Math.min(Number(match[2]), file.data.length - 1) : file.data.length - 1;
    const body = file.data.subarray(start, end + 1);
    res.writeHead(match ? 206 : 200, {
      'content-type': 'application/octet-stream',
      'content-length': String(body.length),
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      ...(match ? { 'content-range': `bytes ${start}-${end}/${file.data.length}` } : {}),
    });
    res.end(body);
  }

  async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname;
    let m: RegExpExecArray | null;

    // Dropbox
    if (
      req.method === 'POST' &&
      (path === '/2/files/get_metadata' || path === '/2/files/get_temporary_link')
    ) {
      if (!authorised(req)) return json(res, 401, { error_summary: 'expired_access_token/' });
      const { path: ref } = (await body(req)) as { path?: string };
      const file = [...state.files.values()].find((f) => ref === f.id || ref === `/${f.name}`);
      if (!file) return json(res, 409, { error_summary: 'path/not_found/', error: { '.tag': 'path' } });
      const metadata = { '.tag': 'file', id: file.id, name: file.name, size: file.data.length };
      if (path === '/2/files/get_metadata') return json(res, 200, metadata);
      return json(res, 200, {
        metadata,
        link: `${base}/dropbox/temp/${encodeURIComponent(file.id)}?t=${Date.now()}`,
      });
    }
    if ((m = /^\/dropbox\/(direct|temp)\/([^/]+)/.exec(path))) {
      const file = state.files.get(decodeURIComponent(m[2]!));
      const issued = Number(url.searchParams.get('t') ?? 0);
      if (!file) return json(res, 404, {});
      if (issued < state.linksValidFrom) return json(res, 410, { error: 'link expired' });
      return bytes(req, res, `dropbox-${m[1]}`, file);
    }

    // Box's OAuth 2.0 token endpoint: the code 'good-code' for the app 'box-client' / 'box-secret'.
    if (req.method === 'POST' && path === '/oauth2/token') {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      const form = new URLSearchParams(text);
      const ok =
        form.get('grant_type') === 'authorization_code' &&
        form.get('code') === 'good-code' &&
        form.get('client_id') === 'box-client' &&
        form.get('client_secret') === 'box-secret';
      if (!ok)
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: "Auth code doesn't exist or is invalid",
        });
      return json(res, 200, {
        access_token: state.token,
        expires_in: 3600,
        token_type: 'bearer',
        refresh_token: 'r',
      });
    }

    // Box
    if ((m = /^\/2\.0\/files\/(\d+)(\/content)?$/.exec(path))) {
      if (!authorised(req)) return json(res, 401, { type: 'error', status: 401, code: 'unauthorized' });
      const file = state.files.get(`box-${m[1]}`);
      if (!file) return json(res, 404, { type: 'error', status: 404, code: 'not_found' });
      if (!m[2]) return json(res, 200, { type: 'file', id: m[1], name: file.name, size: file.data.length });
      if (state.boxNotReady > 0) {
        state.boxNotReady--;
        return void res.writeHead(202, { 'retry-after': '1' }).end();
      }
      const location = state.redirectTo ?? `${base}/box-dl/${encodeURIComponent(file.id)}`;
      return void res.writeHead(302, { location }).end();
    }
    if ((m = /^\/box-dl\/([^/]+)$/.exec(path))) {
      const file = state.files.get(decodeURIComponent(m[1]!));
      return file ? bytes(req, res, 'box-dl', file) : json(res, 404, {});
    }

    // Microsoft Graph
    if ((m = /^\/v1\.0\/drives\/([^/]+)\/items\/([^/]+?)(\/content)?$/.exec(path))) {
      if (!authorised(req))
        return json(res, 401, { error: { code: 'InvalidAuthenticationToken', message: 'expired' } });
      const [drive, item] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)];
      const [key, file] = [...state.files].find(([, f]) => f.driveId === drive && f.id === item) ?? [];
      if (!key || !file) return json(res, 404, { error: { code: 'itemNotFound', message: 'not found' } });
      if (!m[3]) {
        return json(res, 200, {
          id: m[2],
          name: file.name,
          size: file.data.length,
          file: { mimeType: 'video/mp4' },
        });
      }
      const location = state.redirectTo ?? `${base}/graph-dl/${encodeURIComponent(key)}?tempauth=x`;
      return void res.writeHead(302, { location }).end();
    }
    if ((m = /^\/graph-dl\/([^/]+)$/.exec(path))) {
      const file = state.files.get(decodeURIComponent(m[1]!));
      return file ? bytes(req, res, 'graph-dl', file) : json(res, 404, {});
    }
    json(res, 404, { error: 'no such route' });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url: base,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** The server settings that aim the Dropbox, Box and Graph sources at the stand-in. */
export function providersEnv(standIn: { url: string }): Record<string, string> {
  return {
    DROPBOX_API_URL: standIn.url,
    DROPBOX_CONTENT_URL: standIn.url,
    BOX_API_URL: standIn.url,
    GRAPH_API_URL: `${standIn.url}/v1.0`,
  };
}

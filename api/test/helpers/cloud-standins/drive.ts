import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Google Drive v3 at the network boundary, as the Drive source calls it: GET /drive/v3/files/:id for the
 * metadata and ?alt=media with a Range header for the bytes (206 with Content-Range). Faults on demand:
 * 5xx answers, a connection cut part-way through a body, a token that expires, slow bodies.
 */
export interface DriveFile {
  name: string;
  mimeType: string;
  data: Buffer;
}

export interface DriveStandIn {
  url: string;
  files: Map<string, DriveFile>;
  /** Every media request: file id and the Range header. */
  mediaRequests: { id: string; range: string | undefined }[];
  /** The bearer token accepted (null: any token, or none). */
  token: string | null;
  /** The next N media requests answer 503 with Retry-After: 0. */
  failNext: number;
  /** The next media request sends this many bytes, then the connection is destroyed. */
  cutNextAfter: number | null;
  /** After this many successful media requests, the token stops being accepted (until `token` is set again). */
  expireTokenAfter: number | null;
  /** Milliseconds to wait before each media body (to watch an import run). */
  delayMs: number;
  /**
   * The media request for the range starting at `start` sends half its body, waits `ms`, then the rest: a
   * part slower than the one after it, as a provider's spread of servers answers.
   */
  pauseMidBody: { start: number; ms: number } | null;
  /**
   * The next media request longer than this sends its 206 headers and this many bytes, then keeps the
   * socket open and silent (a provider that stalls); it counts in `stalled` once it has gone silent.
   */
  stallNextAfter: number | null;
  /** Media requests left silent by stallNextAfter. */
  stalled: number;
  /** Every media request longer than stallNextAfter stalls, not only the next one. */
  stallEvery: boolean;
  close(): Promise<void>;
}

export async function startDriveStandIn(): Promise<DriveStandIn> {
  const state = {
    files: new Map<string, DriveFile>(),
    mediaRequests: [] as { id: string; range: string | undefined }[],
    token: null as string | null,
    failNext: 0,
    cutNextAfter: null as number | null,
    expireTokenAfter: null as number | null,
    delayMs: 0,
    pauseMidBody: null as { start: number; ms: number } | null,
    stallNextAfter: null as number | null,
    stalled: 0,
    stallEvery: false,
  };
  let served = 0;

  function json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const match = /^\/drive\/v3\/files\/([^/]+)$/.exec(url.pathname);
    if (req.method !== 'GET' || !match) return json(res, 404, { error: { code: 404, message: 'Not Found' } });
    const id = decodeURIComponent(match[1]!);
    const media = url.searchParams.get('alt') === 'media';
    if (media) state.mediaRequests.push({ id, range: req.headers.range });
    if (state.token !== null && req.headers.authorization !== `Bearer ${state.token}`) {
      return json(res, 401, { error: { code: 401, message: 'Invalid Credentials' } });
    }
    const file = state.files.get(id);
    if (!file) return json(res, 404, { error: { code: 404, message: `File not found: ${id}.` } });
    if (!media) {
      return json(res, 200, { id, name: file.name, mimeType: file.mimeType, size: String(file.data.length) });
    }
    if (state.failNext > 0) {
      state.failNext--;
      res.writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' });
      return void res.end('{"error":{"code":503,"message":"Backend Error"}}');
    }
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range ? Math.min(Number(range[2]), file.data.length - 1) : file.data.length - 1;
    if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs));
    served++;
    if (state.expireTokenAfter !== null && served > state.expireTokenAfter) {
      state.token = 'expired-for-everyone';
      state.expireTokenAfter = null;
      return json(res, 401, { error: { code: 401, message: 'Invalid Credentials' } });
    }
    const body = file.data.subarray(start, end + 1);
    res.writeHead(range ? 206 : 200, {
      'content-type': file.mimeType,
      'content-length': String(body.length),
      ...(range ? { 'content-range': `bytes ${start}-${end}/${file.data.length}` } : {}),
    });
    if (state.stallNextAfter !== null && body.length > state.stallNextAfter) {
      const sent = state.stallNextAfter;
      if (!state.stallEvery) state.stallNextAfter = null;
      res.write(body.subarray(0, sent), () => {
        state.stalled++;
      });
      return;
    }
    if (state.pauseMidBody?.start === start) {
      const { ms } = state.pauseMidBody;
      const half = Math.floor(body.length / 2);
      res.write(body.subarray(0, half));
      await new Promise((r) => setTimeout(r, ms));
      res.end(body.subarray(half));
      return;
    }
    if (state.cutNextAfter !== null) {
      const cut = state.cutNextAfter;
      state.cutNextAfter = null;
      res.write(body.subarray(0, cut), () => res.destroy());
      return;
    }
    res.end(body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const standIn = Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return standIn as DriveStandIn;
}

// Google Drive v3 at the network boundary, as the server's Drive source calls it (files.get for the facts,
// files.get?alt=media with a Range header for the bytes, 206 with Content-Range), serving files made of
// seeded bytes (seeded-bytes.mjs), so a cloud file of any size costs no memory.
//
// The fault: stall(). Until unstall(), every media request gets its 206 headers and the first `stallAfter`
// bytes, then nothing more on an open socket, as a provider's overloaded edge does; the socket stays open
// until the server gives up on it (or close()).
import { createServer } from 'node:http';
import { seededBytes } from './seeded-bytes.mjs';

const CHUNK = 256 * 1024;

export async function startProviderStandIn() {
  const files = new Map();
  const held = new Set();
  const counts = { media: 0, stalled: 0, abandonedByServer: 0 };
  let stalling = false;
  let stallAfter = 1024 * 1024;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const match = /^\/drive\/v3\/files\/([^/]+)$/.exec(url.pathname);
    const json = (status, body) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'GET' || !match) return json(404, { error: { code: 404, message: 'Not Found' } });
    const id = decodeURIComponent(match[1]);
    const file = files.get(id);
    if (!file) return json(404, { error: { code: 404, message: `File not found: ${id}.` } });
    if (url.searchParams.get('alt') !== 'media') {
      return json(200, { id, name: file.name, mimeType: file.mimeType, size: String(file.size) });
    }
    counts.media++;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Math.min(Number(range[2]), file.size - 1) : file.size - 1;
    res.writeHead(range ? 206 : 200, {
      'content-type': file.mimeType,
      'content-length': String(end - start + 1),
      ...(range ? { 'content-range': `bytes ${start}-${end}/${file.size}` } : {}),
    });
    const limit = stalling ? Math.min(end + 1, start + stallAfter) : end + 1;
    if (stalling) {
      counts.stalled++;
      held.add(res);
      res.on('close', () => {
        if (held.delete(res)) counts.abandonedByServer++;
      });
    }
    let offset = start;
    const pump = () => {
      while (offset < limit) {
        const next = Math.min(limit, offset + CHUNK);
        const more = res.write(seededBytes(file.seed, offset, next));
        offset = next;
        if (!more) return void res.once('drain', pump);
      }
      if (limit > end) res.end();
      // else: headers and some bytes sent, and then silence on an open socket.
    };
    pump();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    files,
    counts,
    get heldOpen() {
      return held.size;
    },
    add(id, file) {
      files.set(id, { mimeType: 'video/mp4', ...file });
    },
    stall(after = 1024 * 1024) {
      stalling = true;
      stallAfter = after;
    },
    unstall() {
      stalling = false;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

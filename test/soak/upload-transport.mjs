// The shared upload client's transport over node:http, as a browser's XHR does it: the cookie session and
// Origin header, the body written 64 KiB at a time with progress reported as it goes out (the client's
// no-progress timeout listens to it), and an abort that ends the socket.
import { Agent, request } from 'node:http';

const CHUNK = 64 * 1024;

export function nodeTransport(baseUrl, { cookie, origin, onAttempt }) {
  const base = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const transport = (req) =>
    new Promise((resolve, reject) => {
      const headers = { accept: 'application/json', cookie: cookie(), origin };
      let body;
      if (req.body) {
        headers['content-type'] = 'application/octet-stream';
        body = Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength);
      } else if (req.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = Buffer.from(JSON.stringify(req.json));
      }
      if (body) headers['content-length'] = String(body.length);
      const outgoing = request({
        host: base.hostname,
        port: Number(base.port),
        method: req.method,
        path: req.path,
        headers,
        agent,
      });
      let done = false;
      const fail = (error) => {
        if (done) return;
        done = true;
        req.signal?.removeEventListener('abort', onAbort);
        onAttempt?.(false);
        reject(error);
      };
      const onAbort = () => {
        outgoing.destroy();
        fail(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      };
      if (req.signal?.aborted) return onAbort();
      req.signal?.addEventListener('abort', onAbort);
      outgoing.on('error', fail);
      outgoing.on('response', (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          if (done) return;
          done = true;
          req.signal?.removeEventListener('abort', onAbort);
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          onAttempt?.(res.statusCode < 400, res.statusCode);
          resolve({ status: res.statusCode, body: parsed });
        });
      });
      if (!body) return void outgoing.end();
      req.onProgress?.(0);
      let offset = 0;
      const pump = () => {
        while (offset < body.length && !outgoing.destroyed) {
          const end = Math.min(body.length, offset + CHUNK);
          const slice = body.subarray(offset, end);
          offset = end;
          const sent = offset;
          const more = outgoing.write(slice, () => req.onProgress?.(sent));
          if (!more) return void outgoing.once('drain', pump);
        }
        if (!outgoing.destroyed) outgoing.end();
      };
      pump();
    });
  transport.close = () => agent.destroy();
  return transport;
}

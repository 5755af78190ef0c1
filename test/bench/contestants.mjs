// The upload contestants bench:upload (over loopback) and bench:wan (over an emulated link) both run: the
// tus peer, and ours through the shared upload client (over the desktop engine's got, or over fetch as the browser does).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../../build/scripts/lib.mjs';
import { startBareServer } from './loopback-limit.mjs';

const MIB = 1024 * 1024;

/** The peer's server: @tus/server with its file store in `dir`, a process of its own. */
export function startTusServer(dir) {
  return startBareServer(
    `
    import { createServer } from 'node:http';
    import { Server } from '@tus/server';
    import { FileStore } from '@tus/file-store';
    const tus = new Server({ path: '/files', datastore: new FileStore({ directory: process.env.DIR }) });
    createServer((req, res) => {
      if (req.url === '/ready') { res.end('ok'); return; }
      tus.handle(req, res);
    }).listen(Number(process.env.PORT), '127.0.0.1');`,
    { DIR: dir },
    '/ready',
  );
}

/** The peer's client: tus-js-client sending `file` to `url` in 6 MiB chunks, one PATCH after another. */
export async function tusUpload(url, file, size) {
  const { Upload } = await import(
    pathToFileURL(join(root, 'node_modules', 'tus-js-client', 'lib.esm', 'node', 'index.js')).href
  );
  await new Promise((resolve, reject) => {
    const upload = new Upload(createReadStream(file), {
      endpoint: `${url}/files`,
      chunkSize: 6 * MIB,
      uploadSize: size,
      retryDelays: [0, 1000],
      metadata: { filename: 'source.bin' },
      onError: reject,
      onSuccess: resolve,
    });
    upload.start();
  });
  return 'sequential PATCH requests';
}

/**
 * The browser's transport (web/src/features/uploads/transport.ts) in Node: fetch, a bearer token.
 * `observe(request, status, ms)`, when given, hears of every answer with the time it took.
 */
export function fetchTransport(baseUrl, token, observe) {
  return async (request) => {
    const headers = { accept: 'application/json', authorization: `Bearer ${token}` };
    let body;
    if (request.body) {
      headers['content-type'] = 'application/octet-stream';
      body = request.body;
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    const began = performance.now();
    const res = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body,
      signal: request.signal,
    });
    const text = await res.text();
    observe?.(request, res.status, performance.now() - began);
    let parsed;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed };
  };
}

/**
 * The shared upload client (shared/dist) over `transport`, hashing with node:crypto as the desktop engine
 * does; `hash: false` sends no checksum (the server still computes and stores one).
 */
export async function sharedUploadClient(transport, { hash = true, ...options } = {}) {
  const { UploadClient } = await import(pathToFileURL(join(root, 'shared', 'dist', 'index.js')).href);
  return new UploadClient({
    transport,
    createHasher: hash
      ? () => {
          const h = createHash('sha256');
          return { update: (d) => void h.update(d), digest: () => h.digest('hex') };
        }
      : null,
    ...options,
  });
}

/** The desktop engine's transport (got, keep-alive) to `url` with a bearer token (desktop/dist). */
export async function engineTransport(url, token) {
  const { gotTransport } = await import(
    pathToFileURL(join(root, 'desktop', 'dist', 'engine', 'index.js')).href
  );
  return gotTransport({ baseUrl: url, token: () => token });
}

/**
 * What the portal's File source does with a part's bytes once the client is done with them (web
 * transport.ts fileSource): gives their memory back (shared/dist giveBackMemory).
 */
export async function portalRelease() {
  const { giveBackMemory } = await import(pathToFileURL(join(root, 'shared', 'dist', 'index.js')).href);
  return giveBackMemory;
}

/**
 * A part reader over an open file handle that gives each part a new buffer, as a browser's File.slice does
 * (the portal's reads): what the shared client's rows stand for, unlike engineFileSource's pooled memory.
 */
export function readNewBuffer(handle) {
  return async (start, end) => {
    const buffer = Buffer.allocUnsafe(end - start);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    return buffer.subarray(0, bytesRead);
  };
}

/** The desktop engine's source of a file on disk (desktop/dist): its part memory is reused, not collected. */
export async function engineFileSource(file) {
  const { identify, NodeFileSource } = await import(
    pathToFileURL(join(root, 'desktop', 'dist', 'engine', 'index.js')).href
  );
  return new NodeFileSource(await identify(file));
}

/**
 * Sends `file` (`size` bytes) as one new submission through the shared client, the file read a part at a
 * time (by `source` when given, such as engineFileSource's; else a new buffer per part, as a browser's
 * File.slice gives, given back once sent as the portal's source does); fails unless the server's sha-256 is `expectedSha`. Resolves to the seconds of the
 * parts and of completion (the server's verify).
 */
export async function sendWithSharedClient(client, file, size, expectedSha, source) {
  const handle = await open(file, 'r');
  try {
    const submission = await client.createSubmission({ form_type: 'creative', project_name: 'Bench' });
    const upload = client.file(
      submission.id,
      source ?? {
        name: 'source.bin',
        size,
        type: 'application/octet-stream',
        lastModified: Date.now(),
        read: readNewBuffer(handle),
        release: await portalRelease(),
      },
    );
    let partsDoneAt = 0n;
    upload.onChange((u) => {
      if (partsDoneAt === 0n && u.progress().sentBytes === size) partsDoneAt = process.hrtime.bigint();
    });
    const began = process.hrtime.bigint();
    upload.start();
    const outcome = await upload.settled();
    const ended = process.hrtime.bigint();
    if (outcome.state !== 'complete') throw new Error(`upload ${outcome.state}: ${outcome.error?.message}`);
    if (outcome.file.sha256 !== expectedSha) throw new Error('sha-256 differs');
    return {
      partsSeconds: Number((partsDoneAt || ended) - began) / 1e9,
      completeSeconds: Number(ended - (partsDoneAt || ended)) / 1e9,
    };
  } finally {
    await handle.close();
    await source?.close?.();
  }
}

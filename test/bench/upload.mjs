// `npm run bench:upload`: one 1 GiB file sent four ways over loopback, side by side:
//
//   (a) the limit  a bare node:http server streaming one PUT to disk, fed by a Node client streaming the file
//   (b) the peer   @tus/server with its file store, fed by tus-js-client at 6 MiB chunks
//   (c) ours       the real server (api/dist/server.js, SQLite, local storage) fed by the shared upload
//                  client from Node over the desktop engine's got transport and file source, the product's
//                  Node client (4 parts of 6 MiB in flight, part memory reused, sha-256 computed while
//                  reading; the server hashes the parts as they stream in and verifies the sum on
//                  completion, included in the time)
//   (d) context    (a)'s bare server taking 4 parts of 6 MiB in flight and hashing them as they arrive, fed
//                  by a bare node:http client that hashes what it sends: the limit once both ends must
//                  compute sha-256, as a verified upload does
//
// Every server is a child process of its own, so its memory is its own: the growth printed is the peak
// resident set during the upload minus the resident set before it (read from /proc/<pid>/status). The
// CPU column is the seconds of processor time (user + system, all threads) the server and the client
// (this process) used during the upload: on a small machine both ends share the same cores.
// It prints MB/s (10^6 bytes per second), each ratio to (a), ours against the peer and against (d), and
// memory growth. Goal: ours >= 0.9 of (d), and under 100 MB of server memory growth. (d) is the
// yardstick, not (a): it does the work ours must (the same parts in flight, sha-256 at both ends) with
// nothing else, so the gap to it is what our server and client add; (a) neither hashes nor sends in
// parallel. Round trips and a shared link, which loopback hides, are `npm run bench:wan`'s.
// A benchmark: figures only, never pass/fail; not part of `npm test`.
//
// Environment: BENCH_UPLOAD_MIB (file size, default 1024), BENCH_SKIP_BUILD=1 to use the dist folders as
// they are, BENCH_CLIENT_HASH=0 to leave out the client's own sha-256 (to see what it costs),
// BENCH_SERVER_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof') to profile the servers of (c) and
// (d), whose output is then shown (--trace-gc; test/bench/profile-summary.mjs sums a CPU profile's self
// time by function and by package, for the upload's window that the bench prints),
// BENCH_UPLOAD_ROWS (e.g. 'cd') to run only some of the contestants while iterating.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTypeScript, runBin } from '../../build/scripts/lib.mjs';
import {
  engineFileSource,
  engineTransport,
  sendWithSharedClient,
  sharedUploadClient,
  startTusServer,
  tusUpload,
} from './contestants.mjs';
import { measureLoopbackLimit, startBareServer, timeUpload, writeSourceFile } from './loopback-limit.mjs';
import { clientToken, startBenchServer } from './server.mjs';

const MIB = 1024 * 1024;
const SIZE = Math.max(8, Number(process.env.BENCH_UPLOAD_MIB ?? 1024)) * MIB;
const PART = 6_291_456;
const ROWS = process.env.BENCH_UPLOAD_ROWS ?? 'abcd';
const serverNodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const perGiB = (seconds) => (seconds * 1024 * MIB) / SIZE;

/**
 * Runs one contestant: start its server, prepare (accounts: not timed), upload (timed), stop. Null for
 * a contestant BENCH_UPLOAD_ROWS leaves out (the letter in its name's brackets).
 */
async function measure(name, start, upload, prepare = async () => undefined) {
  if (!ROWS.includes(name[1])) return null;
  const server = await start();
  try {
    const prepared = await prepare(server.url);
    return { name, ...(await timeUpload(SIZE, server, (url) => upload(url, prepared))) };
  } finally {
    await server.stop();
  }
}

const work = mkdtempSync(join(tmpdir(), 'avp-bench-upload-'));
const file = join(work, 'source.bin');
try {
  if (!process.env.BENCH_SKIP_BUILD) {
    compileTypeScript();
    runBin('typescript/bin/tsc', ['-b', 'desktop/tsconfig.json']);
  }
  const expectedSha = writeSourceFile(file, SIZE);

  // (a) The loopback limit: one streamed PUT into a file.
  const bare = ROWS.includes('a')
    ? { name: '(a) bare node:http PUT to disk', ...(await measureLoopbackLimit(file, SIZE, work)) }
    : null;

  // (b) The peer: tus.
  const tusDir = join(work, 'tus');
  const tus = await measure(
    '(b) @tus/server + tus-js-client, 6 MiB chunks',
    () => startTusServer(tusDir),
    (url) => tusUpload(url, file, SIZE),
  );
  rmSync(tusDir, { recursive: true, force: true });

  // (c) Ours: the real server and the shared client.
  const ours = await measure(
    '(c) ours: real server + shared client (Node)',
    () =>
      startBenchServer({
        name: 'upload',
        stdout: serverNodeArgs.length > 0 ? 'inherit' : 'ignore',
        env: { STORAGE_DRIVER: 'local' },
        nodeArgs: serverNodeArgs,
      }),
    async (url, { client }) => {
      const { partsSeconds, completeSeconds } = await sendWithSharedClient(
        client,
        file,
        SIZE,
        expectedSha,
        await engineFileSource(file),
      );
      return `${Math.ceil(SIZE / PART)} parts, 4 in flight: parts ${partsSeconds.toFixed(1)} s, completion (server sha-256) ${completeSeconds.toFixed(1)} s`;
    },
    async (url) => {
      const { token } = await clientToken(url);
      // BENCH_CLIENT_HASH=0: the client sends no checksum (the server still computes and stores one).
      const client = await sharedUploadClient(await engineTransport(url, token), {
        hash: process.env.BENCH_CLIENT_HASH !== '0',
      });
      return { client };
    },
  );

  // (d) Context: the limit once both ends hash every byte (no database, no accounts, no framework).
  const hashedBare = await measure(
    '(d) bare, 4 parts in flight, sha-256 at both ends',
    () =>
      startBareServer(
        `
        import { createServer } from 'node:http';
        import { createHash } from 'node:crypto';
        import { createWriteStream, mkdirSync, openSync, closeSync, ftruncateSync } from 'node:fs';
        import { pipeline } from 'node:stream/promises';
        mkdirSync(process.env.DIR, { recursive: true });
        const path = process.env.DIR + '/upload.bin';
        const fd = openSync(path, 'w'); ftruncateSync(fd, Number(process.env.SIZE)); closeSync(fd);
        createServer(async (req, res) => {
          if (req.method !== 'PUT') { res.end('ok'); return; }
          const start = (Number(req.url.split('/').pop()) - 1) * 6291456;
          const hash = createHash('sha256');
          req.on('data', (chunk) => hash.update(chunk));
          await pipeline(req, createWriteStream(path, { flags: 'r+', start }));
          res.end(hash.digest('hex'));
        }).listen(Number(process.env.PORT), '127.0.0.1');
        // An orderly exit on SIGTERM, so that --cpu-prof writes its profile.
        process.on('SIGTERM', () => process.exit(0));`,
        { DIR: join(work, 'hashed'), SIZE: String(SIZE) },
        '/',
        serverNodeArgs,
      ),
    async (url) => {
      const parts = Math.ceil(SIZE / PART);
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      const handle = await open(file, 'r');
      const hash = createHash('sha256');
      let next = 1;
      let reading = Promise.resolve();
      // Parts are read and hashed in order, then sent four at a time, as the shared client does.
      const sender = async () => {
        while (next <= parts) {
          const part = next++;
          const start = (part - 1) * PART;
          const bytes = Buffer.allocUnsafe(Math.min(PART, SIZE - start));
          reading = reading.then(async () => {
            await handle.read(bytes, 0, bytes.length, start);
            hash.update(bytes);
          });
          await reading;
          await new Promise((resolve, reject) => {
            const req = request(`${url}/parts/${part}`, {
              method: 'PUT',
              agent,
              headers: { 'content-type': 'application/octet-stream', 'content-length': bytes.length },
            });
            req.on('response', (res) => {
              res.resume();
              res.on('end', resolve);
            });
            req.on('error', reject);
            req.end(bytes);
          });
        }
      };
      try {
        await Promise.all([sender(), sender(), sender(), sender()]);
      } finally {
        await handle.close();
        agent.destroy();
      }
      if (hash.digest('hex') !== expectedSha) throw new Error('sha-256 differs');
      return `${parts} parts, 4 in flight`;
    },
  );

  const rows = [bare, tus, ours, hashedBare].filter(Boolean).map((r) => ({
    contestant: r.name,
    'MB/s': Number(r.mbps.toFixed(1)),
    seconds: Number(r.seconds.toFixed(2)),
    'of (a)': bare ? Number((r.mbps / bare.mbps).toFixed(2)) : '-',
    'server memory growth MB': Number((r.growth / 1e6).toFixed(1)),
    'CPU s (server + client)': `${r.cpu.server.toFixed(2)} + ${r.cpu.client.toFixed(2)}`,
    how: r.note,
  }));
  console.log(`\n${SIZE / MIB} MiB over loopback, each server a child process of its own\n`);
  console.table(rows);
  if (serverNodeArgs.length > 0) {
    for (const r of [ours, hashedBare].filter(Boolean)) {
      console.log(
        `${r.name.slice(0, 3)} server ${r.pid}, its upload: --from ${r.window.from} --to ${r.window.to}`,
      );
    }
  }
  if (ours && tus) console.log(`ours / peer: ${(ours.mbps / tus.mbps).toFixed(2)}`);
  if (ours && hashedBare) {
    console.log(
      `ours / (d), the limit with sha-256 at both ends: ${(ours.mbps / hashedBare.mbps).toFixed(2)}`,
    );
    console.log(
      `server CPU s per GiB: ours ${perGiB(ours.cpu.server).toFixed(2)}, (d) ${perGiB(hashedBare.cpu.server).toFixed(2)}`,
    );
  }
  if (ours && hashedBare) {
    console.log(
      `goal: ours >= 0.9 of (d) and < 100 MB memory growth; ours reached ${(ours.mbps / hashedBare.mbps).toFixed(2)} and ${(ours.growth / 1e6).toFixed(1)} MB`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

// `npm run bench:desktop` (issue 9 'Measured'): the desktop engine (desktop/dist/engine, got, a file read a
// part at a time) uploading through the real server (api/dist/server.js as a child process, SQLite, local
// storage), beside the loopback limit measured in the same run; then the engine's peak resident memory
// while uploading a sparse file. Figures only, never pass/fail; not part of `npm test`.
//
//   (a) the limit   a bare node:http server discarding four concurrent PUT streams of the same volume
//   (b) the engine  UploadEngine: 4 parts of 6 MiB in flight, sha-256 while reading, server-side verify
//   (c) memory      peak RSS of this process (which holds only the engine) uploading BENCH_SPARSE_GIB
//                   (default 10) of a sparse file; the server writes it in full, so it needs that much disk
//
// Goals (issue 9): (b) ≥ 0.9 × (a); (c) under 150 MB. Environment: BENCH_DESKTOP_MIB (default 1024),
// BENCH_SPARSE_GIB (default 10; 0 skips it).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createServer as createHttpServer, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url);
const MIB = 1024 * 1024;
const SIZE = Math.max(8, Number(process.env.BENCH_DESKTOP_MIB ?? 1024)) * MIB;
const SPARSE = Number(process.env.BENCH_SPARSE_GIB ?? 10) * 1024 * MIB;
const PASSWORD = 'Difference Engine 1843';
const mbps = (bytes, ms) => bytes / 1e6 / (ms / 1000);

const { UploadEngine, MemoryStore, AuthClient } = await import(
  new URL('desktop/dist/engine/index.js', root).href
);

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startApi(dataDir) {
  const port = await freePort();
  const child = spawn(process.execPath, [new URL('api/dist/server.js', root).pathname], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'bench-desktop-session-secret-long-enough-0123456789',
      WEB_DIST_DIR: join(dataDir, 'none'),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).status < 600) return { url, child };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('the API did not start');
}

/** (a) Four streams of 6 MiB PUTs to a server that discards them, the same total volume. */
async function loopbackLimit(total) {
  const server = createHttpServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => res.end('{}'));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  const agent = new (await import('node:http')).Agent({ keepAlive: true });
  const part = randomBytes(6 * MIB);
  let next = 0;
  const parts = Math.ceil(total / part.length);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < parts) {
        next++;
        await new Promise((resolve, reject) => {
          const req = request(
            {
              port,
              host: '127.0.0.1',
              method: 'PUT',
              path: '/',
              agent,
              headers: { 'content-length': part.length },
            },
            (res) => {
              res.resume();
              res.on('end', resolve);
            },
          );
          req.on('error', reject);
          req.end(part);
        });
      }
    }),
  );
  const ms = performance.now() - started;
  agent.destroy();
  server.close();
  return mbps(parts * part.length, ms);
}

async function signIn(url) {
  const registered = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'bench@example.com',
      firstname: 'B',
      lastname: 'B',
      company: 'B',
      phone: '(555) 123-4567',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
  return (await new AuthClient(url).login('bench@example.com', PASSWORD)).token;
}

async function upload(url, token, file) {
  const engine = new UploadEngine({ baseUrl: url, store: new MemoryStore(), token: () => token });
  await engine.start();
  const started = performance.now();
  await engine.add({ form_type: 'creative', project_name: 'bench', description: '' }, [file]);
  await engine.whenIdle();
  const ms = performance.now() - started;
  const entry = engine.snapshot().history[0];
  await engine.stop();
  if (!entry) throw new Error('the upload did not finish');
  return ms;
}

const work = mkdtempSync(join(tmpdir(), 'avp-bench-desktop-'));
const { url, child } = await startApi(join(work, 'data'));
try {
  const token = await signIn(url);
  const file = join(work, 'big.bin');
  const fd = openSync(file, 'w');
  const block = randomBytes(16 * MIB);
  for (let written = 0; written < SIZE; written += block.length)
    writeSync(fd, block, 0, Math.min(block.length, SIZE - written));
  closeSync(fd);

  const limit = await loopbackLimit(SIZE);
  const ms = await upload(url, token, file);
  const ours = mbps(SIZE, ms);
  console.log(`file                 ${(SIZE / MIB).toFixed(0)} MiB`);
  console.log(`(a) loopback limit   ${limit.toFixed(1)} MB/s`);
  console.log(
    `(b) desktop engine   ${ours.toFixed(1)} MB/s  (${(ms / 1000).toFixed(1)} s, sha-256 and server verify included)`,
  );
  console.log(`    ratio (b)/(a)    ${(ours / limit).toFixed(2)}   (goal ≥ 0.90)`);
  rmSync(file);

  if (SPARSE > 0) {
    const sparse = join(work, 'sparse.bin');
    const sfd = openSync(sparse, 'w');
    ftruncateSync(sfd, SPARSE);
    closeSync(sfd);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const sms = await upload(url, token, sparse);
    clearInterval(sampler);
    console.log(
      `(c) sparse file      ${(SPARSE / 1024 / MIB).toFixed(1)} GiB in ${(sms / 1000).toFixed(1)} s (${mbps(SPARSE, sms).toFixed(1)} MB/s)`,
    );
    console.log(
      `    peak RSS         ${(peak / 1e6).toFixed(1)} MB (before: ${(before / 1e6).toFixed(1)} MB; goal < 150 MB)`,
    );
  }
} finally {
  child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}

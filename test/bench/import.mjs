// `npm run bench:import`: a large file imported server-side from a Google Drive stand-in, beside the
// loopback limit measured in the same run:
//
//   (a) the limit   a bare node:http server streaming one PUT of the file to disk (as bench:upload's (a))
//   (d) context   the verified limit for an import: a bare node:http process (no framework, no database)
//                 fetching the file from the same Drive stand-in with Range requests of the file's part
//                 size, 2 in flight as ours, hashing every byte with sha-256 in order and writing each
//                 part at its offset on disk
//   (e) ours        the real server (api/dist/server.js, SQLite, local storage) copying the file from a
//                   Drive v3 stand-in (files/{id}?alt=media with Range, a child process of its own serving
//                   the same file from disk) part by part, hashing as it goes, timed from the import's
//                   start to the file reported complete with its sha-256 verified
//
// The server's memory growth is its peak resident set during the import minus the one before (after an
// untimed warm-up upload of 1 MiB: a process's first completed file loads the media reader once). It prints
// MB/s (10^6 bytes per second), the ratio to (a), and the growth, then the processor seconds per GiB of
// (d) and ours, all threads and each thread by name (V8's collector threads apart from the main thread). Goal (issue #34): >= 0.9 of (d), the
// verified import limit, and growth under 100 MB. A benchmark: figures only, never pass/fail; not part of `npm test`.
//
// Environment: BENCH_IMPORT_MIB (file size, default 2048), BENCH_SKIP_BUILD=1 to use dist as it is,
// BENCH_SERVER_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof') to profile the server (the import's
// window is then printed, for test/bench/profile-summary.mjs --from/--to).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTypeScript } from '../../build/scripts/lib.mjs';
import { measureLoopbackLimit, startBareServer, timeUpload, writeSourceFile } from './loopback-limit.mjs';
import { rssBytes, watchMemory } from './process-stats.mjs';
import { DRIVE_STAND_IN } from './drive-stand-in.mjs';
import { clientToken, startBenchServer } from './server.mjs';

const MIB = 1024 * 1024;
const PART = 6 * MIB;

/** (d)'s process: on POST /go?from=URL it copies the file as described above and answers its sha-256. */
const BARE_IMPORTER = `
  import { createServer, request, Agent } from 'node:http';
  import { createHash } from 'node:crypto';
  import { openSync, ftruncateSync, closeSync, createWriteStream, mkdirSync } from 'node:fs';
  import { pipeline } from 'node:stream/promises';
  const SIZE = Number(process.env.SIZE), PART = Number(process.env.PART);
  mkdirSync(process.env.DIR, { recursive: true });
  const path = process.env.DIR + '/import.bin';
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  const get = (url, start, end) => new Promise((resolve, reject) => {
    request(url, { agent, headers: { range: 'bytes=' + start + '-' + end } }, (res) =>
      res.statusCode === 206 ? resolve(res) : reject(new Error('status ' + res.statusCode))).on('error', reject).end();
  });
  createServer(async (req, res) => {
    if (req.method !== 'POST') { res.end('ok'); return; }
    const from = new URL(req.url, 'http://x').searchParams.get('from');
    const fd = openSync(path, 'w'); ftruncateSync(fd, SIZE); closeSync(fd);
    const hash = createHash('sha256');
    const parts = Math.ceil(SIZE / PART);
    // The hash takes parts in order: a part ahead of it keeps its chunks until the one before is in.
    let hashed = 1; const held = new Map();
    const feed = (part, chunks) => {
      held.set(part, chunks);
      while (held.has(hashed)) { for (const c of held.get(hashed)) hash.update(c); held.delete(hashed); hashed++; }
    };
    let next = 1;
    const lane = async () => {
      while (next <= parts) {
        const part = next++;
        const start = (part - 1) * PART, end = Math.min(SIZE, part * PART) - 1;
        const body = await get(from, start, end);
        const chunks = [];
        body.on('data', (c) => chunks.push(c));
        await pipeline(body, createWriteStream(path, { flags: 'r+', start }));
        feed(part, chunks);
      }
    };
    await Promise.all([lane(), lane()]);
    res.end(hash.digest('hex'));
  }).listen(Number(process.env.PORT), '127.0.0.1');`;
const SIZE = Math.max(8, Number(process.env.BENCH_IMPORT_MIB ?? 2048)) * MIB;
const FILE_ID = 'bench-file';
const serverNodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const perGiB = (seconds) => (seconds * 1024 * MIB) / SIZE;

/**
 * Processor seconds of each of a process's threads by name (/proc/<pid>/task): the main thread is the
 * process's own name, V8's helpers (garbage collection, compilation) are "V8 DefaultWorke", libuv's pool
 * "libuv-worker". Per-thread figures show what an all-threads total hides: garbage collection off the
 * main thread.
 */
function threadSeconds(pid) {
  const byName = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      byName[name] = (byName[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName;
}

/** Runs `timed` and answers the seconds each thread of `pid` spent meanwhile, per GiB. */
async function perThread(pid, timed) {
  const before = threadSeconds(pid);
  const result = await timed();
  const after = threadSeconds(pid);
  const threads = Object.fromEntries(
    Object.entries(after).map(([name, s]) => [name, perGiB(s - (before[name] ?? 0)).toFixed(2)]),
  );
  return { result, threads };
}

async function api(url, token, method, path, body) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/**
 * A small file sent through the upload protocol before the timed import, not timed: a process's first
 * completed file loads the media reader (mediainfo.js and its WebAssembly, #30) and its first requests
 * compile their code, 100+ MB of resident memory once per process that would otherwise be counted as the
 * import's growth.
 */
async function warmUp(url, token, submissionId) {
  const bytes = Buffer.alloc(1024 * 1024, 7);
  const { file } = await api(url, token, 'POST', `/api/uploads/submissions/${submissionId}/files`, {
    name: 'warm-up.bin',
    size: bytes.length,
    type: 'application/octet-stream',
    lastModified: Date.now(),
  });
  const put = await fetch(`${url}/api/uploads/files/${file.id}/parts/1`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  if (!put.ok) throw new Error(`the warm-up part answered ${put.status}`);
  await api(url, token, 'POST', `/api/uploads/files/${file.id}/complete`, {});
  // The media reading runs after the answer: let it finish before the import's readings begin.
  await new Promise((r) => setTimeout(r, 3_000));
  await api(url, token, 'DELETE', `/api/uploads/files/${file.id}`);
}

const work = mkdtempSync(join(tmpdir(), 'avp-bench-import-'));
const file = join(work, 'source.bin');
let drive;
try {
  if (!process.env.BENCH_SKIP_BUILD) compileTypeScript();
  const expectedSha = writeSourceFile(file, SIZE);

  const bare = { name: '(a) bare node:http PUT to disk', ...(await measureLoopbackLimit(file, SIZE, work)) };

  drive = await startBareServer(DRIVE_STAND_IN, { FILE: file, SIZE: String(SIZE), FILE_ID }, '/ready');
  const importer = await startBareServer(BARE_IMPORTER, {
    DIR: join(work, 'bare-import'),
    SIZE: String(SIZE),
    PART: String(PART),
  });
  let verified;
  let verifiedThreads;
  try {
    verified = {
      name: '(d) bare import: Range parts from the stand-in, sha-256, to disk',
      ...(await timeUpload(SIZE, importer, async (url) => {
        const from = `${drive.url}/drive/v3/files/${FILE_ID}?alt=media`;
        const { result: sha, threads } = await perThread(importer.child.pid, async () => {
          const res = await fetch(`${url}/go?from=${encodeURIComponent(from)}`, { method: 'POST' });
          return res.text();
        });
        verifiedThreads = threads;
        if (sha !== expectedSha) throw new Error(`(d) sha-256 ${sha}, expected ${expectedSha}`);
        return `${Math.ceil(SIZE / PART)} Range parts, 2 in flight, verified sha-256`;
      })),
    };
  } finally {
    await importer.stop();
    rmSync(join(work, 'bare-import'), { recursive: true, force: true });
  }
  const server = await startBenchServer({
    name: 'import',
    env: { GOOGLE_API_URL: drive.url, GOOGLE_CLIENT_ID: 'bench.apps.googleusercontent.com' },
    nodeArgs: serverNodeArgs,
  });
  let ours;
  let ourThreads;
  try {
    const { token } = await clientToken(server.url);
    const { submission } = await api(server.url, token, 'POST', '/api/uploads/submissions', {
      form_type: 'creative',
      project_name: 'Import bench',
    });
    await warmUp(server.url, token, submission.id);
    const rssBefore = rssBytes(server.child.pid);
    ours = {
      name: '(e) ours: server-side import from the Drive stand-in',
      ...(await timeUpload(SIZE, server, async (url) => {
        const before = threadSeconds(server.child.pid);
        const { file: started } = await api(
          url,
          token,
          'POST',
          `/api/uploads/submissions/${submission.id}/imports`,
          {
            provider: 'google-drive',
            fileId: FILE_ID,
            name: 'keynote.mov',
            accessToken: 'bench-token',
          },
        );
        for (;;) {
          const { file: now } = await api(url, token, 'GET', `/api/uploads/files/${started.id}`);
          if (now.status === 'complete') {
            const after = threadSeconds(server.child.pid);
            ourThreads = Object.fromEntries(
              Object.entries(after).map(([n, s]) => [n, perGiB(s - (before[n] ?? 0)).toFixed(2)]),
            );
            if (now.sha256 !== expectedSha) throw new Error(`sha-256 ${now.sha256}, expected ${expectedSha}`);
            return 'Range parts of the file part size, verified sha-256';
          }
          if (now.import && ['failed', 'needs_auth'].includes(now.import.status)) {
            throw new Error(`the import stopped: ${now.import.status} ${now.import.error}`);
          }
          // Often near the end: the server reads the completed file's media facts right after (#30),
          // background work of 100+ MB (the reader's WebAssembly memory) that a late look would count as
          // the import's. Not every 20 ms throughout: each look is a request the server answers, and 50 a
          // second for the whole copy were processor time (ours' column) that neither (a) nor (d) spends.
          const left = SIZE - (now.import?.bytesDone ?? 0);
          await new Promise((r) => setTimeout(r, left > 4 * PART ? 100 : 20));
        }
      })),
    };
    // What the server does right after: its reading of the file's media facts (#30), in the background.
    const peakAfter = watchMemory(server.child.pid);
    await new Promise((r) => setTimeout(r, 5_000));
    ours.growthAfter = peakAfter() - rssBefore;
  } finally {
    await server.stop();
  }

  const rows = [bare, verified, ours].map((r) => ({
    contestant: r.name,
    'MB/s': r.mbps.toFixed(1),
    'of (a)': (r.mbps / bare.mbps).toFixed(2),
    seconds: r.seconds.toFixed(1),
    'server growth MB': (r.growth / 1e6).toFixed(1),
    'server CPU s': r.cpu.server.toFixed(2),
    how: r.note,
  }));
  console.log(`\nbench:import, ${(SIZE / MIB).toFixed(0)} MiB`);
  console.table(rows);
  if (serverNodeArgs.length > 0) {
    console.log(`(e) server ${ours.pid}, its import: --from ${ours.window.from} --to ${ours.window.to}`);
  }
  console.log(`ours / (d), the verified import limit: ${(ours.mbps / verified.mbps).toFixed(2)}`);
  console.log(
    `server CPU s per GiB: ours ${perGiB(ours.cpu.server).toFixed(2)}, (d) ${perGiB(verified.cpu.server).toFixed(2)}`,
  );
  console.log(`per-thread CPU s per GiB: ours ${JSON.stringify(ourThreads)}`);
  console.log(`per-thread CPU s per GiB: (d) ${JSON.stringify(verifiedThreads)}`);
  console.log(
    `ours, server growth up to 5 s after the import, with the media reading that follows it: ${(ours.growthAfter / 1e6).toFixed(1)} MB`,
  );
  console.log(
    `goal (issue #34): ours >= 0.9 of (d) and < 100 MB server growth; ours reached ${(ours.mbps / verified.mbps).toFixed(2)} and ${(ours.growth / 1e6).toFixed(1)} MB`,
  );
} finally {
  await drive?.stop();
  rmSync(work, { recursive: true, force: true });
}

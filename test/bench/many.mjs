// `npm run bench:many`: many small files, the case where a file's round trips cost more than its bytes.
// Two submissions, each a set of files in a folder: 1,000 files of 1 MiB, and 200 files of 20 MiB
// (BENCH_MANY_SCALE scales the counts), sent four ways over loopback in the same run:
//
//   (i)   ours, shared client  the real server (api/dist/server.js, SQLite, local storage) fed by the shared
//                              upload client (shared/dist, the browser protocol and its UploadQueue, as the
//                              portal uses it) from Node over the desktop engine's got transport: the
//                              submission created, every file registered, sent, verified (sha-256 at both
//                              ends) and the submission sent
//   (ii)  ours, av-upload      the CLI (desktop/bin/av-upload.js, a process of its own, the desktop engine)
//                              sending the set's folder to the same kind of server: the whole command
//   (iii) bare per-file PUT    a bare node:http server taking one PUT per file to disk and hashing it as it
//                              arrives, fed by a client hashing each file, 4 files in flight; each answer's
//                              sha-256 is checked against the client's: the least a verified upload of many
//                              files costs on this machine
//   (iv)  tus                  @tus/server with its file store, fed by tus-js-client, 4 files in flight (no
//                              checksum at either end: tus has none by default)
//
// Ours does what (iii) and (iv) do not: after each completion its server reads the file's media facts
// (mediainfo.js, #30) and tries to draw a poster (ffmpeg, #31), in the background on the same cores; with
// these random bytes the reader reads up to its budget, the worst case. The printed note says so.
//
// Columns: files/s, MB/s (10^6 bytes), HTTP requests per file (the server's own count for ours, from its
// /metrics; the client's count for (iii) and (iv)), and the server's processor time per file (user + system,
// all threads, read from /proc). Goal: ours >= 0.8 of (iii)'s files/s, and ahead of (iv). A benchmark:
// figures only, never pass/fail; not part of `npm test`.
//
// Environment: BENCH_MANY_SCALE (multiplies the file counts; 0.1 for 100 + 20 files while iterating),
// BENCH_MANY_ROWS (letters of the contestants to run: s = shared client, a = av-upload, b = bare, t = tus;
// default 'sabt'), BENCH_MANY_SETS ('small', 'large' or both, the default), BENCH_SKIP_BUILD=1 to use the
// dist folders as they are, BENCH_SERVER_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof') for ours'
// servers, whose upload windows are then printed for test/bench/profile-summary.mjs, and
// BENCH_CLI_NODE_ARGS the same for av-upload's process.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileTypeScript, root, runBin } from '../../build/scripts/lib.mjs';
import { engineTransport, portalRelease, sharedUploadClient, startTusServer } from './contestants.mjs';
import { startBareServer, timeUpload } from './loopback-limit.mjs';
import { clientToken, startBenchServer } from './server.mjs';

const MIB = 1024 * 1024;
const SCALE = Math.max(0.001, Number(process.env.BENCH_MANY_SCALE ?? 1));
const ROWS = process.env.BENCH_MANY_ROWS ?? 'sabt';
const WANTED_SETS = (process.env.BENCH_MANY_SETS ?? 'small,large').split(',');
const serverNodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const cliNodeArgs = process.env.BENCH_CLI_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const METRICS_TOKEN = 'bench-many-metrics-token';
const IN_FLIGHT = 4;
const CLI = join(root, 'desktop', 'bin', 'av-upload.js');
const NODE_FLAGS = (/^#!\/usr\/bin\/env(?:\s+-S)?\s+node\s*(.*)$/m.exec(readFileSync(CLI, 'utf8'))?.[1] ?? '')
  .split(/\s+/)
  .filter(Boolean);

const SETS = [
  { name: 'small', count: Math.max(1, Math.round(1000 * SCALE)), size: MIB },
  { name: 'large', count: Math.max(1, Math.round(200 * SCALE)), size: 20 * MIB },
].filter((s) => WANTED_SETS.includes(s.name));

/** Writes a set's files into `dir`, each different (its number at the head of a shared random block). */
function writeSet(dir, set, block) {
  mkdirSync(dir, { recursive: true });
  const files = [];
  for (let i = 0; i < set.count; i++) {
    const name = `still-${String(i).padStart(4, '0')}.bin`;
    const path = join(dir, name);
    const bytes = Buffer.from(block.subarray(0, set.size));
    bytes.writeUInt32BE(i, 0);
    bytes.writeUInt32BE(set.size, 4);
    const fd = openSync(path, 'w');
    writeSync(fd, bytes);
    closeSync(fd);
    files.push({ name, path, size: set.size, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  return files;
}

/** Runs `work(count)` over 0..count-1 with `n` at a time. */
async function pool(count, n, work) {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(n, count) }, worker));
}

/** The server's count of answered requests, from its /metrics (the /metrics calls left out). */
async function serverRequests(url) {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('avp_http_requests_total{') || line.includes('route="/metrics"')) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

function startOurServer(name) {
  return startBenchServer({
    name,
    stdout: serverNodeArgs.length > 0 ? 'inherit' : 'ignore',
    env: { STORAGE_DRIVER: 'local', METRICS_TOKEN },
    nodeArgs: serverNodeArgs,
  });
}

/** (i) The shared client's UploadQueue, as the portal uses it: every file added at once, then submit. */
async function sendWithQueue(client, files) {
  const submission = await client.createSubmission({ form_type: 'creative', project_name: 'Bench many' });
  const queue = client.queue(submission.id);
  const release = await portalRelease();
  const uploads = files.map((f) =>
    queue.add({
      name: f.name,
      size: f.size,
      type: 'application/octet-stream',
      lastModified: 1_700_000_000_000,
      read: async (start, end) => {
        const handle = await open(f.path, 'r');
        try {
          const buffer = Buffer.allocUnsafe(end - start);
          const { bytesRead } = await handle.read(buffer, 0, end - start, start);
          return buffer.subarray(0, bytesRead);
        } finally {
          await handle.close();
        }
      },
      release,
    }),
  );
  const outcomes = await queue.settled();
  outcomes.forEach((o, i) => {
    if (o.state !== 'complete') throw new Error(`${files[i].name}: ${o.state} ${o.error?.message ?? ''}`);
    if (o.file.sha256 !== files[i].sha256) throw new Error(`${files[i].name}: sha-256 differs`);
  });
  await client.submit(
    submission.id,
    uploads.map((u) => u.fileId),
  );
}

/** av-upload with its own home folder; resolves with its exit code and output. */
function avUpload(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, ...cliNodeArgs, CLI, ...args, '--json'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** (iii) One PUT per file, 4 in flight, sha-256 at both ends. */
const BARE_PER_FILE = `
  import { createServer } from 'node:http';
  import { createHash } from 'node:crypto';
  import { createWriteStream, mkdirSync } from 'node:fs';
  import { pipeline } from 'node:stream/promises';
  mkdirSync(process.env.DIR, { recursive: true });
  createServer(async (req, res) => {
    if (req.method !== 'PUT') { res.end('ok'); return; }
    const hash = createHash('sha256');
    req.on('data', (chunk) => hash.update(chunk));
    await pipeline(req, createWriteStream(process.env.DIR + '/' + req.url.split('/').pop()));
    res.end(hash.digest('hex'));
  }).listen(Number(process.env.PORT), '127.0.0.1');
  process.on('SIGTERM', () => process.exit(0));`;

async function barePerFile(url, files) {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  try {
    await pool(files.length, IN_FLIGHT, async (i) => {
      const bytes = await readFile(files[i].path);
      const sha = createHash('sha256').update(bytes).digest('hex');
      const answer = await new Promise((resolve, reject) => {
        const req = request(`${url}/files/${files[i].name}`, {
          method: 'PUT',
          agent,
          headers: { 'content-type': 'application/octet-stream', 'content-length': bytes.length },
        });
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end(bytes);
      });
      if (answer !== sha || sha !== files[i].sha256) throw new Error(`${files[i].name}: sha-256 differs`);
    });
  } finally {
    agent.destroy();
  }
  return files.length;
}

/** (iv) tus-js-client, 4 files in flight; resolves to the requests it made. */
async function tusFiles(url, files) {
  const { Upload } = await import(
    pathToFileURL(join(root, 'node_modules', 'tus-js-client', 'lib.esm', 'node', 'index.js')).href
  );
  let requests = 0;
  await pool(files.length, IN_FLIGHT, async (i) => {
    const bytes = await readFile(files[i].path);
    await new Promise((resolve, reject) => {
      const upload = new Upload(bytes, {
        endpoint: `${url}/files`,
        chunkSize: 6 * MIB,
        uploadSize: bytes.length,
        retryDelays: [0, 1000],
        metadata: { filename: files[i].name },
        onBeforeRequest: () => void requests++,
        onError: reject,
        onSuccess: resolve,
      });
      upload.start();
    });
  });
  return requests;
}

const work = mkdtempSync(join(tmpdir(), 'avp-bench-many-'));
const results = [];
try {
  if (!process.env.BENCH_SKIP_BUILD) {
    compileTypeScript();
    runBin('typescript/bin/tsc', ['-b', 'desktop/tsconfig.json']);
  }
  const block = randomBytes(20 * MIB);
  for (const set of SETS) {
    const dir = join(work, set.name);
    const files = writeSet(dir, set, block);
    const bytes = set.count * set.size;
    const record = (contestant, timed, requests) =>
      results.push({ set, contestant, ...timed, requests, bytes });

    if (ROWS.includes('s')) {
      const server = await startOurServer('many-client');
      try {
        const { token } = await clientToken(server.url);
        const client = await sharedUploadClient(await engineTransport(server.url, token));
        const before = await serverRequests(server.url);
        const timed = await timeUpload(bytes, server, () => sendWithQueue(client, files));
        record('(i) ours: shared client (UploadQueue)', timed, (await serverRequests(server.url)) - before);
      } finally {
        await server.stop();
      }
    }

    if (ROWS.includes('a')) {
      const server = await startOurServer('many-cli');
      try {
        const { email, password } = await clientToken(server.url);
        const home = join(work, 'home');
        rmSync(home, { recursive: true, force: true });
        mkdirSync(home);
        const env = { AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: server.url, AV_UPLOAD_PASSWORD: password };
        const login = await avUpload(['login', '--email', email, '--server', server.url], env);
        if (login.code !== 0) throw new Error(`av-upload login exited with ${login.code}`);
        const before = await serverRequests(server.url);
        const timed = await timeUpload(bytes, server, async () => {
          const run = await avUpload(
            ['upload', '--form', 'creative', '--project-name', 'Bench many', dir],
            env,
          );
          if (run.code !== 0)
            throw new Error(`av-upload exited with ${run.code}:\n${run.output.slice(-2000)}`);
          const missing = files.filter((f) => !run.output.includes(f.sha256)).length;
          if (missing > 0)
            throw new Error(`av-upload: ${missing} file(s) without their sha-256 in its output`);
        });
        record('(ii) ours: av-upload (the CLI)', timed, (await serverRequests(server.url)) - before);
      } finally {
        await server.stop();
      }
    }

    if (ROWS.includes('b')) {
      const server = await startBareServer(BARE_PER_FILE, { DIR: join(work, 'bare') }, '/');
      try {
        let requests = 0;
        const timed = await timeUpload(
          bytes,
          server,
          async (url) => (requests = await barePerFile(url, files)),
        );
        record('(iii) bare per-file PUT, sha-256 both ends', timed, requests);
      } finally {
        await server.stop();
        rmSync(join(work, 'bare'), { recursive: true, force: true });
      }
    }

    if (ROWS.includes('t')) {
      const server = await startTusServer(join(work, 'tus'));
      try {
        let requests = 0;
        const timed = await timeUpload(bytes, server, async (url) => (requests = await tusFiles(url, files)));
        record('(iv) @tus/server + tus-js-client', timed, requests);
      } finally {
        await server.stop();
        rmSync(join(work, 'tus'), { recursive: true, force: true });
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }

  for (const set of SETS) {
    const rows = results.filter((r) => r.set === set);
    if (rows.length === 0) continue;
    console.log(
      `\n${set.count} files of ${set.size / MIB} MiB over loopback, one submission, each server a process of its own\n`,
    );
    console.table(
      rows.map((r) => ({
        contestant: r.contestant,
        'files/s': Number((set.count / r.seconds).toFixed(1)),
        'MB/s': Number(r.mbps.toFixed(1)),
        seconds: Number(r.seconds.toFixed(2)),
        'requests/file': Number((r.requests / set.count).toFixed(2)),
        'server CPU ms/file': Number(((r.cpu.server * 1000) / set.count).toFixed(1)),
        'client CPU s': Number(r.cpu.client.toFixed(2)),
      })),
    );
    const rate = (letter) => {
      const r = rows.find((x) => x.contestant.startsWith(`(${letter})`));
      return r ? set.count / r.seconds : undefined;
    };
    const bare = rate('iii');
    const tus = rate('iv');
    for (const [label, ours] of [
      ['shared client', rate('i')],
      ['av-upload', rate('ii')],
    ]) {
      if (ours === undefined) continue;
      const ofBare = bare ? (ours / bare).toFixed(2) : '-';
      const ofTus = tus ? (ours / tus).toFixed(2) : '-';
      console.log(
        `goal (${set.name}): ours >= 0.8 of the bare per-file rate and ahead of tus; ${label} reached ${ofBare} of bare, ${ofTus} of tus`,
      );
    }
    if (serverNodeArgs.length > 0) {
      for (const r of rows.filter((x) => x.contestant.startsWith('(i'))) {
        console.log(
          `${r.contestant} server ${r.pid}, its upload: --from ${r.window.from} --to ${r.window.to}`,
        );
      }
    }
  }
  console.log(
    "\nours' server CPU includes its reading of every completed file's media facts and a poster attempt (bare and tus do neither)",
  );
  console.log(
    `\nmachine load while it ran (1-minute average at the end): ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

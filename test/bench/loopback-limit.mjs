// The loopback limit both upload benchmarks compare against: a bare node:http server,
// a child process of its own, streaming one PUT of the whole file to disk, fed by a streamed read.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, openSync, rmSync, writeSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { root } from '../../build/scripts/lib.mjs';
import { cpuSeconds, rssBytes, watchMemory } from './process-stats.mjs';
import { freePort } from './server.mjs';

const MIB = 1024 * 1024;

/** Writes `size` incompressible bytes (a 16 MiB random block, repeated); returns their sha-256. */
export function writeSourceFile(path, size) {
  const block = randomBytes(16 * MIB);
  const fd = openSync(path, 'w');
  const hash = createHash('sha256');
  for (let written = 0; written < size; written += block.length) {
    const chunk = block.subarray(0, Math.min(block.length, size - written));
    writeSync(fd, chunk);
    hash.update(chunk);
  }
  closeSync(fd);
  return hash.digest('hex');
}

/**
 * Starts a `node -e CODE` server on a free port and waits until `readyPath` answers. With `nodeArgs`
 * (a profiler's, --trace-gc) node gets them too, and the server's output is shown.
 */
export async function startBareServer(code, env = {}, readyPath = '/', nodeArgs = []) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', code], {
    cwd: root,
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', nodeArgs.length > 0 ? 'inherit' : 'ignore', 'inherit'],
  });
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`a bench server exited with code ${child.exitCode}`);
    try {
      await fetch(`${url}${readyPath}`);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`${url} did not answer within 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  };
  return { url, child, stop };
}

/**
 * Times one upload against a server process: `upload(url)` runs between the readings. Returns MB/s
 * (10^6 bytes a second), the server's memory growth (peak resident set minus the one before) and the
 * processor seconds the server and this process used meanwhile. The disks are flushed first: the bytes
 * written before (a set of files just made, or the contestant before) would otherwise be written back
 * during this one's window, charging it the kernel's writeback and slowing its own writes.
 */
export async function timeUpload(size, server, upload) {
  execFileSync('sync');
  await new Promise((r) => setTimeout(r, 500));
  const before = rssBytes(server.child.pid);
  const peak = watchMemory(server.child.pid);
  const cpu0 = { server: cpuSeconds(server.child.pid), client: cpuSeconds(process.pid) };
  const started = process.hrtime.bigint();
  const note = await upload(server.url);
  const ended = process.hrtime.bigint();
  const seconds = Number(ended - started) / 1e9;
  return {
    seconds,
    // Microseconds of the monotonic clock V8's CPU profiles count in, to cut a profile to the upload.
    pid: server.child.pid,
    window: { from: Number(started / 1000n), to: Number(ended / 1000n) },
    mbps: size / 1e6 / seconds,
    growth: peak() - before,
    cpu: {
      server: cpuSeconds(server.child.pid) - cpu0.server,
      client: cpuSeconds(process.pid) - cpu0.client,
    },
    note,
  };
}

const BARE_SERVER = `
  import { createServer } from 'node:http';
  import { createWriteStream, mkdirSync } from 'node:fs';
  import { pipeline } from 'node:stream/promises';
  mkdirSync(process.env.DIR, { recursive: true });
  createServer(async (req, res) => {
    if (req.method !== 'PUT') { res.end('ok'); return; }
    await pipeline(req, createWriteStream(process.env.DIR + '/upload.bin'));
    res.end('stored');
  }).listen(Number(process.env.PORT), '127.0.0.1');`;

/** The limit's server: a bare node:http server writing one PUT into `dir`/upload.bin. */
export function startLimitServer(dir) {
  return startBareServer(BARE_SERVER, { DIR: dir });
}

/** The limit's client: `file` (`size` bytes) as one PUT to `url`, streamed from disk. */
export function streamPut(url, file, size) {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/upload`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve('one PUT, streamed') : reject(new Error(`status ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}

/** (a) The loopback limit: the file as one streamed PUT into a file on the same disk. */
export async function measureLoopbackLimit(file, size, workDir) {
  const dir = join(workDir, 'bare');
  const server = await startLimitServer(dir);
  try {
    return await timeUpload(size, server, (url) => streamPut(url, file, size));
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

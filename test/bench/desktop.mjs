// `npm run bench:desktop`: the desktop engine uploading through the real server,
// beside the loopback limit measured in the same run, then the engine's peak memory on a huge file.
//
//   (a) the limit   a bare node:http server streaming one PUT of the file to disk (the same limit as
//                   `npm run bench:upload`), fed by a streamed read
//   (b) the engine  `av-upload upload` (desktop/dist/cli: the engine, got, the file read a part at a time,
//                   4 parts of 6 MiB in flight, sha-256 while reading) as a process of its own, through
//                   the real server (api/dist/server.js, SQLite, local storage), server verify included
//   (c) memory      the same command uploading a BENCH_SPARSE_GIB (default 10) GiB sparse file: the peak
//                   resident set of the engine's process (the server writes the file in full, so the disk
//                   needs that much room)
//   (d) an import   the engine (desktop/dist/engine, as a process of its own with the command's node flags)
//                   asking the real server to import a BENCH_DESKTOP_IMPORT_MIB (default 2048) MiB file from
//                   a Drive v3 stand-in (bench:import's), following its progress until complete: MB/s from
//                   the engine's start to the file verified, and the engine's peak RSS (the bytes never
//                   pass through it, so it should stay at the engine's idle size)
//
// Every process is a child of this one and is measured from /proc. Figures only, never pass/fail; not part
// of `npm test`. Goals: (b) ≥ 0.9 × (a); (c) under 150 MB. Environment: BENCH_DESKTOP_MIB
// (default 1024), BENCH_SPARSE_GIB (default 10; 0 skips it), BENCH_DESKTOP_IMPORT_MIB (default 2048; 0 skips
// it), BENCH_SKIP_BUILD=1.
import { spawn } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTypeScript, root, runBin } from '../../build/scripts/lib.mjs';
import { DRIVE_STAND_IN } from './drive-stand-in.mjs';
import { measureLoopbackLimit, startBareServer, writeSourceFile } from './loopback-limit.mjs';
import { cpuSeconds, watchMemory } from './process-stats.mjs';
import { clientToken, startBenchServer } from './server.mjs';

const MIB = 1024 * 1024;
const SIZE = Math.max(8, Number(process.env.BENCH_DESKTOP_MIB ?? 1024)) * MIB;
const SPARSE = Number(process.env.BENCH_SPARSE_GIB ?? 10) * 1024 * MIB;
const IMPORT_SIZE = Number(process.env.BENCH_DESKTOP_IMPORT_MIB ?? 2048) * MIB;
const CLI = join(root, 'desktop', 'bin', 'av-upload.js');
const IMPORT_CHILD = join(root, 'test', 'bench', 'desktop-import-child.mjs');

/** The node flags of the command's `#!/usr/bin/env -S node …` line: the process a user gets. */
const NODE_FLAGS = (/^#!\/usr\/bin\/env(?:\s+-S)?\s+node\s*(.*)$/m.exec(readFileSync(CLI, 'utf8'))?.[1] ?? '')
  .split(/\s+/)
  .filter(Boolean);

/** Runs av-upload with its own home folder; resolves with its exit code, wall time, CPU and peak RSS. */
function avUpload(args, env, script = CLI) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [...NODE_FLAGS, script, ...args, ...(script === CLI ? ['--json'] : [])],
      {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const peak = watchMemory(child.pid);
    let cpu = 0;
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      try {
        cpu = cpuSeconds(child.pid);
      } catch {
        // exited
      }
    });
    // The last reading before exit: /proc/<pid> goes with the process.
    const sampler = setInterval(() => {
      try {
        cpu = cpuSeconds(child.pid);
      } catch {
        // exited
      }
    }, 100);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sampler);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      resolve({ code, seconds, cpu, peak: peak(), output });
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'avp-bench-desktop-'));
let server;
let drive;
try {
  if (!process.env.BENCH_SKIP_BUILD) {
    compileTypeScript();
    runBin('typescript/bin/tsc', ['-b', 'desktop/tsconfig.json']);
  }
  const file = join(work, 'clip.mov');
  const expectedSha = writeSourceFile(file, SIZE);
  const limit = await measureLoopbackLimit(file, SIZE, work);

  const importFile = join(work, 'cloud.mov');
  const importSha = IMPORT_SIZE > 0 ? writeSourceFile(importFile, IMPORT_SIZE) : null;
  if (IMPORT_SIZE > 0)
    drive = await startBareServer(
      DRIVE_STAND_IN,
      { FILE: importFile, SIZE: String(IMPORT_SIZE), FILE_ID: 'bench-cloud' },
      '/ready',
    );
  server = await startBenchServer({
    name: 'desktop',
    stdout: 'ignore',
    env: { STORAGE_DRIVER: 'local', ...(drive ? { GOOGLE_API_URL: drive.url } : {}) },
  });
  const { email, password, token } = await clientToken(server.url);
  const home = join(work, 'home');
  mkdirSync(home);
  const env = { AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: server.url, AV_UPLOAD_PASSWORD: password };
  const login = await avUpload(['login', '--email', email, '--server', server.url], env);
  if (login.code !== 0) throw new Error(`av-upload login exited with ${login.code}`);

  const upload = async (path) => {
    const serverCpu = cpuSeconds(server.child.pid);
    const run = await avUpload(['upload', '--form', 'creative', '--project-name', 'Bench', path], env);
    if (run.code !== 0)
      throw new Error(`av-upload upload exited with ${run.code}:\n${run.output.slice(-2000)}`);
    return { ...run, serverCpu: cpuSeconds(server.child.pid) - serverCpu };
  };
  const engine = await upload(file);
  if (!engine.output.includes(expectedSha)) throw new Error('the sent sha-256 differs from the file’s');
  const mbps = SIZE / 1e6 / engine.seconds;
  rmSync(file);

  console.log(`\n${SIZE / MIB} MiB over loopback; av-upload runs as node ${NODE_FLAGS.join(' ')}\n`);
  console.table([
    {
      contestant: '(a) bare node:http PUT to disk',
      'MB/s': Number(limit.mbps.toFixed(1)),
      seconds: Number(limit.seconds.toFixed(2)),
      'of (a)': 1,
      'CPU s (server + client)': `${limit.cpu.server.toFixed(2)} + ${limit.cpu.client.toFixed(2)}`,
      'client peak RSS MB': '',
    },
    {
      contestant: '(b) av-upload (engine) + real server',
      'MB/s': Number(mbps.toFixed(1)),
      seconds: Number(engine.seconds.toFixed(2)),
      'of (a)': Number((mbps / limit.mbps).toFixed(2)),
      'CPU s (server + client)': `${engine.serverCpu.toFixed(2)} + ${engine.cpu.toFixed(2)}`,
      'client peak RSS MB': Number((engine.peak / 1e6).toFixed(1)),
    },
  ]);
  console.log('(b) is the whole command: process start, sign-in check, sha-256, server verify, submission.');
  console.log(`goal: (b) >= 0.9 of (a); reached ${(mbps / limit.mbps).toFixed(2)}`);

  if (SPARSE > 0) {
    const sparse = join(work, 'sparse.mov');
    const fd = openSync(sparse, 'w');
    ftruncateSync(fd, SPARSE);
    closeSync(fd);
    const run = await upload(sparse);
    console.log(
      `(c) ${(SPARSE / 1024 / MIB).toFixed(1)} GiB sparse file: ${run.seconds.toFixed(1)} s ` +
        `(${(SPARSE / 1e6 / run.seconds).toFixed(1)} MB/s); engine peak RSS ${(run.peak / 1e6).toFixed(1)} MB ` +
        `(goal < 150 MB)`,
    );
  }
  if (drive) {
    const run = await avUpload(
      [],
      {
        BENCH_SERVER: server.url,
        BENCH_TOKEN: token,
        BENCH_FILE_ID: 'bench-cloud',
        BENCH_SIZE: String(IMPORT_SIZE),
      },
      IMPORT_CHILD,
    );
    if (run.code !== 0)
      throw new Error(`the engine's import exited with ${run.code}:\n${run.output.slice(-2000)}`);
    if (!run.output.includes(importSha)) throw new Error('the imported sha-256 differs from the file’s');
    console.log(
      `(d) ${(IMPORT_SIZE / MIB).toFixed(0)} MiB import through the engine from the Drive stand-in: ` +
        `${run.seconds.toFixed(1)} s (${(IMPORT_SIZE / 1e6 / run.seconds).toFixed(1)} MB/s, the server copying); ` +
        `engine peak RSS ${(run.peak / 1e6).toFixed(1)} MB, engine CPU ${run.cpu.toFixed(2)} s`,
    );
  }
} finally {
  await server?.stop();
  await drive?.stop();
  rmSync(work, { recursive: true, force: true });
}

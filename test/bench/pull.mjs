// `npm run bench:pull`: the show pull (issue #31) on loopback. Three files of 1 GiB are uploaded to the
// real server (api/dist/server.js, SQLite, local storage; not timed), then fetched two ways, in one run:
//
//   curl    the limit: three `curl` of the staff download route at once, each followed by `sha256sum` of
//           the file it wrote (a verified download, done by the fastest tools at hand)
//   pull    `av-upload pull --event … --parallel 3 DIR` (the compiled CLI, sha-256 while receiving,
//           manifest.csv written, everything checked against the server's sums)
//
// It prints MB/s (10^6 bytes per second) for each, pull/curl, the CLI's peak resident set, and the goal
// line (pull >= 0.8 of curl, client RSS < 150 MB). A benchmark: figures only, never pass/fail; not part
// of `npm test`. Environment: BENCH_PULL_MIB (each file's size, default 1024), BENCH_PULL_FILES (3),
// BENCH_PULL_RUNS (1; with more, each run's figures and the medians), BENCH_SKIP_BUILD=1.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTypeScript, root, runBin } from '../../build/scripts/lib.mjs';
import { watchMemory } from './process-stats.mjs';
import { startBenchServer } from './server.mjs';

const MIB = 1024 * 1024;
const SIZE = Math.max(8, Number(process.env.BENCH_PULL_MIB ?? 1024)) * MIB;
const FILES = Math.max(1, Number(process.env.BENCH_PULL_FILES ?? 3));
const RUNS = Math.max(1, Number(process.env.BENCH_PULL_RUNS ?? 1));
const PART = 6_291_456;
const EVENT = 'Bench Expo 2027';
const PASSWORD = 'Bench passphrase 2026!';
const STAFF = 'staff-bench@example.com';
const BIN = join(root, 'desktop', 'bin', 'av-upload.js');
// The node flags of the bin's #! line (the young generation capped), as `av-upload` runs from a shell.
const BIN_FLAGS = readFileSync(BIN, 'utf8')
  .split('\n')[0]
  .split(/\s+/)
  .filter((w) => w.startsWith('--'));

function child(command, args, { env = {}, input = '', onSpawn } = {}) {
  return new Promise((resolve, reject) => {
    const p = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    onSpawn?.(p);
    let out = '';
    let err = '';
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (err += c));
    p.stdin.end(input);
    p.on('error', reject);
    p.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} ${args[0]} exited ${code}: ${err}${out}`)),
    );
  });
}

async function json(url, token, method, route, body) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** One file of random bytes sent over the upload protocol, part by part; answers its sha-256. */
async function uploadOne(url, token, submissionId, name) {
  // One random block per file, each part stamped with its file and number: fast to make twice (once for
  // the sum given at registration, once to send), and no two parts alike.
  const base = randomBytes(PART);
  const count = Math.ceil(SIZE / PART);
  const part = (n) => {
    const block = Buffer.from(base.subarray(0, Math.min(PART, SIZE - n * PART)));
    block.write(`${name}:${n}:`, 0);
    return block;
  };
  const whole = createHash('sha256');
  for (let n = 0; n < count; n += 1) whole.update(part(n));
  const sha256 = whole.digest('hex');
  const { file } = await json(url, token, 'POST', `/api/uploads/submissions/${submissionId}/files`, {
    name,
    size: SIZE,
    type: 'video/quicktime',
    lastModified: 1_700_000_000_000,
    sha256,
  });
  for (let n = 0; n < count; n += 1) {
    const res = await fetch(`${url}/api/uploads/files/${file.id}/parts/${n + 1}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: part(n),
    });
    if (!res.ok) throw new Error(`part ${n + 1} answered ${res.status}`);
  }
  await json(url, token, 'POST', `/api/uploads/files/${file.id}/complete`, { sha256 });
  return { id: file.id, sha256 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mbps = (seconds) => (FILES * SIZE) / seconds / 1e6;

async function main() {
  if (!process.env.BENCH_SKIP_BUILD) {
    compileTypeScript();
    runBin('typescript/bin/tsc', ['-b', 'desktop/tsconfig.json']);
  }
  const work = mkdtempSync(join(tmpdir(), 'avp-bench-pull-'));
  const dataDir = join(work, 'data');
  mkdirSync(dataDir);
  const server = await startBenchServer({ name: 'pull', stdout: 'ignore', dataDir });
  try {
    // A client sends the files (not timed); a staff account pulls them.
    await json(server.url, null, 'POST', '/api/auth/register', {
      email: 'client-bench@example.com',
      firstname: 'Bench',
      lastname: 'Client',
      company: 'Loopback AV',
      phone: '(555) 123-4567',
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    const { token: client } = await json(server.url, null, 'POST', '/api/auth/login', {
      email: 'client-bench@example.com',
      password: PASSWORD,
      token: true,
    });
    const { submission } = await json(server.url, client, 'POST', '/api/uploads/submissions', {
      form_type: 'sponsor',
      event_name: EVENT,
      sponsor_company: 'Loopback AV',
    });
    const files = [];
    const seeded = performance.now();
    for (let i = 0; i < FILES; i += 1)
      files.push(await uploadOne(server.url, client, submission.id, `spot-${i + 1}.mov`));
    await json(server.url, client, 'POST', `/api/uploads/submissions/${submission.id}/submit`, {
      files: files.map((f) => f.id),
    });
    console.log(
      `seeded ${FILES} × ${SIZE / MIB} MiB in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );

    await child(
      process.execPath,
      [
        join(root, 'api', 'dist', 'cli', 'admin.js'),
        'create',
        '--email',
        STAFF,
        '--first',
        'Bench',
        '--last',
        'Staff',
      ],
      {
        env: { DATA_DIR: dataDir, DATABASE_URL: '' },
        input: PASSWORD,
      },
    );
    const home = join(work, 'home');
    const cliEnv = { AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: server.url };
    await child(
      process.execPath,
      [...BIN_FLAGS, BIN, 'login', '--email', STAFF, '--password-stdin', '--json'],
      {
        env: cliEnv,
        input: `${PASSWORD}\n`,
      },
    );
    const { token: staff } = await json(server.url, null, 'POST', '/api/auth/login', {
      email: STAFF,
      password: PASSWORD,
      token: true,
    });

    const rows = [];
    for (let run = 1; run <= RUNS; run += 1) {
      // curl: the same bytes, each file checked with sha256sum after.
      const curlDir = join(work, `curl-${run}`);
      mkdirSync(curlDir);
      let started = performance.now();
      const sums = await Promise.all(
        files.map(async (f, i) => {
          const out = join(curlDir, `spot-${i + 1}.mov`);
          await child('curl', [
            '-sS',
            '-f',
            '-o',
            out,
            '-H',
            `authorization: Bearer ${staff}`,
            `${server.url}/api/uploads/inbox/files/${f.id}/download`,
          ]);
          return (await child('sha256sum', [out])).split(' ')[0];
        }),
      );
      const curlSeconds = (performance.now() - started) / 1000;
      sums.forEach((sum, i) => {
        if (sum !== files[i].sha256) throw new Error(`curl's file ${i + 1} does not match`);
      });
      rmSync(curlDir, { recursive: true, force: true });

      const pullDir = join(work, `pull-${run}`);
      let stopMemory = () => 0;
      started = performance.now();
      const out = await child(
        process.execPath,
        [...BIN_FLAGS, BIN, 'pull', '--event', EVENT, '--parallel', String(FILES), '--json', pullDir],
        {
          env: cliEnv,
          onSpawn: (p) => (stopMemory = watchMemory(p.pid)),
        },
      );
      const pullSeconds = (performance.now() - started) / 1000;
      const peak = stopMemory();
      const summary = out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .at(-1);
      if (summary.event !== 'pull' || summary.fetched !== FILES)
        throw new Error(`the pull ended: ${JSON.stringify(summary)}`);
      rmSync(pullDir, { recursive: true, force: true });
      rows.push({
        curl: mbps(curlSeconds),
        pull: mbps(pullSeconds),
        rss: peak / MIB,
        curlSeconds,
        pullSeconds,
      });
      console.log(
        `run ${run}: curl+sha256sum ${mbps(curlSeconds).toFixed(0)} MB/s (${curlSeconds.toFixed(1)} s), av-upload pull ${mbps(pullSeconds).toFixed(0)} MB/s (${pullSeconds.toFixed(1)} s), ratio ${(mbps(pullSeconds) / mbps(curlSeconds)).toFixed(2)}, client RSS peak ${(peak / MIB).toFixed(0)} MB`,
      );
    }

    const curl = median(rows.map((r) => r.curl));
    const pull = median(rows.map((r) => r.pull));
    const rss = median(rows.map((r) => r.rss));
    const ratio = pull / curl;
    console.log(
      `\n${FILES} × ${SIZE / MIB} MiB on loopback, ${RUNS} run${RUNS === 1 ? '' : 's'}${RUNS > 1 ? ' (medians)' : ''}:`,
    );
    console.log('| contestant | MB/s | ratio | client RSS peak |');
    console.log('|---|---:|---:|---:|');
    console.log(`| curl + sha256sum (limit) | ${curl.toFixed(0)} | 1.00 | – |`);
    console.log(`| av-upload pull | ${pull.toFixed(0)} | ${ratio.toFixed(2)} | ${rss.toFixed(0)} MB |`);
    console.log(
      `goal: pull >= 0.8 of curl+sha256sum: ${ratio >= 0.8 ? 'met' : 'not met'} (${ratio.toFixed(2)}); client RSS < 150 MB: ${rss < 150 ? 'met' : 'not met'} (${rss.toFixed(0)} MB)`,
    );
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();

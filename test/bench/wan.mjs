// `npm run bench:wan`: one 1 GiB file uploaded over an emulated slow, distant link, which loopback cannot
// show: every request pays a round trip, and all of an upload's connections share one rate.
//
// Links (test/bench/link-emulator.mjs, a TCP proxy in a process of its own, in front of each server):
// 200 Mbit/s with an 80 ms round trip, and 50 Mbit/s with a 200 ms round trip. Contestants, each against a
// fresh server of its own:
//
//   (0) the link    a bare node:http server taking one PUT of the file, streamed: what one connection that
//                   never waits for an answer gets through the link (the emulator's own check)
//   (1) ours        the real server (api/dist/server.js, SQLite, local storage) fed by the shared upload
//                   client in Node over fetch, as the browser sends (sha-256 on node:crypto standing in
//                   for the browser's worker); server verify on completion included
//   (2) ours, CLI   `av-upload upload` (desktop/dist/cli: the engine over got) as a process of its own,
//                   through the same real server: the whole command, process start and submission included
//   (3) the peer    @tus/server with its file store, fed by tus-js-client at 6 MiB chunks
//   (4) original    the original's protocol, the legacy /api/submitForm.php calls on the real server: each
//                   6 MiB part base64-encoded in a JSON body, one at a time, then `finish` with the sha-256
//
// It prints MB/s (10^6 bytes a second) and each contestant's ratio to the link's rate. Goal: ours, (1) and
// (2), at or above 0.9 of the link on both links, ahead of (3) and (4). A benchmark: figures only, never
// pass/fail; not part of `npm test`.
//
// Environment: BENCH_WAN_MIB (file size, default 1024), BENCH_WAN_LINKS (e.g. '200/80,50/200': Mbit/s and
// round trip in ms), BENCH_WAN_ROWS (e.g. '12' to run only some contestants), BENCH_WAN_PARTS (parts in
// flight for (1) and (2), to see what parallelism a link needs; the clients' own default otherwise),
// BENCH_SKIP_BUILD=1 to use the dist folders as they are.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTypeScript, root, runBin } from '../../build/scripts/lib.mjs';
import {
  fetchTransport,
  sendWithSharedClient,
  sharedUploadClient,
  startTusServer,
  tusUpload,
} from './contestants.mjs';
import { startLinkProcess } from './link-emulator.mjs';
import { startLimitServer, streamPut, timeUpload, writeSourceFile } from './loopback-limit.mjs';
import { clientToken, startBenchServer } from './server.mjs';

const MIB = 1024 * 1024;
const SIZE = Math.max(8, Number(process.env.BENCH_WAN_MIB ?? 1024)) * MIB;
const PART = 6_291_456;
const ROWS = process.env.BENCH_WAN_ROWS ?? '01234';
const PARTS = process.env.BENCH_WAN_PARTS ? Number(process.env.BENCH_WAN_PARTS) : undefined;
const LINKS = (process.env.BENCH_WAN_LINKS ?? '200/80,50/200').split(',').map((link) => {
  const [mbit, rttMs] = link.split('/').map(Number);
  return { mbit, rttMs, mbps: mbit / 8 };
});
const CLI = join(root, 'desktop', 'bin', 'av-upload.js');
/** The node flags of av-upload's `#!/usr/bin/env -S node …` line: the process a user gets. */
const CLI_NODE_FLAGS = (
  /^#!\/usr\/bin\/env(?:\s+-S)?\s+node\s*(.*)$/m.exec(readFileSync(CLI, 'utf8'))?.[1] ?? ''
)
  .split(/\s+/)
  .filter(Boolean);

/** Runs av-upload with `args` (JSON output); resolves with its exit code and output. */
function avUpload(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, CLI, ...args, '--json'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** One call of the original's protocol: a JSON POST, the dotted token as a bearer header. */
async function legacyPost(url, path, body, token) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** The original's sign-in (login.php, the password base64-encoded): its token. */
async function legacyToken(url, { email, password }) {
  const { token } = await legacyPost(url, '/api/login.php', {
    email,
    password: Buffer.from(password, 'utf8').toString('base64'),
  });
  return token;
}

/**
 * The original's upload as its pages spoke it (api/src/modules/legacy/uploads.ts): `init` with the
 * file's size, every part base64 in a JSON `part` call, waiting for each answer before the next, then
 * `finish` with the sha-256.
 */
async function legacyUpload(url, token, file, size, expectedSha) {
  const post = (path, body) => legacyPost(url, path, body, token);
  const form = { form_type: 'creative', project_name: 'Bench' };
  const started = await post('/api/submitForm.php', {
    ...form,
    action: 'init',
    files: { 'source.bin': size },
  });
  const handle = await open(file, 'r');
  const hash = createHash('sha256');
  const parts = Math.ceil(size / PART);
  try {
    for (let part = 1; part <= parts; part++) {
      const bytes = Buffer.allocUnsafe(Math.min(PART, size - (part - 1) * PART));
      await handle.read(bytes, 0, bytes.length, (part - 1) * PART);
      hash.update(bytes);
      await post('/api/submitForm.php', {
        ...form,
        action: 'part',
        submission_id: started.submission_id,
        file_name: 'source.bin',
        file: bytes.toString('base64'),
      });
    }
  } finally {
    await handle.close();
  }
  const done = await post('/api/submitForm.php', {
    ...form,
    action: 'finish',
    submission_id: started.submission_id,
    file_name: 'source.bin',
    sha256: hash.digest('hex'),
  });
  if (done.sha256 !== expectedSha) throw new Error('sha-256 differs');
  return `${parts} JSON calls of ${((Math.ceil(PART / 3) * 4) / 1e6).toFixed(1)} MB, one at a time`;
}

/**
 * Runs one contestant on one link: its server, the link in front of it, `prepare(serverUrl, linkUrl)`
 * (accounts and sign-in: not timed), the upload through the link (timed), then both stopped.
 */
async function measure(link, row, name, start, upload, prepare = async () => undefined) {
  if (!ROWS.includes(row)) return null;
  const server = await start();
  let wire;
  try {
    wire = await startLinkProcess({
      target: Number(new URL(server.url).port),
      mbit: link.mbit,
      rttMs: link.rttMs,
    });
    const prepared = await prepare(server.url, wire.url);
    const before = await wire.stats();
    const result = await timeUpload(SIZE, { ...server, url: wire.url }, (url) => upload(url, prepared));
    const after = await wire.stats();
    const entry = {
      name: `(${row}) ${name}`,
      ...result,
      connections: after.connections - before.connections,
    };
    console.log(
      `  ${entry.name}: ${entry.mbps.toFixed(2)} MB/s, ${(entry.mbps / link.mbps).toFixed(2)} of the link`,
    );
    return entry;
  } finally {
    await wire?.close();
    await server.stop();
  }
}

const work = mkdtempSync(join(tmpdir(), 'avp-bench-wan-'));
const file = join(work, 'source.bin');
const tables = [];
try {
  if (!process.env.BENCH_SKIP_BUILD) {
    compileTypeScript();
    runBin('typescript/bin/tsc', ['-b', 'desktop/tsconfig.json']);
  }
  const expectedSha = writeSourceFile(file, SIZE);
  const realServer = (name) => () =>
    startBenchServer({ name, stdout: 'ignore', env: { STORAGE_DRIVER: 'local' } });

  for (const link of LINKS) {
    console.log(`\n${link.mbit} Mbit/s (${link.mbps} MB/s), ${link.rttMs} ms round trip:`);
    const rows = [];
    rows.push(
      await measure(
        link,
        '0',
        'bare node:http, one streamed PUT',
        () => startLimitServer(join(work, 'bare')),
        (url) => streamPut(url, file, SIZE),
      ),
    );
    rmSync(join(work, 'bare'), { recursive: true, force: true });

    rows.push(
      await measure(
        link,
        '1',
        'ours: shared client over fetch (browser)',
        realServer('wan-fetch'),
        async (url, { token }) => {
          const client = await sharedUploadClient(fetchTransport(url, token), {
            ...(PARTS ? { partConcurrency: PARTS } : {}),
          });
          const { partsSeconds, completeSeconds } = await sendWithSharedClient(
            client,
            file,
            SIZE,
            expectedSha,
          );
          return `${Math.ceil(SIZE / PART)} parts, ${client.partConcurrency} in flight: ${partsSeconds.toFixed(1)} s, complete ${completeSeconds.toFixed(1)} s`;
        },
        (serverUrl) => clientToken(serverUrl),
      ),
    );

    rows.push(
      await measure(
        link,
        '2',
        'ours: av-upload (engine, got)',
        realServer('wan-cli'),
        async (_url, { env }) => {
          const run = await avUpload(
            [
              'upload',
              '--form',
              'creative',
              '--project-name',
              'Bench',
              ...(PARTS ? ['--parallel', String(PARTS)] : []),
              file,
            ],
            env,
          );
          if (run.code !== 0)
            throw new Error(`av-upload upload exited with ${run.code}:\n${run.output.slice(-2000)}`);
          if (!run.output.includes(expectedSha)) throw new Error('the sent sha-256 differs from the file’s');
          return 'the whole command, a process of its own';
        },
        async (serverUrl, linkUrl) => {
          const { email, password } = await clientToken(serverUrl);
          const home = join(work, `home-${link.mbit}`);
          mkdirSync(home, { recursive: true });
          const env = { AV_UPLOAD_HOME: home, AV_UPLOAD_SERVER: linkUrl, AV_UPLOAD_PASSWORD: password };
          const login = await avUpload(['login', '--email', email, '--server', linkUrl], env);
          if (login.code !== 0) throw new Error(`av-upload login exited with ${login.code}`);
          return { env };
        },
      ),
    );

    rows.push(
      await measure(
        link,
        '3',
        '@tus/server + tus-js-client, 6 MiB chunks',
        () => startTusServer(join(work, 'tus')),
        (url) => tusUpload(url, file, SIZE),
      ),
    );
    rmSync(join(work, 'tus'), { recursive: true, force: true });

    rows.push(
      await measure(
        link,
        '4',
        "original's protocol: base64 parts in JSON",
        realServer('wan-legacy'),
        (url, token) => legacyUpload(url, token, file, SIZE, expectedSha),
        async (serverUrl) => legacyToken(serverUrl, await clientToken(serverUrl)),
      ),
    );
    tables.push({ link, rows: rows.filter(Boolean) });
  }

  for (const { link, rows } of tables) {
    console.log(
      `\n${SIZE / MIB} MiB over ${link.mbit} Mbit/s (${link.mbps} MB/s) with a ${link.rttMs} ms round trip\n`,
    );
    console.table(
      rows.map((r) => ({
        contestant: r.name,
        'MB/s': Number(r.mbps.toFixed(2)),
        seconds: Number(r.seconds.toFixed(1)),
        'of link': Number((r.mbps / link.mbps).toFixed(3)),
        connections: r.connections,
        how: r.note,
      })),
    );
    const of = (row) => rows.find((r) => r.name.startsWith(`(${row})`));
    const ours = ['1', '2'].map(of).filter(Boolean);
    const peers = ['3', '4'].map(of).filter(Boolean);
    if (ours.length > 0) {
      const best = peers.length > 0 ? Math.max(...peers.map((p) => p.mbps)) : 0;
      console.log(
        `goal: ours >= 0.9 of the link and ahead of both peers; ${ours
          .map((r) => `${r.name.slice(0, 3)} ${(r.mbps / link.mbps).toFixed(2)}`)
          .join(', ')}${peers.length > 0 ? `; the best peer ${(best / link.mbps).toFixed(2)}` : ''}`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

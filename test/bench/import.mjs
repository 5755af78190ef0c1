// `npm run bench:import`: a large file imported server-side from a Google Drive stand-in, beside the
// loopback limit measured in the same run:
//
//   (a) the limit   a bare node:http server streaming one PUT of the file to disk (as bench:upload's (a))
//   (e) ours        the real server (api/dist/server.js, SQLite, local storage) copying the file from a
//                   Drive v3 stand-in (files/{id}?alt=media with Range, a child process of its own serving
//                   the same file from disk) part by part, hashing as it goes, timed from the import's
//                   start to the file reported complete with its sha-256 verified
//
// The server's memory growth is its peak resident set during the import minus the one before. It prints
// MB/s (10^6 bytes per second), the ratio to (a), and the growth. Goal (issue text): >= 0.8 of (a) and
// growth under 100 MB. A benchmark: figures only, never pass/fail; not part of `npm test`.
//
// Environment: BENCH_IMPORT_MIB (file size, default 2048), BENCH_SKIP_BUILD=1 to use dist as it is,
// BENCH_SERVER_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof') to profile the server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTypeScript } from '../../build/scripts/lib.mjs';
import { measureLoopbackLimit, startBareServer, timeUpload, writeSourceFile } from './loopback-limit.mjs';
import { DRIVE_STAND_IN } from './drive-stand-in.mjs';
import { clientToken, startBenchServer } from './server.mjs';

const MIB = 1024 * 1024;
const SIZE = Math.max(8, Number(process.env.BENCH_IMPORT_MIB ?? 2048)) * MIB;
const FILE_ID = 'bench-file';

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

const work = mkdtempSync(join(tmpdir(), 'avp-bench-import-'));
const file = join(work, 'source.bin');
let drive;
try {
  if (!process.env.BENCH_SKIP_BUILD) compileTypeScript();
  const expectedSha = writeSourceFile(file, SIZE);

  const bare = { name: '(a) bare node:http PUT to disk', ...(await measureLoopbackLimit(file, SIZE, work)) };

  drive = await startBareServer(DRIVE_STAND_IN, { FILE: file, SIZE: String(SIZE), FILE_ID }, '/ready');
  const server = await startBenchServer({
    name: 'import',
    env: { GOOGLE_API_URL: drive.url, GOOGLE_CLIENT_ID: 'bench.apps.googleusercontent.com' },
    nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
  });
  let ours;
  try {
    const { token } = await clientToken(server.url);
    const { submission } = await api(server.url, token, 'POST', '/api/uploads/submissions', {
      form_type: 'creative',
      project_name: 'Import bench',
    });
    ours = {
      name: '(e) ours: server-side import from the Drive stand-in',
      ...(await timeUpload(SIZE, server, async (url) => {
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
            if (now.sha256 !== expectedSha) throw new Error(`sha-256 ${now.sha256}, expected ${expectedSha}`);
            return 'Range parts of the file part size, verified sha-256';
          }
          if (now.import && ['failed', 'needs_auth'].includes(now.import.status)) {
            throw new Error(`the import stopped: ${now.import.status} ${now.import.error}`);
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      })),
    };
  } finally {
    await server.stop();
  }

  const rows = [bare, ours].map((r) => ({
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
  console.log(
    `goal: ours >= 0.8 of (a) and < 100 MB server growth; ours reached ${(ours.mbps / bare.mbps).toFixed(2)} and ${(ours.growth / 1e6).toFixed(1)} MB`,
  );
} finally {
  await drive?.stop();
  rmSync(work, { recursive: true, force: true });
}

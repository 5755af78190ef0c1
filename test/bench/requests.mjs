// npm run bench:requests: the server's CPU per API request, apart from the bytes it carries (#34).
//
// One client with a bearer token sends N small part PUTs (a 4 KiB one-part file, the same part again and
// again, one file per request in flight: the files are never completed) and N small GETs (the file's facts), 4 in flight, against
// api/dist/server.js. The server's own CPU (utime + stime from /proc/<pid>/stat) over each run, divided by
// the requests, is what every request pays for routing, logging, metrics, sessions and the answer.
//
// BENCH_REQUESTS (default 3000) sets N; BENCH_REQUESTS_PROFILE=1 starts the server with
// --perf-basic-prof and prints its pid, for `perf record -g -e cpu-clock -p <pid>` while it runs.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { clientToken, startBenchServer } from './server.mjs';

const N = Number(process.env.BENCH_REQUESTS ?? 3000);
const IN_FLIGHT = 4;
const PART = Buffer.alloc(4096, 7);
const PROFILE = process.env.BENCH_REQUESTS_PROFILE === '1';

// Clock ticks per second: 100 on every Linux this runs on.
const TICK_MS = 10;

function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat(5), counted from the state (field 3) here.
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function run(label, count, send, pid) {
  const before = cpuMs(pid);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, worker) => {
      while (next < count) {
        next += 1;
        await send(worker);
      }
    }),
  );
  const wallMs = performance.now() - started;
  const cpu = cpuMs(pid) - before;
  return { label, count, cpuPerRequest: cpu / count, perSecond: (count / wallMs) * 1000 };
}

const server = await startBenchServer({
  name: 'requests',
  stdout: 'ignore',
  nodeArgs: PROFILE ? ['--perf-basic-prof'] : [],
});
try {
  const { url } = server;
  const { token } = await clientToken(url);
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const created = await fetch(`${url}/api/uploads/submissions`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ form_type: 'sponsor', event_name: 'Bench', sponsor_company: 'Loopback' }),
  });
  const { submission } = await created.json();
  // One file per request in flight: a part sent twice at once is refused (409 part_in_progress).
  const files = [];
  for (let i = 0; i < IN_FLIGHT; i += 1) {
    const registered = await fetch(`${url}/api/uploads/submissions/${submission.id}/files`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        name: `bench-${i}.jpg`,
        size: PART.length,
        type: 'image/jpeg',
        lastModified: 0,
      }),
    });
    const { file } = await registered.json();
    if (!file?.id) throw new Error(`registration answered ${registered.status}`);
    files.push(file);
  }

  const put = async (worker) => {
    const res = await fetch(`${url}/api/uploads/files/${files[worker].id}/parts/1`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: PART,
    });
    if (res.status !== 200) throw new Error(`part PUT answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  const get = async (worker) => {
    const res = await fetch(`${url}/api/uploads/files/${files[worker].id}`, { headers: auth });
    if (res.status !== 200) throw new Error(`GET answered ${res.status}`);
    await res.arrayBuffer();
  };

  if (PROFILE) console.log(`server pid ${server.child.pid}: attach perf now (10 s)`);
  // Warm-up: JIT, connection pool, statement caches.
  await run('warm-up', Math.min(300, N), put, server.child.pid);
  await run('warm-up', Math.min(300, N), get, server.child.pid);
  if (PROFILE) await new Promise((r) => setTimeout(r, 10_000));

  const rows = [
    await run('part PUT (4 KiB)', N, put, server.child.pid),
    await run('GET file', N, get, server.child.pid),
  ];
  console.log(
    `\nbench:requests, ${N} requests each, ${IN_FLIGHT} in flight, load ${loadavg()[0].toFixed(2)}`,
  );
  console.log('request'.padEnd(20), 'server CPU ms/req'.padStart(18), 'req/s'.padStart(8));
  for (const row of rows) {
    console.log(
      row.label.padEnd(20),
      row.cpuPerRequest.toFixed(3).padStart(18),
      row.perSecond.toFixed(0).padStart(8),
    );
  }
} finally {
  await server.stop();
}

// `npm run bench:mixed`: what uploads do to the rest of the server (issue #34, part 3). One real server
// (api/dist/server.js, SQLite, local storage, the Stripe stand-in as the gateway) takes three calls under
// autocannon, first with nothing else to do, then while 8 clients upload to it at full speed:
//
//   GET  /api/stores/demo-expo                    the store page's data
//   POST /api/stores/demo-expo/payment-intents    intent creation (a pending order, a call to Stripe)
//   POST /api/auth/login                          sign-in (argon2id)
//
// The uploaders are bench:upload's contestant (c), 8 of them: the shared upload client in Node over the
// desktop engine's transport, each client its own account, sending one file after another (4 parts in
// flight, sha-256 at both ends) from a process of their own (mixed-uploaders.mjs), so their work never
// delays the load generator's clock. Each upload's solo speed is its speed with no calls beside it,
// measured just before and just after the calls (the mean of the two windows, so drift over the run does
// not count as the calls' doing); its speed with load is the same client's over the three calls' windows.
//
// Each call is driven at a fixed rate by default (BENCH_MIXED_RATES), well under what the server answers
// when idle: a latency measure. Run flat out (rate 0), a call fills whatever the uploads leave, and its
// p99 measures its share of the processor instead.
//
// It prints each call's p99 beside its idle p99 in the same run, and each upload's speed beside its solo
// speed, with the server's event-loop delay in each phase (perf_hooks.monitorEventLoopDelay, loaded into
// the server by loop-delay.mjs, with the wait of a trivial job on libuv's thread pool), and where the processor went in each phase (/proc): the server's main
// thread, its other threads (libuv's pool: file writes, argon2, SQLite; V8's helpers), the uploaders'
// process, this process (autocannon and the Stripe stand-in), and the rest of the machine.
//
// Fairness: the uploaders stand for remote machines, whose hashing and sending would cost this machine
// nothing, yet here they take the same two cores as the server. BENCH_MIXED_UPLOADER_NICE runs their process
// at that lower OS priority (os.setPriority; default 0, as the server's): the closer model of remote
// clients, since the processor then goes to the server and the load generator first. Run it both ways: the
// printed note says which was used. Goal: each p99 <= 2x its idle p99, and no upload slower than 0.8 of its
// solo speed. A benchmark: figures only, never pass/fail; not part of `npm test`.
//
// Environment: BENCH_SECONDS (per call and phase, default 10), BENCH_CONNECTIONS (per call, default 10),
// BENCH_MIXED_RATES (requests per second for store page, intents, sign-in; default '100,40,5'; 0 = flat
// out), BENCH_MIXED_UPLOADERS (default 8), BENCH_MIXED_FILE_MIB (each file, default 256),
// BENCH_MIXED_UPLOADER_NICE (0 to 19, default 0), BENCH_SERVER_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'; the loaded phase's window is printed
// for profile-summary.mjs), BENCH_SERVER_ENV (extra server settings, 'NAME=value,NAME=value'),
// BENCH_SKIP_BUILD=1 to use the dist folders as they are.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { StripeStandIn } from '../../api/test/helpers/stripe-stand-in.ts';
import { compileTypeScript, runBin } from '../../build/scripts/lib.mjs';
import { writeSourceFile } from './loopback-limit.mjs';
import { cpuSeconds } from './process-stats.mjs';
import { clientToken, freePort, startBenchServer } from './server.mjs';

const MIB = 1024 * 1024;
const SECONDS = Math.max(2, Number(process.env.BENCH_SECONDS ?? 10));
const CONNECTIONS = Math.max(1, Number(process.env.BENCH_CONNECTIONS ?? 10));
const RATES = (process.env.BENCH_MIXED_RATES ?? '100,40,5').split(',').map(Number);
const UPLOADERS = Math.max(1, Number(process.env.BENCH_MIXED_UPLOADERS ?? 8));
const FILE_SIZE = Math.max(8, Number(process.env.BENCH_MIXED_FILE_MIB ?? 256)) * MIB;
const UPLOADER_NICE = Math.min(19, Math.max(0, Number(process.env.BENCH_MIXED_UPLOADER_NICE ?? 0)));
const WARM_UP_SECONDS = 2;
const here = fileURLToPath(new URL('.', import.meta.url));
const serverNodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const extraEnv = Object.fromEntries(
  (process.env.BENCH_SERVER_ENV ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=')),
);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Processor seconds of one thread of a process (the main thread's id is the process's). */
const threadCpuSeconds = (pid, tid) => {
  const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
/** The whole machine's busy and total processor seconds so far (/proc/stat), over all cores. */
const machineCpuSeconds = () => {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = ticks.map(Number);
  const idle = n[3] + n[4];
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / 100, total: total / 100 };
};

if (!process.env.BENCH_SKIP_BUILD) {
  compileTypeScript();
  runBin('typescript/bin/tsc', ['-b', 'desktop/tsconfig.json']);
}

const work = mkdtempSync(join(tmpdir(), 'avp-bench-mixed-'));
const source = join(work, 'source.bin');
writeSourceFile(source, FILE_SIZE);
const stripe = await new StripeStandIn().start();
const loopPort = await freePort();
const server = await startBenchServer({
  name: 'mixed',
  stdout: serverNodeArgs.length > 0 ? 'inherit' : 'ignore',
  nodeArgs: ['--import', join(here, 'loop-delay.mjs'), ...serverNodeArgs],
  env: {
    STORAGE_DRIVER: 'local',
    STRIPE_SECRET_KEY: 'sk_test_mixed0123456789',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_mixed0123456789',
    STRIPE_WEBHOOK_SECRET: 'whsec_mixed0123456789',
    STRIPE_API_URL: stripe.url,
    // The bench signs in from one address, far more often than a person would.
    SIGN_INS_PER_15_MINUTES_PER_ADDRESS: '100000',
    REGISTRATIONS_PER_HOUR_PER_ADDRESS: '1000',
    BENCH_LOOP_DELAY_PORT: String(loopPort),
    ...extraEnv,
  },
});
const { url } = server;
const loopDelay = {
  reset: () => fetch(`http://127.0.0.1:${loopPort}/reset`).then((r) => r.text()),
  read: () => fetch(`http://127.0.0.1:${loopPort}/read`).then((r) => r.json()),
};

let uploaders;
/** Set once the uploaders run, so the processor table counts them. */
let uploadersPid;
/** Where the processor went since `from` (a snapshot of cpu()), in cores. */
const cpu = () => {
  const pid = server.child.pid;
  const machine = machineCpuSeconds();
  return {
    at: performance.now(),
    serverMain: threadCpuSeconds(pid, pid),
    server: cpuSeconds(pid),
    uploaders: uploadersPid ? cpuSeconds(uploadersPid) : 0,
    bench: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    busy: machine.busy,
  };
};
const cores = (from, to = cpu()) => {
  const s = (to.at - from.at) / 1000;
  const c = (k) => Number(((to[k] - from[k]) / s).toFixed(2));
  const serverMain = c('serverMain');
  const serverOther = Number((c('server') - serverMain).toFixed(2));
  const rest = Number((c('busy') - c('server') - c('uploaders') - c('bench')).toFixed(2));
  return { serverMain, serverOther, uploaders: c('uploaders'), bench: c('bench'), rest };
};
try {
  const signIn = await clientToken(url, 'mixed-sign-in@example.com');
  const tokens = [];
  for (let i = 0; i < UPLOADERS; i++) tokens.push((await clientToken(url, `mixed-${i}@example.com`)).token);

  const storeRes = await fetch(`${url}/api/stores/demo-expo`);
  const { store } = await storeRes.json();
  const cart = store.products
    .slice(0, 3)
    .map((product, index) => ({ productId: product.id, count: index + 1 }));
  const json = { 'content-type': 'application/json', origin: url };
  const calls = [
    {
      name: 'GET /api/stores/demo-expo (store page)',
      status: 200,
      options: { url: `${url}/api/stores/demo-expo` },
    },
    {
      name: 'POST …/payment-intents (intent creation)',
      status: 201,
      options: {
        url: `${url}/api/stores/demo-expo/payment-intents`,
        method: 'POST',
        headers: json,
        body: JSON.stringify({ cart }),
      },
    },
    {
      name: 'POST /api/auth/login (sign-in)',
      status: 200,
      options: {
        url: `${url}/api/auth/login`,
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: signIn.email, password: signIn.password }),
      },
    },
  ].map((call, i) => ({ ...call, rate: RATES[i] ?? 0 }));

  const hammer = (call, seconds) =>
    autocannon({
      connections: CONNECTIONS,
      duration: seconds,
      ...(call.rate > 0 ? { overallRate: call.rate } : {}),
      ...call.options,
    });

  /** One call for SECONDS: p99, req/s, answers of another status, and the server's loop delay meanwhile. */
  const measureCall = async (call) => {
    await loopDelay.reset();
    const from = cpu();
    const result = await hammer(call, SECONDS);
    const used = cores(from);
    const delay = await loopDelay.read();
    const others = Object.entries(result.statusCodeStats ?? {})
      .filter(([code]) => Number(code) !== call.status)
      .map(([code, s]) => `${s.count}×${code}`);
    if (result.errors + result.timeouts > 0) others.push(`${result.errors + result.timeouts}×error`);
    return {
      // None answered in time: no latency to read (autocannon counts 0).
      p99: (result.statusCodeStats?.[call.status]?.count ?? 0) > 0 ? result.latency.p99 : Infinity,
      rps: result.requests.average,
      other: others.join(' ') || '0',
      delay,
      used,
    };
  };

  console.log(
    `bench:mixed: ${UPLOADERS} uploaders (files of ${FILE_SIZE / MIB} MiB, 4 parts in flight each); ` +
      `autocannon ${CONNECTIONS} connections, ${SECONDS} s per call, ` +
      `${calls.map((c) => (c.rate > 0 ? `${c.rate} req/s` : 'flat out')).join(' / ')}; SQLite, local storage, Stripe stand-in; ` +
      `uploaders' process at nice ${UPLOADER_NICE}${UPLOADER_NICE > 0 ? ' (standing for remote machines: the processor goes to the server and the load generator first)' : ' (as the server: they take the same cores as remote machines would not)'}\n`,
  );

  // Idle: nothing but the call.
  for (const call of calls) await hammer(call, WARM_UP_SECONDS);
  for (const call of calls) call.idle = await measureCall(call);

  // Uploads: started, given time to reach speed, then windows of their bytes.
  uploaders = fork(join(here, 'mixed-uploaders.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const replies = [];
  let wake = () => undefined;
  uploaders.on('message', (m) => {
    replies.push(m);
    wake();
  });
  const ask = async (message, type) => {
    uploaders.send(message);
    for (;;) {
      const i = replies.findIndex((m) => m.type === type);
      if (i >= 0) return replies.splice(i, 1)[0];
      await new Promise((r) => (wake = r));
    }
  };
  const readBytes = () => ask({ type: 'read' }, 'bytes');
  uploadersPid = uploaders.pid;
  const window = async (during) => {
    const from = await readBytes();
    const cpu0 = cpu();
    const out = await during();
    const to = await readBytes();
    const used = cores(cpu0);
    const seconds = (to.at - from.at) / 1000;
    return {
      out,
      seconds,
      used,
      serverCpu: used.serverMain + used.serverOther,
      speeds: to.bytes.map((b, i) => (b - from.bytes[i]) / 1e6 / seconds),
      errors: to.errors,
    };
  };
  const quiet = async () => {
    await loopDelay.reset();
    await sleep(SECONDS * 1000);
    return loopDelay.read();
  };

  uploaders.send({ type: 'begin', url, tokens, file: source, size: FILE_SIZE, nice: UPLOADER_NICE });
  await sleep(3_000);
  const soloBefore = await window(quiet);
  const started = process.hrtime.bigint() / 1000n;
  const loaded = await window(async () => {
    for (const call of calls) {
      const from = await readBytes();
      call.loaded = await measureCall(call);
      const to = await readBytes();
      call.uploadMBps =
        to.bytes.reduce((sum, b, i) => sum + b - from.bytes[i], 0) / 1e6 / ((to.at - from.at) / 1000);
    }
  });
  const ended = process.hrtime.bigint() / 1000n;
  const soloAfter = await window(quiet);
  const { errors } = await ask({ type: 'stop' }, 'stopped');

  const ratio = (a, b) => (b > 0 && Number.isFinite(a / b) ? Number((a / b).toFixed(2)) : Infinity);
  const ms = (p99) => (Number.isFinite(p99) ? p99 : 'none answered');
  const callRows = calls.map((c) => ({
    call: c.name,
    'idle p99 ms': ms(c.idle.p99),
    'p99 ms, uploading': ms(c.loaded.p99),
    '× idle': ratio(c.loaded.p99, c.idle.p99),
    'req/s idle / uploading': `${Math.round(c.idle.rps)} / ${Math.round(c.loaded.rps)}`,
    'other status or error': `${c.idle.other} / ${c.loaded.other}`,
    'loop delay p99 ms idle / uploading': `${c.idle.delay.p99} / ${c.loaded.delay.p99}`,
    'pool wait p99 ms idle / uploading': `${c.idle.delay.poolP99} / ${c.loaded.delay.poolP99}`,
    'uploads MB/s meanwhile': Number(c.uploadMBps.toFixed(1)),
  }));
  const cpuRows = [
    ...calls.flatMap((c) => [
      { phase: `${c.name}, idle`, ...c.idle.used },
      { phase: `${c.name}, uploading`, ...c.loaded.used },
    ]),
    { phase: 'uploads alone, before', ...soloBefore.used },
    { phase: 'uploads alone, after', ...soloAfter.used },
  ].map(({ phase, serverMain, serverOther, uploaders: up, bench, rest }) => ({
    phase,
    'server main thread': serverMain,
    'server other threads': serverOther,
    uploaders: up,
    'autocannon + Stripe stand-in': bench,
    'rest of the machine': rest,
  }));
  const soloSeconds = soloBefore.seconds + soloAfter.seconds;
  const uploadRows = loaded.speeds.map((speed, i) => {
    const solo =
      (soloBefore.speeds[i] * soloBefore.seconds + soloAfter.speeds[i] * soloAfter.seconds) / soloSeconds;
    return {
      client: i + 1,
      'solo MB/s (before / after)': `${soloBefore.speeds[i].toFixed(1)} / ${soloAfter.speeds[i].toFixed(1)}`,
      'solo MB/s': Number(solo.toFixed(1)),
      'MB/s beside the calls': Number(speed.toFixed(1)),
      'of solo': ratio(speed, solo),
    };
  });
  console.table(callRows);
  console.table(uploadRows);
  console.log('processor, in cores (of 2), per phase:');
  console.table(cpuRows);
  const total = (w) => w.speeds.reduce((a, b) => a + b, 0);
  console.log(
    `uploads in all: solo ${total(soloBefore).toFixed(1)} / ${total(soloAfter).toFixed(1)} MB/s (before / after), ` +
      `beside the calls ${total(loaded).toFixed(1)} MB/s; server CPU ` +
      `${soloBefore.serverCpu.toFixed(2)} / ${loaded.serverCpu.toFixed(2)} / ${soloAfter.serverCpu.toFixed(2)} cores; ` +
      `server loop delay p99 (max) with uploads alone: ${soloBefore.out.p99} (${soloBefore.out.max}) ms before, ` +
      `${soloAfter.out.p99} (${soloAfter.out.max}) ms after; thread-pool wait p99 ${soloBefore.out.poolP99} / ${soloAfter.out.poolP99} ms`,
  );
  // A shared machine's other work shows here: the figures of a busy run say little.
  console.log(`machine load average (1 min) at the end: ${loadavg()[0].toFixed(1)}`);
  console.log(
    `uploaders' process ran at nice ${UPLOADER_NICE}` +
      (UPLOADER_NICE > 0
        ? ': a model of remote clients (their processor time yields to the server and autocannon); run with BENCH_MIXED_UPLOADER_NICE=0 for the harsher same-machine figures'
        : ': they compete with the server as equals, which remote clients would not; BENCH_MIXED_UPLOADER_NICE=10 models remote clients'),
  );
  if (errors.length > 0) console.log(`upload errors: ${errors.join('; ')}`);
  if (serverNodeArgs.length > 0) {
    console.log(`server ${server.child.pid}, the calls beside the uploads: --from ${started} --to ${ended}`);
  }
  const worstCall = callRows.reduce((w, r) => (r['× idle'] > w['× idle'] ? r : w));
  const worstUpload = uploadRows.reduce((w, r) => (r['of solo'] < w['of solo'] ? r : w));
  console.log(
    `goal: each call's p99 <= 2× idle and each upload >= 0.8 of its solo speed; ` +
      `worst p99 ${worstCall['× idle']}× idle (${worstCall.call}), worst upload ${worstUpload['of solo']} of solo (client ${worstUpload.client})`,
  );
} finally {
  if (uploaders && uploaders.exitCode === null) {
    uploaders.kill();
    await new Promise((r) => uploaders.once('exit', r));
    // The parts it had under way fail on the server first, not against a database already closed.
    await sleep(500);
  }
  await server.stop();
  await stripe.stop();
  rmSync(work, { recursive: true, force: true });
}

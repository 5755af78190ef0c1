// The fault injector's repertoire. Each fault has a name, `inject()` (resolves when the fault is over:
// the process restarted, the database reachable again, the link released…) and `probe()`, the first real
// call that shows the service recovered from it (resolves true on success).
import { sleep } from './http.mjs';

/**
 * ctx: { slots, pgProxy, s3Proxy, linkProxy, provider, probes, durationMs, blackholeMs, log }
 * probes: { server(slot) (a real call on one process: /api/ready when it exists, else a signed-in read),
 *           throughLink() (the same through the client's link), s3(slot) (a stored file read back through a
 *           process), providerImport() (a fresh import to completion) }
 */
export function faultRepertoire(ctx) {
  const { slots, pgProxy, s3Proxy, linkProxy, provider, probes, durationMs, blackholeMs } = ctx;
  const allServers = async () => (await Promise.all(slots.map((slot) => probes.server(slot)))).every(Boolean);
  const s3Fault = (kind) => async () => {
    s3Proxy.fault = { kind, share: 0.5, slowMs: 4_000 };
    await sleep(durationMs);
    s3Proxy.fault = null;
  };
  const allS3 = async () => (await Promise.all(slots.map((slot) => probes.s3(slot)))).every(Boolean);
  return [
    {
      // Always the last process: the first lives through the whole soak, the witness of its memory.
      name: 'kill -9 of an API process, restarted 2 s later',
      async inject() {
        const slot = slots.at(-1);
        await slot.kill();
        await sleep(2_000);
        // The fault is over once the restart is under way: its start-up time is part of the recovery.
        slot
          .start()
          .catch((error) => ctx.log(`restarting API process ${slot.index} failed: ${error.message}`));
      },
      probe() {
        return probes.server(slots.at(-1));
      },
    },
    {
      name: `PostgreSQL restart (every connection cut, refused for ${durationMs / 1000} s)`,
      async inject() {
        await pgProxy.refuse();
        await sleep(durationMs);
        await pgProxy.accept();
      },
      probe: allServers,
    },
    {
      name: `S3 503 SlowDown (half the calls, ${durationMs / 1000} s)`,
      inject: s3Fault('slowdown'),
      probe: allS3,
    },
    {
      name: `link blackhole between clients and server (${blackholeMs / 1000} s)`,
      async inject() {
        linkProxy.hold();
        await sleep(blackholeMs);
        linkProxy.release();
      },
      probe: () => probes.throughLink(),
    },
    {
      name: `provider stall (206 headers and 1 MiB, then silence, ${durationMs / 1000} s)`,
      async inject() {
        provider.stall();
        await sleep(durationMs);
        provider.unstall();
      },
      probe: () => probes.providerImport(),
    },
    {
      name: `S3 connection resets (half the calls, ${durationMs / 1000} s)`,
      inject: s3Fault('reset'),
      probe: allS3,
    },
    {
      name: 'link reset (every client connection cut)',
      async inject() {
        linkProxy.cut();
      },
      probe: () => probes.throughLink(),
    },
    {
      name: `link stall (${durationMs / 1000} s without a byte)`,
      async inject() {
        linkProxy.hold();
        await sleep(durationMs);
        linkProxy.release();
      },
      probe: () => probes.throughLink(),
    },
    {
      name: `S3 500 InternalError (half the calls, ${durationMs / 1000} s)`,
      inject: s3Fault('internal'),
      probe: allS3,
    },
    {
      name: `S3 slow (half the answers 4 s late, ${durationMs / 1000} s)`,
      inject: s3Fault('slow'),
      probe: allS3,
    },
  ];
}

/**
 * Every `everyMs` (±25%), the next fault: the repertoire in its order first (so that a short soak meets the
 * weightiest ones), then shuffled rounds. Waits for each fault's recovery (up to `recoveryCapMs`) before the
 * next, so each recovery is its own.
 */
export async function runInjector({
  repertoire,
  running,
  everyMs,
  recoveryCapMs,
  results,
  log,
  beforeFirst,
}) {
  let round = [...repertoire];
  let first = true;
  while (running()) {
    await sleep(everyMs * (0.75 + Math.random() / 2));
    if (!running()) break;
    if (first) beforeFirst?.();
    first = false;
    if (round.length === 0) round = [...repertoire].sort(() => Math.random() - 0.5);
    const fault = round.shift();
    const began = Date.now();
    log(`fault: ${fault.name}`);
    await fault.inject();
    const ended = Date.now();
    let recoveredAt;
    while (Date.now() - ended < recoveryCapMs) {
      if (await fault.probe().catch(() => false)) {
        recoveredAt = Date.now();
        break;
      }
      await sleep(200);
    }
    const result = {
      name: fault.name,
      at: began,
      lastedMs: ended - began,
      recoveryMs: recoveredAt === undefined ? undefined : recoveredAt - ended,
    };
    results.push(result);
    log(
      `fault over: ${fault.name}; ${result.recoveryMs === undefined ? `no success within ${recoveryCapMs / 1000} s` : `first success ${(result.recoveryMs / 1000).toFixed(1)} s after`}`,
    );
  }
}

// Loaded into a bench's server with `node --import` (bench:mixed): how late the server's event loop runs,
// from perf_hooks.monitorEventLoopDelay, read over a little HTTP listener of its own on
// BENCH_LOOP_DELAY_PORT (127.0.0.1). GET /reset starts a new window; GET /read answers the window's delay
// percentiles in milliseconds. The listener shares the loop it measures, so it is asked only between
// phases, never timed. Nothing of the server's own code knows of it.
//
// Beside it, how long libuv's thread pool keeps a job waiting: every 50 ms a file's stat (a job that takes
// microseconds once a thread has it) is timed from the call to its callback. Its p99 is the wait of a job
// queued behind the pool's other work (file writes, argon2, SQLite) plus the loop's own delay in running
// the callback, so the two read together: a pool p99 well above the loop's is a full pool.
import { stat } from 'node:fs';
import { createServer } from 'node:http';
import { createHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const port = Number(process.env.BENCH_LOOP_DELAY_PORT);
if (port > 0) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const pool = createHistogram();
  const self = fileURLToPath(import.meta.url);
  const probe = () => {
    const start = process.hrtime.bigint();
    stat(self, () => {
      pool.record(Math.max(1, Number(process.hrtime.bigint() - start)));
      setTimeout(probe, 50).unref();
    });
  };
  probe();
  const ms = (ns) => Number((ns / 1e6).toFixed(1));
  const server = createServer((req, res) => {
    if (req.url === '/reset') {
      histogram.reset();
      pool.reset();
      res.end('{}');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        mean: ms(histogram.mean),
        poolP99: ms(pool.percentile(99)),
        poolMax: ms(pool.max),
      }),
    );
  });
  server.listen(port, '127.0.0.1');
  // Never what keeps the server alive.
  server.unref();
}

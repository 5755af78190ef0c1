// Loaded into a bench's server with `node --import` (bench:mixed): how late the server's event loop runs,
// from perf_hooks.monitorEventLoopDelay, read over a little HTTP listener of its own on
// BENCH_LOOP_DELAY_PORT (127.0.0.1). GET /reset starts a new window; GET /read answers the window's delay
// percentiles in milliseconds. The listener shares the loop it measures, so it is asked only between
// phases, never timed. Nothing of the server's own code knows of it.
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const port = Number(process.env.BENCH_LOOP_DELAY_PORT);
if (port > 0) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns) => Number((ns / 1e6).toFixed(1));
  const server = createServer((req, res) => {
    if (req.url === '/reset') {
      histogram.reset();
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
      }),
    );
  });
  server.listen(port, '127.0.0.1');
  // Never what keeps the server alive.
  server.unref();
}

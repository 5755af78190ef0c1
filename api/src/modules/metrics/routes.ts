import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';
import { setRoutePattern } from '../../http/route-pattern.js';
import type { ProcessMetrics } from './metrics.js';

export const METRICS_PATH = '/metrics';
const BEARER = /^Bearer\s+(.+)$/i;

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function hasMetricsToken(req: IncomingMessage, token: string): boolean {
  const given = BEARER.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? '';
  // Digests of equal length, so neither the comparison nor its length check says how much matched.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b) && given.length > 0;
}

async function scrape(metrics: ProcessMetrics, res: ServerResponse): Promise<void> {
  const text = await metrics.registry.metrics();
  res.statusCode = 200;
  res.setHeader('Content-Type', metrics.registry.contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.end(text);
}

/**
 * GET /metrics on the main port: only when METRICS_TOKEN is set, and then only with it as a bearer token
 * (401 otherwise). Without the token it answers 404, as if there were no such page.
 */
export function metricsRoute(config: Pick<Config, 'METRICS_TOKEN'>, metrics: ProcessMetrics): RequestHandler {
  // Node's own metrics are gathered only where someone can read them.
  if (config.METRICS_TOKEN !== undefined) metrics.withProcessDefaults();
  return (req, res, next) => {
    // Mounted with use(): /metrics/anything and other methods are not this page.
    if (req.path !== '/' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      next();
      return;
    }
    setRoutePattern(req, METRICS_PATH);
    const token = config.METRICS_TOKEN;
    if (token === undefined) {
      next(new AppError(404, 'not_found', `No such route: ${req.method} ${METRICS_PATH}`));
      return;
    }
    if (!hasMetricsToken(req, token)) {
      res.set('WWW-Authenticate', 'Bearer realm="metrics"');
      next(new AppError(401, 'unauthenticated', 'The metrics need the bearer token set in METRICS_TOKEN.'));
      return;
    }
    scrape(metrics, res).catch(next);
  };
}

export interface MetricsServer {
  /** http://127.0.0.1:PORT/metrics */
  url: string;
  stop(): Promise<void>;
}

/**
 * METRICS_PORT: /metrics on a listener of its own bound to 127.0.0.1, for a Prometheus (or an agent) on
 * the same machine, so nothing about it is reachable from outside. METRICS_TOKEN, when also set, is asked
 * for here too.
 */
export async function startMetricsServer(
  config: Pick<Config, 'METRICS_TOKEN'>,
  metrics: ProcessMetrics,
  port: number,
): Promise<MetricsServer> {
  metrics.withProcessDefaults();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (config.METRICS_TOKEN !== undefined && !hasMetricsToken(req, config.METRICS_TOKEN)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"' }).end();
      return;
    }
    scrape(metrics, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${METRICS_PATH}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

import { STATUS_CODES } from 'node:http';
import type { RequestHandler } from 'express';
import { routePattern, UNMATCHED_ROUTE } from '../../http/route-pattern.js';
import type { ProcessMetrics } from './metrics.js';

// Node's parser accepts only known methods, but the label still keeps to a short list.
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts every request by method, route pattern and status, and times it, once its answer is sent (or
 * its connection closes first: status "aborted"). A request no route answered is labelled by what it
 * was: the web app's pages and files ("web") or nothing at all (UNMATCHED_ROUTE), never by its path.
 */
export function countRequests(metrics: ProcessMetrics): RequestHandler {
  return (req, res, next) => {
    // performance.now() rather than startTimer(): no closure per request, no merging of label objects.
    const started = performance.now();
    res.once('close', () => {
      const method = METHODS.has(req.method) ? req.method : 'other';
      let route = routePattern(req);
      if (route === UNMATCHED_ROUTE && res.statusCode < 400 && !req.originalUrl.startsWith('/api/')) {
        route = 'web';
      }
      const status =
        res.writableFinished && STATUS_CODES[res.statusCode] !== undefined
          ? String(res.statusCode)
          : 'aborted';
      metrics.httpRequests.inc({ method, route, status });
      metrics.httpDuration.observe({ method, route }, (performance.now() - started) / 1000);
    });
    next();
  };
}

import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

/** The label of a request no route answered (a 404, or one refused before its route: CSRF, too large). */
export const UNMATCHED_ROUTE = 'unmatched';

const patterns = new WeakMap<IncomingMessage, string>();

/**
 * Remembers the Express route pattern a request matched (`/api/uploads/files/:id/parts/:n`), for the
 * metrics' labels and the error log line, which must never carry raw paths or ids. The pattern has to be
 * read when the router assigns `req.route`: that is the one moment `req.baseUrl` still holds the mount
 * path of the router the route belongs to (Express restores it on the way out, before an error handler).
 */
export const captureRoutePattern: RequestHandler = (req, _res, next) => {
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: unknown) {
      route = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string') patterns.set(req, req.baseUrl + path);
      else if (Array.isArray(path)) patterns.set(req, req.baseUrl + path.map(String).join(','));
    },
  });
  next();
};

/** Names the pattern of a request answered by a middleware rather than a route (/metrics). */
export function setRoutePattern(req: IncomingMessage, pattern: string): void {
  patterns.set(req, pattern);
}

/** The route pattern the request matched, or UNMATCHED_ROUTE. */
export function routePattern(req: IncomingMessage): string {
  return patterns.get(req) ?? UNMATCHED_ROUTE;
}

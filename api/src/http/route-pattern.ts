import type { IncomingMessage } from 'node:http';

/** The label of a request no route answered (a 404, or one refused before its route: CSRF, too large). */
export const UNMATCHED_ROUTE = 'unmatched';

const PATTERN = Symbol('routePattern');
const ROUTE = Symbol('route');

type Patterned = IncomingMessage & { [PATTERN]?: string; [ROUTE]?: unknown };

/**
 * Remembers the Express route pattern a request matched (`/api/uploads/files/:id/parts/:n`), for the
 * metrics' labels and the error log line, which must never carry raw paths or ids. The pattern has to be
 * read when the router assigns `req.route`: that is the one moment `req.baseUrl` still holds the mount
 * path of the router the route belongs to (Express restores it on the way out, before an error handler).
 *
 * The accessor sits once on the app's request prototype (every request of the app, and of apps mounted in
 * it, inherits from it), not on each request: a per-request accessor gave every request object a map of
 * its own, and every later property read on it went megamorphic (bench:requests, #34).
 */
export function captureRoutePatterns(app: { request: object }): void {
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    enumerable: true,
    get(this: Patterned) {
      return this[ROUTE];
    },
    set(this: Patterned & { baseUrl?: string }, value: unknown) {
      this[ROUTE] = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string') this[PATTERN] = (this.baseUrl ?? '') + path;
      else if (Array.isArray(path)) this[PATTERN] = (this.baseUrl ?? '') + path.map(String).join(',');
    },
  });
}

/** Names the pattern of a request answered by a middleware rather than a route (/metrics). */
export function setRoutePattern(req: IncomingMessage, pattern: string): void {
  (req as Patterned)[PATTERN] = pattern;
}

/**
 * The route pattern the request matched, or UNMATCHED_ROUTE. A request stopped before its route ran (a
 * database failure while its session was read, a cross-site refusal, a body too large) is given the
 * pattern of the route it was for, found with the routers' own matchers.
 */
export function routePattern(req: IncomingMessage): string {
  let pattern = (req as Patterned)[PATTERN];
  if (pattern === undefined) {
    const app = (req as { app?: { router?: { stack?: Layer[] } } }).app;
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    const pathname = url.split('?')[0] ?? '/';
    pattern = routeFor(app?.router?.stack ?? [], pathname, req.method ?? 'GET', '') ?? UNMATCHED_ROUTE;
    (req as Patterned)[PATTERN] = pattern;
  }
  return pattern;
}

/** What the `router` package (Express 5) keeps of each `use()` and route. */
interface Layer {
  /** Pure in router 2: what of `path` the layer matches, without touching the request. */
  match?: (path: string) => { path: string } | false;
  route?: { path: unknown; methods: Record<string, boolean | undefined> };
  handle?: { stack?: Layer[] };
}

/**
 * A layer's match, or false. Matching decodes the path's parameters, which throws URIError on a malformed
 * escape ('/api/stores/%ZZ'); this runs when the answer is logged, after the request's own handling, where
 * a throw would escape every handler and end the process. Such a path is simply not a route's.
 */
function matchOf(layer: Layer, path: string): { path: string } | false {
  try {
    return layer.match?.(path) ?? false;
  } catch {
    return false;
  }
}

function routeFor(stack: Layer[], path: string, method: string, base: string): string | undefined {
  const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
  for (const layer of stack) {
    const matched = matchOf(layer, path);
    if (!matched) continue;
    if (layer.route) {
      const methods = layer.route.methods;
      if (methods[verb] !== true && methods._all !== true) continue;
      const own = layer.route.path;
      return base + (typeof own === 'string' ? own : Array.isArray(own) ? own.map(String).join(',') : '');
    }
    const inner = layer.handle?.stack;
    if (!Array.isArray(inner)) continue;
    const found = routeFor(inner, path.slice(matched.path.length) || '/', method, base + matched.path);
    if (found !== undefined) return found;
  }
  return undefined;
}

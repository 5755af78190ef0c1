import type { RequestHandler, Router } from 'express';

/** What the `router` package (Express 5) keeps of each `use()` and route: the path it was given. */
interface Layer {
  rawPath?: unknown;
  route?: unknown;
  handle?: unknown;
}

// Anything in a first segment but plain characters makes it a pattern (`:id`, `*rest`, `{/:x}`, `(…)`).
const PATTERN_CHARS = /[:*?+(){}[\]\\]/;

/** The first segment of a layer's path ('uploads' of '/uploads/files/:id'), or undefined if it has none. */
function firstLiteralSegment(path: unknown): string | undefined {
  if (typeof path !== 'string' || !path.startsWith('/')) return undefined;
  const end = path.indexOf('/', 1);
  const segment = end === -1 ? path.slice(1) : path.slice(1, end);
  if (segment === '' || PATTERN_CHARS.test(segment)) return undefined;
  return segment.toLowerCase();
}

/**
 * The first segments of every layer of the router, or undefined when one of them may match any path. A
 * router used at '/' inside it (a module's routers joined into one) adds its own layers' segments.
 */
function firstSegmentsOf(router: unknown, segments = new Set<string>()): Set<string> | undefined {
  const stack = (router as { stack?: unknown } | undefined)?.stack;
  if (!Array.isArray(stack)) return undefined;
  for (const layer of stack as Layer[]) {
    if (layer.route === undefined && layer.rawPath === '/') {
      if (firstSegmentsOf(layer.handle, segments) === undefined) return undefined;
      continue;
    }
    const paths = Array.isArray(layer.rawPath) ? (layer.rawPath as unknown[]) : [layer.rawPath];
    for (const path of paths) {
      const segment = firstLiteralSegment(path);
      if (segment === undefined) return undefined;
      segments.add(segment);
    }
  }
  return segments;
}

/** The first segment of a path ('/uploads/files/…'), lower-cased as the routers (case-insensitive) compare it. */
function firstSegmentOfPath(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * A router used without a mount path (its routes spell their whole path: '/uploads/files/:id') is entered
 * by every request of the API, which Express then matches against each of its routes in turn: a part PUT
 * went through the accounts, store and imports routers' every pattern before reaching the uploads router
 * (bench:requests, #34). This hands the router only the requests whose first path segment one of its own
 * routes or middlewares starts with, and passes the rest on at once. Routers' paths match raw (undecoded)
 * and case-insensitively, so the segment is compared raw and lower-cased: a request the router could
 * answer always reaches it. A router with a route or middleware whose first segment is a pattern (or '/')
 * is entered by every request, as before. Its layers are read at its first request, when they are all
 * there.
 */
export function onlyItsPaths(router: Router): RequestHandler {
  let segments: Set<string> | null | undefined;
  const gate: RequestHandler & { stack?: unknown } = (req, res, next) => {
    // req.path, not req.url: an absolute-form request line keeps its scheme and host in req.url.
    if (segments === undefined) segments = firstSegmentsOf(router) ?? null;
    if (segments === null || segments.has(firstSegmentOfPath(req.path))) {
      router(req, res, next);
      return;
    }
    next();
  };
  // route-pattern.ts finds the route of a request refused before it (CSRF, a failed session read) by
  // walking the routers' stacks: this one's is the router's.
  gate.stack = (router as { stack?: unknown }).stack;
  return gate;
}

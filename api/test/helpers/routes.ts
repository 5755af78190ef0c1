import type { Express } from 'express';

interface Layer {
  route?: { path: string | RegExp | (string | RegExp)[]; methods: Record<string, boolean> };
  rawPath?: string | RegExp | (string | RegExp)[];
  handle: { stack?: Layer[] };
}

function paths(value: string | RegExp | (string | RegExp)[] | undefined): string[] {
  if (value === undefined) return [''];
  const list = Array.isArray(value) ? value : [value];
  return list.map((p) => (p instanceof RegExp ? `regexp:${p.source}` : p));
}

function join(prefix: string, path: string): string {
  const joined = `${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

/**
 * Every route of the app as 'METHOD /path/:param', sorted. Express 5 keeps its router (the `router`
 * package, v2) on `app.router`; each layer has `rawPath` (where `use()` mounted it, or the route's path),
 * `route` for a route, and `handle.stack` for a mounted router.
 */
export function registeredRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const path of paths(layer.route.path)) {
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') found.push(`${method.toUpperCase()} ${join(prefix, path)}`);
          }
        }
      } else if (Array.isArray(layer.handle.stack)) {
        for (const mount of paths(layer.rawPath)) walk(layer.handle.stack, join(prefix, mount));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return found.sort();
}

/** The path of a route with its `:params` filled in. */
export function fillPath(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${pattern}`);
    return value;
  });
}

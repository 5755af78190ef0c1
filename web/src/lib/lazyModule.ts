/**
 * Code-split components that prerender and hydrate without a flash.
 *
 * `lazyModule(id, loader)` is React.lazy with three additions:
 * - the module is read with `use()` from a promise that carries React's `status`/`value` fields once it
 *   settles, so a module loaded before hydration renders synchronously (no Suspense fallback, no second
 *   pass over the server HTML);
 * - while prerendering, every module rendered is recorded (`takeRenderedModules`), so the build can add
 *   `<link rel="modulepreload">` and the module's CSS to the page and list the ids on #root;
 * - `preloadModules(ids)` loads those ids before `hydrateRoot` (web/src/islands/hydrate.tsx).
 * `id` is the module's path from web/ (e.g. 'src/features/marketing/pages/AboutPage.tsx'): the key of
 * Vite's build manifest.
 */
import { createElement, use } from 'react';
import type { ComponentType } from 'react';

type Thenable<T> = Promise<T> & {
  status?: 'pending' | 'fulfilled' | 'rejected';
  value?: T;
  reason?: unknown;
};

export interface LazyModule<P extends object> {
  (props: P): ReturnType<typeof createElement>;
  displayName?: string;
  readonly moduleId: string;
  preload(): Promise<unknown>;
}

const registry = new Map<string, () => Promise<unknown>>();
const rendered = new Set<string>();

export function lazyModule<P extends object>(
  moduleId: string,
  loader: () => Promise<{ default: ComponentType<P> }>,
): LazyModule<P> {
  let promise: Thenable<{ default: ComponentType<P> }> | undefined;
  const load = () => {
    if (!promise) {
      const started: Thenable<{ default: ComponentType<P> }> = loader();
      started.status = 'pending';
      started.then(
        (value) => {
          started.status = 'fulfilled';
          started.value = value;
        },
        (reason: unknown) => {
          started.status = 'rejected';
          started.reason = reason;
          // A failed chunk load may succeed on the next attempt (a deploy, a flaky network).
          promise = undefined;
        },
      );
      promise = started;
    }
    return promise;
  };
  function Loaded(props: P) {
    if (import.meta.env.SSR) rendered.add(moduleId);
    const module = use(load() as Promise<{ default: ComponentType<P> }>);
    return createElement(module.default, props);
  }
  Loaded.displayName = `Lazy(${moduleId
    .split('/')
    .pop()
    ?.replace(/\.tsx?$/, '')})`;
  Loaded.moduleId = moduleId;
  Loaded.preload = load;
  registry.set(moduleId, load);
  return Loaded as LazyModule<P>;
}

/**
 * Loads the modules a prerendered page used, in the order they rendered: a module declared inside another
 * one's chunk is known once that chunk has loaded. Ids this bundle does not know are skipped.
 */
export async function preloadModules(ids: readonly string[]): Promise<void> {
  const pending: Promise<unknown>[] = [];
  for (const id of ids) {
    let load = registry.get(id);
    if (!load) {
      await Promise.all(pending);
      load = registry.get(id);
    }
    if (load) pending.push(load());
  }
  await Promise.all(pending);
}

/** The modules rendered since the last call (prerendering only). */
export function takeRenderedModules(): string[] {
  const list = [...rendered];
  rendered.clear();
  return list;
}

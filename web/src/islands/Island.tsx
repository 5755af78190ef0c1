/**
 * An island: an interactive part of a prerendered marketing page that hydrates on its own root
 * (web/src/marketing-entry.tsx), so a marketing page ships the code of its live parts only, never the router,
 * the app shell or the rest of the page.
 *
 * In the full app (and in tests) an island is its component inside a `display: contents` box. While the build
 * prerenders a page (web/src/entry-server.tsx provides IslandContext), it is an empty box naming the island and
 * its props; the prerender then renders each island as a root of its own and puts that HTML in the box, so the
 * markup matches what `hydrateRoot` renders on the page, React's generated ids included.
 */
import { createContext, use, useId } from 'react';
import type { ComponentType } from 'react';
import type { IslandName } from './names';

export interface IslandCollector {
  add(slot: string, name: IslandName, props: object): void;
}

export const IslandContext = createContext<IslandCollector | null>(null);

export interface IslandProps<P extends object> {
  name: IslandName;
  component: ComponentType<P>;
  /** Serialised into the page: plain data only. */
  props: P;
}

export function Island<P extends object>({ name, component: Component, props }: IslandProps<P>) {
  const collector = use(IslandContext);
  // Stable across the retries of a suspended render, so an island is collected once.
  const slot = useId();
  if (collector) {
    collector.add(slot, name, props);
    return (
      <div className="island" data-island={name} data-island-slot={slot} data-props={JSON.stringify(props)} />
    );
  }
  return (
    <div className="island">
      <Component {...props} />
    </div>
  );
}

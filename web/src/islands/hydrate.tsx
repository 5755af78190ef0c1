/**
 * Hydrates one island of a prerendered marketing page on a root of its own. Loaded by marketing-entry.tsx only
 * when a visitor reaches for an island, so React itself is not part of a marketing page's first load.
 */
import { createElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { preloadModules } from '../lib/lazyModule';
import { IslandRoot } from './IslandRoot';
import type { IslandName } from './names';
import { ISLANDS } from './registry';

/** Resolves once the island is hydrated and its effects have run. */
export async function hydrateIsland(element: HTMLElement): Promise<void> {
  const component = ISLANDS[element.dataset.island as IslandName];
  if (!component) return;
  const props = JSON.parse(element.dataset.props ?? '{}') as object;
  // Code-split modules the island was prerendered with, loaded first so hydration never meets a fallback.
  const modules = (element.dataset.modules ?? '').split(' ').filter(Boolean);
  if (modules.length > 0) await preloadModules(modules).catch(() => undefined);
  await new Promise<void>((resolve) => {
    hydrateRoot(element, <IslandRoot onHydrated={resolve}>{createElement(component, props)}</IslandRoot>, {
      identifierPrefix: element.dataset.idPrefix,
    });
  });
}

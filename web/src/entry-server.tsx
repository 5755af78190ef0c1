/**
 * The prerender entry (built by `vite build --ssr`, run by build/scripts/prerender.mjs): renders one URL of
 * the app to HTML, waiting for every code-split module on the way, and reports which modules it used.
 *
 * The page is rendered whole, but its islands (islands/Island.tsx) come out as empty boxes; each is then
 * rendered as a root of its own, with an id prefix of its own, and put in its box: islands/hydrate.tsx
 * hydrates each box with exactly that tree.
 */
import { StrictMode } from 'react';
import type { ReactNode } from 'react';
import { createElement } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app/App';
import { IslandContext } from './islands/Island';
import { IslandRoot } from './islands/IslandRoot';
import type { IslandCollector } from './islands/Island';
import type { IslandName } from './islands/names';
import { ISLANDS } from './islands/registry';
import { takeRenderedModules } from './lib/lazyModule';

export { NOT_FOUND_META, PAGES } from './content/pages';
export { site } from './content/site';

export interface RenderedPage {
  html: string;
  /** Module ids (paths from web/) of the lazy modules the page rendered, islands included. */
  modules: string[];
  /** Those the islands rendered: islands/hydrate.tsx loads them before it hydrates the island. */
  islandModules: string[];
  /** The islands on the page. */
  islands: IslandName[];
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

async function renderStatic(node: ReactNode, identifierPrefix?: string): Promise<string> {
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(node, {
    identifierPrefix,
    onError: (error) => void errors.push(error),
    // Every boundary inline, however large: React would otherwise move big ones to the end of the document
    // with an inline script to put them in place, which the Content-Security-Policy (script-src 'self') blocks.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
  });
  let html = '';
  for await (const chunk of prelude)
    html += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  if (errors.length > 0) throw new AggregateError(errors);
  return html;
}

export async function render(url: string): Promise<RenderedPage> {
  takeRenderedModules();
  const found = new Map<string, { name: IslandName; props: object }>();
  const collector: IslandCollector = { add: (slot, name, props) => void found.set(slot, { name, props }) };
  let html: string;
  try {
    html = await renderStatic(
      <StrictMode>
        <IslandContext value={collector}>
          <StaticRouter location={url}>
            <App />
          </StaticRouter>
        </IslandContext>
      </StrictMode>,
    );
  } catch (error) {
    throw new AggregateError([error], `prerendering ${url} failed`, { cause: error });
  }
  const modules = takeRenderedModules();
  const islandModules: string[] = [];
  let index = 0;
  for (const [slot, { name, props }] of found) {
    const marker = `data-island-slot="${escapeAttribute(slot)}"`;
    const at = html.indexOf(marker);
    const end = html.indexOf('></div>', at);
    if (at < 0 || end < 0) throw new Error(`prerendering ${url}: the box of island ${name} is missing`);
    const prefix = `i${index++}-`;
    let inner: string;
    try {
      inner = await renderStatic(<IslandRoot>{createElement(ISLANDS[name], props)}</IslandRoot>, prefix);
    } catch (error) {
      throw new AggregateError([error], `prerendering ${url}: island ${name} failed`, {
        cause: error,
      });
    }
    const used = takeRenderedModules();
    islandModules.push(...used);
    const attributes =
      `data-id-prefix="${prefix}"` +
      (used.length > 0 ? ` data-modules="${escapeAttribute(used.join(' '))}"` : '');
    html = `${html.slice(0, at)}${attributes}${html.slice(at + marker.length, end)}>${inner}</div>${html.slice(end + '></div>'.length)}`;
  }
  return {
    html,
    modules: [...new Set([...modules, ...islandModules])],
    islandModules: [...new Set(islandModules)],
    islands: [...new Set([...found.values()].map((island) => island.name))],
  };
}

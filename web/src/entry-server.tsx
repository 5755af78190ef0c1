/**
 * The prerender entry (built by `vite build --ssr`, run by build/scripts/prerender.mjs): renders one URL of
 * the app to HTML, waiting for every code-split module on the way, and reports which modules it used.
 */
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app/App';
import { takeRenderedModules } from './lib/lazyModule';

export { NOT_FOUND_META, PAGES } from './content/pages';
export { site } from './content/site';

export interface RenderedPage {
  html: string;
  /** Module ids (paths from web/) of the lazy modules the page rendered. */
  modules: string[];
}

export async function render(url: string): Promise<RenderedPage> {
  takeRenderedModules();
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <StaticRouter location={url}>
        <App />
      </StaticRouter>
    </StrictMode>,
    {
      onError: (error) => void errors.push(error),
      // Every boundary inline, however large: React would otherwise move big ones to the end of the document
      // with an inline script to put them in place, which the Content-Security-Policy (script-src 'self') blocks.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  );
  let html = '';
  for await (const chunk of prelude)
    html += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  if (errors.length > 0) throw new AggregateError(errors, `prerendering ${url} failed`);
  return { html, modules: takeRenderedModules() };
}

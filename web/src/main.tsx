import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/App';
import { preloadModules } from './lib/lazyModule';
import './app/styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to mount the app into.');

const app = (
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>
);

if (container.firstElementChild) {
  // A prerendered page (build/scripts/prerender.mjs): load the code-split modules it was rendered with (their
  // files are already on the way, <link rel="modulepreload">), then hydrate the HTML in place.
  const modules = (container.dataset.modules ?? '').split(' ').filter(Boolean);
  void preloadModules(modules)
    .catch(() => undefined)
    .then(() => hydrateRoot(container, app));
} else {
  createRoot(container).render(app);
}

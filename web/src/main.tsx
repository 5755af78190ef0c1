/**
 * The full app: the client portal, the store, the staff screens, sign-in and the rest, on an empty #root
 * (index.html). The prerendered marketing pages load marketing-entry.tsx instead and never reach this code.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/App';
import './app/styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to mount the app into.');

createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);

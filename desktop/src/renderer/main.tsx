// First: zod must be told about the CSP before any schema is built (see zod-csp.ts).
import './zod-csp';
// The theme's tokens ahead of every stylesheet that reads them.
import '@avp/web/tokens.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element to mount the app into.');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

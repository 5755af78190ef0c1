/**
 * The desktop renderer (desktop/src/renderer) built into dist/renderer, where the Electron main process
 * loads it from file:// (src/main/index.ts, RENDERER). Relative asset paths for file://; no inline script
 * or style anywhere, so it runs under the app's CSP (script-src 'self'; style-src 'self').
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

export default defineConfig({
  root: here('./src/renderer'),
  base: './',
  // Vite's own transform reads the JSX mode from tsconfig (react-jsx); fast refresh is not needed because
  // the renderer is only ever served built (Electron, the development bridge).
  oxc: { jsx: { runtime: 'automatic' } },
  resolve: {
    // The shared core from source, as the web app builds it.
    alias: { '@avp/shared': here('../shared/src/index.ts') },
  },
  build: {
    outDir: here('./dist/renderer'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // A data: font or script would be refused by the CSP (font-src 'self'); keep every asset a file.
    assetsInlineLimit: 0,
    // Electron's Chromium knows modulepreload; the polyfill would only add code.
    modulePreload: { polyfill: false },
    sourcemap: true,
    // One bundle read from disk, never over a network: its size is not a page-load concern.
    chunkSizeWarningLimit: 1500,
  },
});

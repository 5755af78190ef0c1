import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000';
// Gallery media from another host (README: MEDIA_BASE_URL), baked in at build time; default /media here.
const mediaBaseUrl = process.env.VITE_MEDIA_BASE_URL ?? process.env.MEDIA_BASE_URL ?? '';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  define: { 'import.meta.env.VITE_MEDIA_BASE_URL': JSON.stringify(mediaBaseUrl) },
  resolve: {
    // Build the shared core from source so the web app never waits on a separate compile step.
    alias: {
      // Before '@avp/shared', which would otherwise take the subpath as a path under index.ts.
      '@avp/shared/media-reader': fileURLToPath(new URL('../shared/src/media/reader.ts', import.meta.url)),
      '@avp/shared': fileURLToPath(new URL('../shared/src/index.ts', import.meta.url)),
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: true,
    // build/scripts/prerender.mjs reads it to link each prerendered page's code-split modules and CSS.
    manifest: true,
    rolldownOptions: {
      // Two entries: the full app (index.html → src/main.tsx) and the prerendered marketing pages' islands
      // (src/marketing-entry.tsx, linked by build/scripts/prerender.mjs), which must not carry the router or the app.
      input: isSsrBuild
        ? undefined
        : {
            index: fileURLToPath(new URL('index.html', import.meta.url)),
            marketing: fileURLToPath(new URL('src/marketing-entry.tsx', import.meta.url)),
          },
      // zod in a chunk of its own, so lib/zodCsp.ts can set it up before any schema is built.
      output: { codeSplitting: { groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ }] } },
    },
  },
}));

import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  resolve: {
    alias: {
      '@avp/shared/media-reader': fileURLToPath(new URL('../shared/src/media/reader.ts', import.meta.url)),
      '@avp/shared': fileURLToPath(new URL('../shared/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    // Two files at a time, with the other projects' (a project does not inherit the root's maxWorkers).
    maxWorkers: 2,
    setupFiles: ['./src/test-setup.ts'],
  },
});

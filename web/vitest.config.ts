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
    // Each file gets a window of its own as a VM context inside a long-lived worker, instead of a fresh worker
    // that loads jsdom and the runner again: that setup, 49 times, was a third of this project's time.
    // 12 files back to back: 21.4 s of CPU with 'threads', 11.4-13.2 s with 'vmThreads'.
    pool: 'vmThreads',
    setupFiles: ['./src/test-setup.ts'],
    // A test that types a form through user-event takes up to 2.1 s at a load of 10 on 2 cores (RegisterPage,
    // VirtualList: 1.7 s), and a full run at high load put DateInput, RegisterPage, ShowcasePage and
    // VirtualList over the default 5 s. 15 s still stops a test that hangs.
    testTimeout: 15_000,
  },
});

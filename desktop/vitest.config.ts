import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      '@avp/shared/media-reader': fileURLToPath(
        new URL('../shared/src/media/reader-node.ts', import.meta.url),
      ),
      '@avp/shared': fileURLToPath(new URL('../shared/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'desktop',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Integration suites start the real API as child processes; one file at a time on a 2-core box.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

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
    // Two files at a time, side by side with the other projects' (a project does not inherit the root's
    // maxWorkers): each starts its own API on a free port with a data folder of its own; the compiled CLI
    // they share is built once, before any of them.
    maxWorkers: 2,
    // api's global setup builds the API these files run (api/dist); this project's builds its own CLI.
    globalSetup: ['../api/test/global-setup.ts', './test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

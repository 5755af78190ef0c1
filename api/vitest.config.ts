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
    name: 'api',
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Two files at a time, side by side with the other projects' (a project does not inherit the root's
    // maxWorkers): each suite has its own throwaway PostgreSQL schema, temp folders, free ports and
    // stand-ins, and its env changes stay in its own worker process.
    maxWorkers: 2,
    // Builds api/dist once, before any file: the files that run the API as a child process run it compiled.
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

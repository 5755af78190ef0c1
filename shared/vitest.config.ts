import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'shared',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Two files at a time, with the other projects' (a project does not inherit the root's maxWorkers).
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';

// One runner for the unit and integration suites of every workspace; browser tests are Playwright's (test/).
export default defineConfig({
  test: {
    projects: ['shared', 'api', 'web', 'desktop'],
    // Two files at a time. Vitest's default on a 2-core machine is one (cores − 1), which ran all 142 files
    // one after another; most integration files spend their time waiting on child processes, PostgreSQL
    // and timers, so a second worker fills those waits. `--maxWorkers N` overrides it on a larger box.
    maxWorkers: 2,
    coverage: {
      provider: 'v8',
      include: ['shared/src/**/*.ts', 'api/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
      exclude: ['**/*.test.ts', '**/*.test.tsx', '**/index.ts'],
      // The HTML report is for a person reading it locally; CI only prints the summary and checks thresholds.
      reporter: process.env.CI ? ['text-summary'] : ['text-summary', 'html'],
      thresholds: {
        'shared/src/**/*.ts': { lines: 95, branches: 95, functions: 95, statements: 95 },
      },
    },
  },
});

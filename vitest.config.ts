import { defineConfig } from 'vitest/config';

// One runner for the unit and integration suites of every workspace; browser tests are Playwright's (test/).
export default defineConfig({
  test: {
    projects: ['shared', 'api', 'web', 'desktop'],
    coverage: {
      provider: 'v8',
      include: ['shared/src/**/*.ts', 'api/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
      exclude: ['**/*.test.ts', '**/*.test.tsx', '**/index.ts'],
      reporter: ['text-summary', 'html'],
      thresholds: {
        'shared/src/**/*.ts': { lines: 95, branches: 95, functions: 95, statements: 95 },
      },
    },
  },
});

import { test as base, expect } from '@playwright/test';

/** Every browser test talks to the one real server started by global-setup.ts. */
export const test = base.extend({
  // Playwright reads a fixture's dependencies from its destructuring pattern: this one has none.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error('E2E_BASE_URL is not set: the Playwright global setup did not run.');
    await use(url);
  },
});

export { expect };

import { existsSync } from 'node:fs';
import { chromium, defineConfig, devices } from '@playwright/test';

/**
 * Chromium comes from CHROMIUM_PATH, else Playwright's own download when present, else Debian's
 * /usr/bin/chromium (Playwright cannot download its browser on the CI machine).
 */
function chromiumExecutable(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    if (existsSync(chromium.executablePath())) return undefined;
  } catch {
    // no bundled browser registered: fall through to the system one
  }
  return '/usr/bin/chromium';
}

export default defineConfig({
  testDir: './e2e',
  outputDir: './.tmp/results',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI
    ? [['list']]
    : [['list'], ['html', { open: 'never', outputFolder: './.tmp/report' }]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    ...devices['Desktop Chrome'],
    // Recording a trace for every test and keeping only the failures' cost a fifth of the browser tests' CPU
    // (marketing + ui-kit, 53 tests: 60.8 s with it, 47.6 s without). On CI, where a failure is retried once,
    // the retry records it.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumExecutable(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});

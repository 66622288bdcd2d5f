import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// Run through `pnpm --filter @staging/web test` (or `e2e`): tools/stack/src/e2e-run.ts builds the
// app, starts the stack and passes its URLs in E2E_STACK. Artifacts go to the git-ignored
// <repo>/test-results; the JSON report to <repo>/.test-results, summed by the root test command.
const repoRoot = path.resolve(import.meta.dirname, '../..');
const stack = JSON.parse(process.env.E2E_STACK ?? '{}') as { webUrl?: string };

export default defineConfig({
  testDir: './e2e',
  outputDir: path.join(repoRoot, 'test-results/e2e-artifacts'),
  // Hang guards, not expectations: with the whole suite on two cores a page can take many seconds
  // to answer, and a passing test never waits for these.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  // Spec files run in parallel; tests inside one file run in order (the staging file scripts the
  // simulator's fault queue, which is global to the run).
  fullyParallel: false,
  // Two browsers, not four: beside the rest of the suite on two cores, four Chromiums and the
  // pages they asked for took most of the CPU, and the other packages' hang guards ran out.
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? path.join(repoRoot, '.test-results/playwright.json') }],
  ],
  use: {
    ...devices['Desktop Chrome'],
    baseURL: stack.webUrl,
    locale: 'en-US',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
});

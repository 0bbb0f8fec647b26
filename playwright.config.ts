// End-to-end tests: the built site (dist/), served statically, in a real Chromium.
// Browser: Playwright's own if installed, else $PLAYWRIGHT_CHROMIUM_EXECUTABLE, else /usr/bin/chromium.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './src/pipeline/browser.ts';

// A port per run (workers inherit it from the main process), so concurrent runs don't collide.
process.env.PODLIFE_E2E_PORT ??= String(4400 + (process.pid % 2000));
const port = Number(process.env.PODLIFE_E2E_PORT);
const browser = findChromium();
if (!browser) {
  throw new Error(
    'No Chromium for the end-to-end tests. Install one (`sudo apt-get install -y chromium`, or ' +
      '`npx playwright install chromium`) or set PLAYWRIGHT_CHROMIUM_EXECUTABLE.',
  );
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? 'list' : [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: browser.source === 'playwright' ? undefined : browser.executablePath,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: `node tests/e2e/serve.ts dist ${port}`,
    url: `http://127.0.0.1:${port}/en/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});

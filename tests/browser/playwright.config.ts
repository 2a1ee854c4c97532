import { defineConfig } from '@playwright/test';

/**
 * One worker unless `TEST_BROWSER_WORKERS` asks for more (docs/testing.md, "Two Playwright workers":
 * no spec shares a port, a data folder or a kiosk with another file's, so any file may run beside
 * any other; whether a second worker makes the stage shorter on CI's two cores is timed there).
 */
function workers(value = '1'): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`TEST_BROWSER_WORKERS must be a whole number of workers, 1 or more, not "${value}"`);
  return n;
}

/**
 * Browser tests drive Debian's Chromium (never a downloaded browser). WebGL runs in software
 * (SwiftShader) on these machines: tests assert what is drawn, never frame rates.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // `etg` bundled once before the tests, for the kiosks they start (etg-child.ts).
  globalSetup: './global-setup.ts',
  outputDir: '../../test-results',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  workers: workers(process.env['TEST_BROWSER_WORKERS']),
  retries: 0,
  reporter: [['list']],
  use: {
    viewport: { width: 1920, height: 1080 },
    deviceScaleFactor: 1,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});

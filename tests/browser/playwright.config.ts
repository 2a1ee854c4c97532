import { defineConfig } from '@playwright/test';

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
  workers: 1,
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

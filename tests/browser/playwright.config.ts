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
    // 1280×720: the cabinet's 16:9 at under half of 1080p's pixels. SwiftShader draws every frame
    // on the CPU at a cost about in proportion to the pixels (a station's frame ~0.41 s of the GPU
    // process's CPU at 1920×1080, ~0.19 s at 1280×720), and that drawing is two thirds to three
    // quarters of a browser spec's CPU (docs/testing.md, "The browser stage's CPU is SwiftShader's"). The
    // screens lay out in design units scaled to fit, so a flow behaves the same at any 16:9; the
    // specs about the cabinet's own pixels (context-loss, screen-matrix, several-tables, the layout
    // checks at 1920×1080, 1366×768 and 1280×800) ask for their sizes themselves.
    viewport: { width: 1280, height: 720 },
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

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';

// The browser specs' screenshot for a person to look at: written to artifacts/screenshots and
// attached to the test's report, never read back by a test (docs/testing.md).

const shots = path.resolve(import.meta.dirname, '../../artifacts/screenshots');

/** The page as drawn now, saved as `artifacts/screenshots/<name>.png` and attached to the test as `name`. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

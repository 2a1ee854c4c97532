// The service screen's heap page by page (issue 52 item 3: the busiest service page ≤ 12 MB at
// 1920×1080), for bench/long-run.bench.ts: a technician signs in on the kiosk's service screen (the
// PIN pads pressed where the screen's test hook says its keys are, as the browser tests do) and opens
// every page in turn; each page is read as the long run's pages are (heap after two GCs, over CDP,
// bounded), after a few seconds to draw it. The busiest page is the one with the largest heap.
import type { Page } from '@playwright/test';
import { AccountStore } from '../host/service/accounts.js';
import { SERVICE_PAGES } from '../protocol/index.js';
import type { PageProbe } from './page-probe.js';

/** The technician who signs in (a supervisor first: the first account must be one). */
const SUPERVISOR = { name: 'Bench Supervisor', role: 'supervisor' as const, staff: '3001', pin: '482915' };
const TECHNICIAN = { name: 'Bench Technician', role: 'technician' as const, staff: '3002', pin: '739164' };

/** The service accounts in the host's data folder, before the host starts (as `npm run service -- add-user` would). */
export async function addServiceAccounts(dataDir: string): Promise<void> {
  const accounts = new AccountStore(dataDir);
  try {
    await accounts.add(SUPERVISOR, null);
    await accounts.add(TECHNICIAN, SUPERVISOR);
  } finally {
    accounts.close();
  }
}

interface Hooks {
  __kiosk?: { bounds(testId: string): { x: number; y: number; width: number; height: number } | null };
}

/** Where a button is once the screen has it (polled up to `ms`). */
async function shown(page: Page, testId: string, ms = 120_000): Promise<{ x: number; y: number; width: number; height: number }> {
  const until = Date.now() + ms;
  for (;;) {
    const b = await page.evaluate((id) => (globalThis as unknown as Hooks).__kiosk?.bounds(id) ?? null, testId);
    if (b) return b;
    if (Date.now() > until) throw new Error(`no button ${testId} on the service screen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Presses a button once the screen has it, at its middle. */
async function press(page: Page, testId: string): Promise<void> {
  const b = await shown(page, testId);
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
}

/** Each service page's heap after GC (bytes; NaN where the read gave none), in SERVICE_PAGES' order. */
export type ServiceHeaps = { page: string; heap: number; failure: string | null }[];

/** Signs the technician in on `probe`'s page (the service screen, open) and reads every page's heap. */
export async function serviceHeaps(probe: PageProbe, readMs: number, say: (line: string) => void): Promise<ServiceHeaps> {
  const { page } = probe;
  for (const value of [TECHNICIAN.staff, TECHNICIAN.pin]) {
    for (const key of value) await press(page, `signin-${key}`);
    await press(page, 'signin-ok');
  }
  await shown(page, 'sign-out'); // the session is open
  // With the table playing the service view moves on between a frame and the press made against it,
  // and the host refuses the command (`stale-version`, a console warning of the screen's): pressed again.
  let refused = 0;
  page.on('console', (m) => {
    if (m.text().includes('host refused')) refused++;
  });
  const out: ServiceHeaps = [];
  for (const name of SERVICE_PAGES) {
    for (let attempt = 1; ; attempt++) {
      const before = refused;
      await press(page, `page-${name}`);
      // The page's view comes from the host after the press; a few seconds to arrive and be drawn.
      await new Promise((r) => setTimeout(r, 4000));
      if (refused === before) break;
      if (attempt === 10) throw new Error(`the ${name} page's press refused 10 times`);
    }
    const read = await probe.read(readMs);
    out.push({ page: name, heap: read.heap, failure: read.failure });
    say(`service page ${name}: JS heap after GC ${(read.heap / 1024 / 1024).toFixed(2)} MB${read.failure ? ` (${read.failure})` : ''}`);
  }
  return out;
}

import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { KioskTestHooks } from '../../renderer/src/test-hooks.js';

export interface Kiosk {
  origin: string;
  screens: Record<string, string>;
  simToken?: string;
}

declare global {
  interface Window {
    __kiosk?: KioskTestHooks;
  }
}

/** Starts the kiosk exactly as `npm start -- --headless --json` does, in a fresh data folder. */
async function launchKiosk(extra: string[] = []): Promise<{ kiosk: Kiosk; child: ChildProcess; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kiosk-browser-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/start.ts', '--headless', '--json', '--data-dir', dataDir, ...extra], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const kiosk = await new Promise<Kiosk>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`kiosk exited with ${code} before printing its URLs`)));
    lines.once('line', (line) => resolve(JSON.parse(line) as Kiosk));
  });
  return { kiosk, child, dataDir };
}

export async function withKiosk(extra: string[], use: (k: Kiosk) => Promise<void>): Promise<void> {
  const { kiosk, child, dataDir } = await launchKiosk(extra);
  await use(kiosk);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

export const test = base.extend<{ pageErrors: string[] }, { kiosk: Kiosk; baccaratKiosk: Kiosk }>({
  // Playwright reads a fixture's dependencies from its destructuring pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  kiosk: [async ({}, use) => withKiosk([], use), { scope: 'worker' }],
  // eslint-disable-next-line no-empty-pattern
  baccaratKiosk: [async ({}, use) => withKiosk(['--game', 'baccarat', '--sim-controls', '--seed', '5', '--betting-seconds', '12', '--results-seconds', '30'], use), { scope: 'worker' }],
  pageErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`${e.message} ${e.stack ?? ''}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await use(errors);
  },
});

export { expect };

/** Waits for a named screen event (never a sleep). */
export async function waitForEvent(page: Page, name: string): Promise<void> {
  await page.waitForFunction((n) => window.__kiosk?.events.includes(n) ?? false, name);
}

/** The strings drawn on the canvas, with non-breaking spaces made plain for comparison. */
export async function drawnTexts(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => window.__kiosk?.texts() ?? []);
  return texts.map((t) => t.replace(/[\u00a0\u202f]/g, ' '));
}

/** Presses a pixi button the way a finger would: a real pointer event at its centre. */
export async function press(page: Page, testId: string): Promise<void> {
  const b = await page.evaluate((id) => window.__kiosk?.bounds(id) ?? null, testId);
  if (!b) throw new Error(`no button ${testId} on screen`);
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
}

/** The codes of the cards drawn on a screen. */
export async function drawnCards(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__kiosk?.cards() ?? []);
}

/** Inserts a note at a simulated bill acceptor through the kiosk's sim control channel. */
export async function insertNote(kiosk: Kiosk, station: number, note: number): Promise<void> {
  const r = await fetch(`${kiosk.origin}/sim/insert-note`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sim-token': kiosk.simToken ?? '' },
    body: JSON.stringify({ station, note }),
  });
  if (!r.ok) throw new Error(`insert-note: ${r.status} ${await r.text()}`);
}

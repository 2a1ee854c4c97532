// What a started host tells its user: where it serves and each screen's URL (`--json`: one line
// for scripts and tests), then the windows on the screens asked for, where a window can open.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { RunningHost } from '../../host/start-host.js';
import { openChromiumWindows } from './chromium-windows.js';
import { findChromium, hasDisplay } from './find-runtimes.js';
import type { StartPlan } from './plan.js';

/** Prints the host's origin and every screen's URL; says which asked-for screens the table does not have. */
export function announceHost(running: RunningHost, plan: StartPlan): void {
  const unknown = plan.wanted.filter((w) => !running.screens.urls.some((s) => s.view === w));
  if (unknown.length) console.error(`No such screen at this table: ${unknown.join(', ')}`);
  if (plan.values.json) {
    console.log(
      JSON.stringify({
        origin: running.origin,
        health: `${running.origin}/healthz`,
        dataDir: plan.dataDir,
        ...(running.simToken ? { simToken: running.simToken } : {}),
        screens: Object.fromEntries(running.screens.urls.map((s) => [s.view, s.url])),
      }),
    );
  } else {
    console.log(`Table host on ${running.origin}  (data: ${plan.dataDir})`);
    console.log(`Health:  ${running.origin}/healthz`);
    for (const s of running.screens.urls) console.log(`${s.view.padEnd(10)} ${s.url}`);
  }
}

/**
 * The asked-for screens as Chromium app windows. Without Chromium or a display it says why and
 * opens none: the host keeps serving, and the URLs printed above open in any browser.
 */
export function openScreenWindows(running: RunningHost, plan: StartPlan): ChildProcess[] {
  const chromium = findChromium();
  if (!chromium) {
    console.error(
      'Neither Electron nor Chromium was found, so no window can open.\n' +
        '  Install Chromium (Debian: apt-get install chromium) or set CHROMIUM_PATH,\n' +
        '  or open the URLs above in a browser; the host keeps serving (Ctrl+C stops it).',
    );
    return [];
  }
  if (!hasDisplay()) {
    console.error('No display (DISPLAY/WAYLAND_DISPLAY unset): not opening windows. Use --headless to silence this.');
    return [];
  }
  const screens = running.screens.urls.filter((s) => plan.wanted.includes(s.view));
  return openChromiumWindows(
    chromium,
    screens.map((s) => s.url),
    { profileDir: path.join(plan.dataDir, 'chromium-profile'), kiosk: plan.values.kiosk },
  );
}

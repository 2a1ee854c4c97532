import path from 'node:path';
import type { ViewName } from '../protocol/index.js';
import { planDisplays } from './displays.js';
import type { BrowserWindowLike, DisplayLike, Rect } from './electron-api.js';
import type { Kiosk } from './kiosk-state.js';
import { OUT_OF_SERVICE_PATH } from './out-of-service.js';
import { watchScreen } from './process-watch.js';
import { relaunchArgs, relaunchDecision } from './relaunch-policy.js';
import { APP_ORIGIN, isBlockedKey, isServiceKey } from './security.js';

// The kiosk's windows (electron/kiosk-main.ts): one per view on the displays the screen map gives
// it, locked down, the service window on its key combination, and the way out when things fail:
// a relaunch, or the out-of-service page once relaunching has not helped.

/**
 * Relaunches the app, counting consecutive relaunches on the relaunched process's command line;
 * past the policy's limit, the out-of-service page instead (never a desktop or a black screen).
 */
export function relaunch(k: Kiosk, why: string, exitCode = 1): void {
  if (k.quitting || k.outOfService) return;
  const d = relaunchDecision(k.relaunches, k.startedAt, k.now());
  if (d.action === 'out-of-service') {
    k.log.fatal({ why, relaunches: d.count }, 'kiosk kept failing: out of service until a technician restarts it');
    showOutOfService(k);
    return;
  }
  k.log.error({ why, relaunch: d.count }, 'relaunching the kiosk');
  k.log.flush();
  k.e.app.relaunch({ args: relaunchArgs(k.o.relaunchArgv ?? process.argv.slice(1), d.count) });
  k.e.app.exit(exitCode);
}

/** The table host stopped and every display showing the out-of-service page. */
function showOutOfService(k: Kiosk): void {
  k.outOfService = true;
  const h = k.host;
  k.host = null;
  h?.kill();
  const url = `${APP_ORIGIN}${OUT_OF_SERVICE_PATH}`;
  if (k.windows.size === 0) {
    for (const d of k.e.screen.getAllDisplays()) openWindow(k, `out-of-service/${d.id}`, d.bounds);
  } else for (const w of k.windows.values()) void w.loadURL(url).catch(() => undefined);
}

function lockDown(k: Kiosk, window: BrowserWindowLike, view: string): void {
  const contents = window.webContents;
  contents.on('did-create-window', (child) => {
    // Only the printable meters report opens a window (the guards): printed, then closed.
    child.webContents.once('did-finish-load', () => child.webContents.print({}, () => child.close()));
  });
  contents.on('before-input-event', (ev, input) => {
    if (isServiceKey(input)) {
      ev.preventDefault();
      toggleServiceWindow(k, window);
      return;
    }
    if (k.kiosk && isBlockedKey(input)) ev.preventDefault();
  });
  window.on('close', (ev) => {
    // The service window closes with its key combination; the table and stations never do.
    if (k.kiosk && !k.quitting && !k.closing.has(window)) ev.preventDefault();
  });
  watchScreen(contents, view, k.log, (why) => relaunch(k, why), k.now);
}

/** A window for a view (or the out-of-service page under a pseudo-view per display). */
function openWindow(k: Kiosk, view: ViewName | `out-of-service/${number}`, bounds: Rect): BrowserWindowLike {
  const { kiosk } = k;
  const window = new k.e.BrowserWindow({
    ...bounds,
    kiosk,
    frame: !kiosk,
    autoHideMenuBar: true,
    backgroundColor: '#05140e',
    webPreferences: {
      preload: path.join(k.o.here, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      devTools: !kiosk,
      spellcheck: false,
    },
  });
  lockDown(k, window, view);
  const id = window.webContents.id;
  const v = view as ViewName;
  k.windows.set(v, window);
  k.byContents.set(id, v);
  window.on('closed', () => {
    if (k.windows.get(v) === window) k.windows.delete(v);
    k.byContents.delete(id);
  });
  void window.loadURL(k.outOfService ? `${APP_ORIGIN}${OUT_OF_SERVICE_PATH}` : `${APP_ORIGIN}/${view}`).catch(() => undefined);
  return window;
}

function closeWindow(k: Kiosk, window: BrowserWindowLike): void {
  k.closing.add(window);
  window.close();
}

/** The service key combination: open service mode over the display it was pressed on, or close it. */
function toggleServiceWindow(k: Kiosk, from: BrowserWindowLike): void {
  if (k.outOfService) return;
  const open = k.windows.get('service');
  if (open) return closeWindow(k, open);
  openWindow(k, 'service', k.e.screen.getDisplayMatching(from.getBounds()).bounds).focus();
}

/** The screen map applied to the displays there are now (at start and after each hot-plug). */
export function applyDisplays(k: Kiosk, displays: DisplayLike[], why: string): void {
  k.awake?.check();
  const open = [...k.windows.keys()].filter((v) => v !== 'service' && !v.startsWith('out-of-service/'));
  if (k.outOfService) {
    for (const d of displays) if (![...k.windows.values()].some((w) => sameRect(w.getBounds(), d.bounds))) openWindow(k, `out-of-service/${d.id}`, d.bounds);
    return;
  }
  const plan = planDisplays(open, displays, k.map);
  for (const { view, display } of plan.place) k.windows.get(view)?.setBounds(display.bounds);
  for (const view of plan.close) {
    const w = k.windows.get(view);
    if (w) closeWindow(k, w);
  }
  for (const { view, display } of plan.open) openWindow(k, view, display.bounds);
  if (why !== 'start' || plan.unplaced.length)
    k.log.info(
      { why, displays: displays.map((d) => d.id), unplaced: plan.unplaced, closed: plan.close, opened: plan.open.map((w) => w.view) },
      'screen map applied',
    );
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}
